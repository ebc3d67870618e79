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
    a.querySelector(".title").textContent = Hub.fill(a, c, false) + c.board;
    Hub.tick(a, c);
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
    const a = document.getElementById("b-" + c.board); if (a) Hub.tick(a, c); } }, 250);
})();
