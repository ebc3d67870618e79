// The federation's wall: every hall's top boards, live (server-sent events from
// /api/wall/stream). Its words come translated from the page (data-* of #halls).
"use strict";
(() => {
  const root = document.getElementById("halls");
  const status = document.getElementById("status");
  const words = root.dataset;
  const cards = new Map();
  const top = Number(new URLSearchParams(location.search).get("top") || "4");

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function tableOf(card) {
    const t = card.assignment && card.assignment.table;
    return /^\d+$/.test(t || "") ? Number(t) : 1e6;
  }

  function grid(position) {
    const g = el("div", "grid");
    const pieces = new Map();
    for (const p of (position && position.pieces) || []) pieces.set(p.square.join(","), p);
    for (let y = 7; y >= 0; y--) {
      for (let x = 0; x < 8; x++) {
        const dark = (x + y) % 2 === 1;  // the playing squares, as on the hub's pages
        const p = pieces.get(x + "," + y);
        const cell = el("div", dark ? "dark" : "light");
        if (p) {
          const chip = el("div", "chip " + p.side + (p.dama ? " dama" : ""), p.value);
          cell.appendChild(chip);
        }
        g.appendChild(cell);
      }
    }
    return g;
  }

  function scoreLine(card) {
    const totals = card.totals || {};
    let line = `${totals.blue ?? ""} : ${totals.red ?? ""}`;
    if (card.last_move) line += ` · ${card.last_move.move}`;
    if (card.result) line += ` · ${card.result.result}`;
    return line;
  }

  function sameTable(a, b) {
    if (!a || !b) return false;
    return a.id ? a.id === b.id : a.round === b.round && a.table === b.table;
  }

  // A card shows the board's table (the next pairing once it is sent) and its game only when
  // the game is that table's own; a game of another table (the last round's, finished) is
  // the board's previous one, with its own pairing, or none when the wall never knew it.
  function drawCard(card) {
    const box = el("div", "card" + (card.online === false ? " offline" : ""));
    const game = card.game ? card.game_table || null : undefined;
    const a = card.assignment || (game && game.round !== undefined ? game : null);
    const head = a ? `${words.table} ${a.table} · ${words.round} ${a.round}` : card.board;
    box.appendChild(el("div", "where", head));
    if (a) box.appendChild(el("div", "who", `${a.blue} – ${a.red}`));
    if (card.game && card.assignment && !sameTable(card.assignment, game)) {
      // "not started" only when the game shown is known to be another table's
      if (game) box.appendChild(el("div", "waiting", words.waiting));
      let label = words.lastgame;
      if (game && game.round !== undefined) {
        label = `${words.previous} (${words.round} ${game.round}: ${game.blue} – ${game.red})`;
      }
      box.appendChild(el("div", "previous", `${label}: ${scoreLine(card)}`));
      return box;
    }
    box.appendChild(grid(card.position));
    if (card.game) box.appendChild(el("div", "score", scoreLine(card)));
    return box;
  }

  function draw() {
    const halls = new Map();
    for (const card of cards.values()) {
      if (!halls.has(card.hall)) halls.set(card.hall, []);
      halls.get(card.hall).push(card);
    }
    root.replaceChildren();
    if (!halls.size) root.appendChild(el("p", "empty", words.empty));
    for (const hall of [...halls.keys()].sort()) {
      const section = el("section", "hall");
      section.appendChild(el("h2", "", hall));
      const row = el("div", "boards");
      const shown = halls.get(hall).sort((p, q) => tableOf(p) - tableOf(q) ||
        p.board.localeCompare(q.board));
      for (const card of top > 0 ? shown.slice(0, top) : shown) row.appendChild(drawCard(card));
      section.appendChild(row);
      root.appendChild(section);
    }
  }

  let pending = false;
  function later() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  }

  const source = new EventSource(`/api/wall/stream?top=${top}`);
  source.addEventListener("hello", (ev) => {
    cards.clear();
    for (const card of JSON.parse(ev.data).cards) cards.set(card.hall + "/" + card.board, card);
    status.textContent = words.live;
    later();
  });
  source.addEventListener("card", (ev) => {
    const card = JSON.parse(ev.data);
    cards.set(card.hall + "/" + card.board, card);
    later();
  });
  source.onerror = () => { status.textContent = words.lost; };
})();
