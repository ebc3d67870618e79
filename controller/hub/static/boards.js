// The organiser's board list: fetched again when the hub pushes a change (never polled).
"use strict";
(() => {
  let pending = false;
  const ago = (t, now) => t ? Math.max(0, Math.round(now - t)) + " s ago" : "never";
  const td = (text, cls) => { const e = document.createElement("td"); e.textContent = text;
    if (cls) e.className = cls; return e; };

  function refused(counters) {
    return Object.entries(counters).filter(([k]) => k.startsWith("rejected:"))
      .reduce((n, [, v]) => n + v, 0);
  }

  async function load() {
    pending = false;
    const [b, p] = await Promise.all([fetch("/api/boards").then((r) => r.json()),
      fetch("/api/problems").then((r) => r.json())]);
    document.getElementById("broker").textContent = "broker " + b.broker.url +
      (b.broker.connected ? "" : " (not connected)") +
      (b.broker.restarts ? ", restarted " + b.broker.restarts + "×" : "");
    const st = b.store || {};
    const store = document.getElementById("store");
    let said = "store " + (st.records || 0) + " records of " + (st.games || 0) + " games";
    if (st.backup && st.backup.at) said += ", backed up " + new Date(st.backup.at * 1000)
      .toLocaleTimeString();
    if (st.rebuild) said += ", rebuilding from the boards: it held " +
      st.rebuild.expected.records + " records";
    if (st.problem) said += ": CANNOT BE WRITTEN (" + st.problem + ")";
    if (st.backup_problem) said += "; " + st.backup_problem;
    store.textContent = said;
    store.className = "meta" + (st.problem || st.backup_problem ? " bad" : "");
    const body = document.querySelector("#boards tbody");
    body.textContent = "";
    for (const x of b.boards) {
      const tr = document.createElement("tr");
      const dot = td(""); const span = document.createElement("span");
      span.className = "dot" + (x.online ? " on" : ""); span.title = x.online ? "online" : "offline";
      dot.appendChild(span); tr.appendChild(dot);
      tr.appendChild(td(x.board));
      tr.appendChild(td(ago(x.last_contact, b.now)));
      tr.appendChild(td(x.game || "–"));
      tr.appendChild(td(String(x.records)));
      tr.appendChild(td(String((x.counters.duplicate || 0) + (x.counters["out-of-order"] || 0))));
      const n = refused(x.counters);
      tr.appendChild(td(String(n), n ? "bad" : ""));
      tr.appendChild(td((x.problems || []).join("; ") || "–", (x.problems || []).length ? "bad" : ""));
      tr.appendChild(td(x.software || "–"));
      tr.appendChild(td(x.firmware || "–"));
      body.appendChild(tr);
    }
    const unknown = refused(b.unknown || {});
    if (unknown) {
      const tr = document.createElement("tr");
      tr.appendChild(td("")); tr.appendChild(td("(unknown)"));
      for (let i = 0; i < 4; i++) tr.appendChild(td(""));
      tr.appendChild(td(String(unknown), "bad"));
      body.appendChild(tr);
    }
    const pb = document.querySelector("#problems tbody");
    pb.textContent = "";
    if (!p.rejected.length) {
      const tr = document.createElement("tr");
      const cell = td("None: every message so far was accepted.");
      cell.colSpan = 4;
      tr.appendChild(cell);
      pb.appendChild(tr);
    }
    for (const r of p.rejected) {
      const tr = document.createElement("tr");
      tr.appendChild(td(new Date(r.at * 1000).toLocaleTimeString()));
      tr.appendChild(td(r.board_id || "?"));
      tr.appendChild(td(r.reason + ": " + r.meaning, "bad"));
      tr.appendChild(td(r.detail));
      pb.appendChild(tr);
    }
    // each value named by its column: on a phone the rows are shown as cards
    for (const t of document.querySelectorAll("table.list")) {
      const names = [...t.querySelectorAll("thead th")].map((th) => th.textContent);
      for (const tr of t.querySelectorAll("tbody tr")) {
        [...tr.children].forEach((cell, i) => {
          if (names[i] && cell.colSpan === 1) cell.dataset.label = names[i];
        });
      }
    }
  }

  function soon() { if (!pending) { pending = true; setTimeout(load, 500); } }
  Hub.stream(null, {
    hello: () => load(), card: soon,
    connected(ok) { const e = document.getElementById("conn");
      e.textContent = ok ? "live" : "reconnecting…"; e.classList.toggle("lost", !ok); },
  });
})();
