// The arbiter's PIN on a board's page (docs/security.md). Self-contained: it watches the page's
// channel without touching sim.js. When the board answers "that is for the arbiter", it asks for
// the PIN, unlocks this browser (an HttpOnly cookie set by /api/unlock), reconnects the channel
// and sends the refused action again. A small button in the header shows the state and locks.
// Load it before sim.js. Styles are set from script (CSSOM): the page's CSP allows no inline CSS.
"use strict";

(() => {
  const Native = window.WebSocket;
  let channel = null;      // the page's current WebSocket
  let pending = null;      // the action to send again once unlocked
  let resend = false;      // send it when the next channel says hello
  let pinNeeded = false;
  let role = "player";

  // Watch the channel the page opens (the page keeps using it exactly as before).
  class WatchedSocket extends Native {
    constructor(...args) {
      super(...args);
      channel = this;
      this.addEventListener("message", (ev) => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        if (msg.type === "hello" && resend && pending) {
          resend = false;
          this.send(JSON.stringify(pending));
          pending = null;
        } else if (msg.type === "error" && msg.need === "arbiter") {
          pending = msg.retry || null;
          ask(msg.message);
        }
      });
    }
  }
  window.WebSocket = WatchedSocket;

  function style(el, css) { Object.assign(el.style, css); return el; }

  // ---------------------------------------------------------------- the PIN dialog

  let dialog = null;
  function build() {
    dialog = style(document.createElement("dialog"), { maxWidth: "22rem", padding: "1rem" });
    dialog.id = "pin-dialog";
    dialog.setAttribute("aria-labelledby", "pin-title");
    const form = document.createElement("form");
    form.method = "dialog";
    const title = document.createElement("h2");
    title.id = "pin-title";
    title.textContent = "Arbiter's PIN";
    const why = style(document.createElement("p"), { margin: "0.5rem 0" });
    why.id = "pin-why";
    const label = document.createElement("label");
    label.textContent = "PIN ";
    const input = document.createElement("input");
    input.id = "pin-input";
    input.type = "password";
    input.autocomplete = "off";
    input.inputMode = "numeric";
    input.maxLength = 64;
    input.required = true;
    label.append(input);
    const problem = style(document.createElement("p"), { color: "#b00020", minHeight: "1.2em" });
    problem.id = "pin-problem";
    problem.setAttribute("role", "alert");
    const ok = document.createElement("button");
    ok.type = "submit";
    ok.id = "pin-ok";
    ok.textContent = "Unlock";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => { pending = null; dialog.close(); });
    style(ok, { marginRight: "0.5rem" });
    form.append(title, why, label, problem, ok, cancel);
    form.addEventListener("submit", (e) => { e.preventDefault(); unlock(input.value); });
    dialog.append(form);
    document.body.append(dialog);
  }

  function ask(text) {
    if (!dialog) build();
    document.getElementById("pin-why").textContent = text;
    document.getElementById("pin-problem").textContent = "";
    document.getElementById("pin-input").value = "";
    if (!dialog.open) dialog.showModal();
    document.getElementById("pin-input").focus();
  }

  async function unlock(pin) {
    let answer;
    try {
      const r = await fetch("/api/unlock", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ pin }),
        credentials: "same-origin",
      });
      answer = await r.json();
    } catch (e) {
      document.getElementById("pin-problem").textContent = "the board did not answer";
      return;
    }
    if (answer.error) {
      document.getElementById("pin-problem").textContent = answer.error;
      return;
    }
    dialog.close();
    show(answer.role);
    resend = true;
    if (channel) channel.close(); // the page reconnects; the new channel carries the cookie
  }

  // ---------------------------------------------------------------- the header button

  let button = null;
  function show(newRole) {
    role = newRole;
    if (!pinNeeded) return;
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.id = "arbiter";
      button.addEventListener("click", async () => {
        if (role === "arbiter") {
          const r = await fetch("/api/lock", { method: "POST", credentials: "same-origin" });
          show((await r.json()).role);
          if (channel) channel.close();
        } else {
          pending = null;
          ask("Unlock the arbiter's buttons on this browser.");
        }
      });
      const place = document.querySelector("header.top") || document.body;
      place.append(button);
    }
    button.textContent = role === "arbiter" ? "Arbiter: on (lock)" : "Arbiter: locked";
    button.setAttribute("aria-pressed", role === "arbiter" ? "true" : "false");
  }

  fetch("/api/access", { credentials: "same-origin" })
    .then((r) => r.json())
    .then((a) => { pinNeeded = a.pin; show(a.role); })
    .catch(() => {});
})();
