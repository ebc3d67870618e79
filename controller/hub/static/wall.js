// The spectator wall: one card per board, redrawn when the hub pushes it. In a tournament it
// shows only the boards of the current round, in table order (the hub's facts name them; read
// again every 15 s, as a new round is sent); a board retired leaves the wall at once.
"use strict";
(() => {
  const wall = document.getElementById("wall");
  const cards = new Map();
  let tables = null; // board -> {table, division, round}; null: no tournament, every board
  let updates = 0;

  function key(board) {
    const t = tables && tables[board];
    return t ? [t.division, String(t.table).padStart(4, "0")].join("\u0000") : board;
  }

  function shown(board) { return !tables || board in tables; }

  function divisions() { return new Set(Object.values(tables || {}).map((t) => t.division)).size; }

  function card(c) {
    let a = document.getElementById("b-" + c.board);
    if (!shown(c.board)) { if (a) a.remove(); return; }
    if (!a) {
      a = document.createElement("a");
      a.className = "card";
      a.id = "b-" + c.board;
      a.dataset.key = key(c.board);
      a.href = "/board/" + encodeURIComponent(c.board);
      a.innerHTML = '<div class="head"><span class="title"></span><span class="pill"></span></div>' +
        '<svg class="board" role="img"></svg>' +
        '<div class="players"><div class="player blue"><div class="name"></div><div class="total"></div></div>' +
        '<div class="player red"><div class="name"></div><div class="total"></div></div></div>' +
        '<div class="clocks"><span>Game <b class="game"></b></span><span>Move <b class="move"></b></span></div>' +
        '<div class="status"></div>';
      const empty = wall.querySelector(".empty");
      if (empty) empty.remove();
      const after = [...wall.children].find((x) => x.dataset.key > a.dataset.key);
      wall.insertBefore(a, after || null);
    }
    const t = tables && tables[c.board];
    const prefix = Hub.fill(a, c, false);
    // several divisions on the wall (a hall of several games): each card names its division
    const division = t && divisions() > 1 ? t.division + " · " : "";
    // a game of an earlier round still on the board is labelled with its own round and table
    const here = t && !c.played ? division + "Table " + t.table + " · " : division + prefix;
    a.querySelector(".title").textContent = (t ? here : prefix) + c.board;
    Hub.tick(a, c);
  }

  function redraw() {
    for (const a of [...wall.querySelectorAll(".card")]) a.remove();
    for (const c of cards.values()) card(c);
    count();
  }

  function count() {
    const all = [...cards.values()].filter((c) => shown(c.board));
    const online = all.filter((c) => c.online).length;
    const rounds = tables ? [...new Set(Object.values(tables).map((t) => t.round))] : [];
    document.getElementById("count").textContent = tables
      ? all.length + " tables of round " + rounds.join(", ") + ", " + online + " online"
      : all.length + " boards, " + online + " online";
    if (!all.length && !wall.querySelector(".empty")) {
      const p = document.createElement("p");
      p.className = "empty";
      p.textContent = tables ? "No table of this round is on a board yet." : "Waiting for the boards…";
      wall.appendChild(p);
    }
  }

  function learn(f) {
    document.getElementById("event").textContent = f.event;
    const next = f.tables ? Object.fromEntries(f.tables.map((t) => [t.board, t])) : null;
    if (JSON.stringify(next) !== JSON.stringify(tables)) { tables = next; redraw(); }
  }

  Hub.facts().then(learn);
  setInterval(() => Hub.facts().then(learn).catch(() => {}), 15000);
  Hub.stream(null, {
    hello(list) { cards.clear(); for (const c of list) cards.set(c.board, c); redraw(); },
    card(c) {
      if (c.removed) {
        cards.delete(c.board);
        const a = document.getElementById("b-" + c.board);
        if (a) a.remove();
        count();
        return;
      }
      cards.set(c.board, c); card(c); count(); updates++;
      // a benchmark or a test may ask when each update was on the page
      if (window.hubTrace) window.hubTrace.push([c.board, c.game, c.seq, Date.now(), c.as_of, c.pushed]);
    },
    connected(ok) {
      const e = document.getElementById("conn");
      e.textContent = ok ? "live" : "reconnecting…";
      e.classList.toggle("lost", !ok);
    },
  });
  setInterval(() => { for (const c of cards.values()) {
    const a = document.getElementById("b-" + c.board); if (a) Hub.tick(a, c); } }, 250);
})();
