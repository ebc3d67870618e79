// The spectator wall: one card per board, redrawn when the hub pushes it.
"use strict";
(() => {
  const wall = document.getElementById("wall");
  const cards = new Map();
  let updates = 0;

  function card(c) {
    let a = document.getElementById("b-" + c.board);
    if (!a) {
      a = document.createElement("a");
      a.className = "card";
      a.id = "b-" + c.board;
      a.href = "/board/" + encodeURIComponent(c.board);
      a.innerHTML = '<div class="head"><span class="title"></span><span class="pill"></span></div>' +
        '<svg class="board" role="img"></svg>' +
        '<div class="players"><div class="player blue"><div class="name"></div><div class="total"></div></div>' +
        '<div class="player red"><div class="name"></div><div class="total"></div></div></div>' +
        '<div class="clocks"><span>Game <b class="game"></b></span><span>Move <b class="move"></b></span></div>' +
        '<div class="status"></div>';
      const empty = wall.querySelector(".empty");
      if (empty) empty.remove();
      const after = [...wall.children].find((x) => x.id > a.id);
      wall.insertBefore(a, after || null);
    }
    const s = c.summary, names = Hub.names(c), st = Hub.statusOf(c);
    const table = c.assignment && c.assignment.table ? "Table " + c.assignment.table + " · " : "";
    a.querySelector(".title").textContent = table + c.board;
    const pill = a.querySelector(".pill");
    pill.className = "pill " + st.pill;
    pill.textContent = st.text;
    Hub.drawBoard(a.querySelector("svg"), s, false);
    for (const side of ["blue", "red"]) {
      const p = a.querySelector(".player." + side);
      const turn = s && s.phase === "play" && s.to_move === side;
      p.classList.toggle("turn", !!turn);
      p.querySelector(".name").textContent = (turn ? "▶ " : "") + names[side];
      p.querySelector(".total").textContent = s ? s.totals[side] : "–";
    }
    const status = a.querySelector(".status");
    status.textContent = st.line;
    status.classList.toggle("problem", st.pill === "problem");
    a.dataset.ply = s ? s.ply : 0;
    a.dataset.seq = c.seq;
    tick1(a, c);
  }

  function tick1(a, c) {
    const k = Hub.clocks(c);
    const g = a.querySelector(".game"), m = a.querySelector(".move");
    Hub.setText(g, k ? Hub.mmss(k.game) : "–");
    Hub.setText(m, k ? Hub.mmss(k.move) : "–");
    m.classList.toggle("low", !!k && k.move < 10000);
  }

  function count() {
    const all = [...cards.values()];
    document.getElementById("count").textContent =
      all.length + " boards, " + all.filter((c) => c.online).length + " online";
  }

  Hub.facts().then((f) => { document.getElementById("event").textContent = f.event; });
  Hub.stream(null, {
    hello(list) { for (const c of list) { cards.set(c.board, c); card(c); } count(); },
    card(c) {
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
    const a = document.getElementById("b-" + c.board); if (a) tick1(a, c); } }, 250);
})();
