// One board large, with its scoresheet: the hub pushes its card and its detail.
"use strict";
(() => {
  const id = decodeURIComponent(location.pathname.split("/").pop());
  let current = null;
  document.getElementById("title").textContent = "Board " + id;
  document.title = "Board " + id;  // whatever game it plays

  function show(c) {
    current = c;
    const table = Hub.fill(document.body, c, true);
    document.getElementById("title").textContent = table + "Board " + id;
    document.title = table + "Board " + id;
    tick();
  }

  // Another game than Damath: its record as the board exports it (its moves, throws or turns).
  function record(d) {
    const pre = document.getElementById("record"), table = document.getElementById("sheet");
    pre.hidden = !d.record;
    table.hidden = !!d.record;
    if (d.record && pre.textContent !== d.record) pre.textContent = d.record;
    return !!d.record;
  }

  function sheet(d) {
    if (record(d)) return;
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

  function tick() { if (current) Hub.tick(document.body, current); }

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
