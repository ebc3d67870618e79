// One board large, with its scoresheet: the hub pushes its card and its detail.
"use strict";
(() => {
  const id = decodeURIComponent(location.pathname.split("/").pop());
  let current = null;
  document.getElementById("title").textContent = "Board " + id;
  document.title = "Damath board " + id;

  function show(c) {
    current = c;
    const s = c.summary, names = Hub.names(c), st = Hub.statusOf(c);
    const t = c.assignment && c.assignment.table ? "Table " + c.assignment.table + " · " : "";
    document.getElementById("title").textContent = t + "Board " + id;
    const pill = document.getElementById("pill");
    pill.className = "pill " + st.pill;
    pill.textContent = st.text;
    Hub.drawBoard(document.getElementById("board"), s, true);
    for (const side of ["blue", "red"]) {
      const p = document.querySelector(".player." + side);
      const turn = s && s.phase === "play" && s.to_move === side;
      p.classList.toggle("turn", !!turn);
      p.querySelector(".name").textContent = (turn ? "▶ " : "") + names[side];
      p.querySelector(".total").textContent = s ? s.totals[side] : "–";
    }
    const status = document.getElementById("status");
    status.textContent = st.line;
    status.classList.toggle("problem", st.pill === "problem");
    document.body.dataset.ply = s ? s.ply : 0;
    tick();
  }

  function sheet(d) {
    const body = document.querySelector("#sheet tbody");
    body.textContent = "";
    const rows = (d.sheet && d.sheet.rows) || [];
    const cells = (r) => r ? [r.entry, r.score, r.total] : ["", "", ""];
    const lines = [];
    for (const r of rows) {
      if (r.kind === "move" || r.kind === "take") lines.push(r.player === "BLUE" ? [r, null] : [null, r]);
    }
    for (const kind of ["rc", "total", "grand"]) {
      const b = rows.filter((r) => r.kind === kind && r.player === "BLUE");
      const rr = rows.filter((r) => r.kind === kind && r.player === "RED");
      for (let i = 0; i < Math.max(b.length, rr.length); i++) lines.push([b[i] || null, rr[i] || null]);
    }
    lines.forEach(([b, r], i) => {
      const tr = document.createElement("tr");
      if (i === lines.length - 1 && !(d.sheet && d.sheet.finished)) tr.className = "last";
      for (const [side, row] of [["blue", b], ["red", r]]) {
        for (const text of cells(row)) {
          const td = document.createElement("td");
          td.className = side;
          td.textContent = text;
          tr.appendChild(td);
        }
      }
      body.appendChild(tr);
    });
    const box = document.querySelector(".sheetbox");
    box.scrollTop = box.scrollHeight;
    document.body.dataset.sheetRows = rows.length;
  }

  function tick() {
    if (!current) return;
    const k = Hub.clocks(current);
    document.querySelector(".game").textContent = k ? Hub.mmss(k.game) : "–";
    const m = document.querySelector(".move");
    m.textContent = k ? Hub.mmss(k.move) : "–";
    m.classList.toggle("low", !!k && k.move < 10000);
  }

  Hub.facts().then(() => {
    Hub.stream(id, {
      hello(list) { const c = list.find((x) => x.board === id); if (c) show(c); },
      card(c) { if (c.board === id) show(c); },
      detail(d) { if (d.board === id) sheet(d); },
      connected(ok) {
        const e = document.getElementById("conn");
        e.textContent = ok ? "live" : "reconnecting…";
        e.classList.toggle("lost", !ok);
      },
    });
  });
  setInterval(tick, 250);
})();
