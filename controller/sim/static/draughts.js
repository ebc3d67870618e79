// A plain draughts game on the simulated board (Dam on 12×12, English draughts on 8×8;
// controller/sim/tables.py): the dark squares with their LEDs, men and kings, the status, the
// display and the game's PDN. sim.js hands every state whose renderer is "draughts" here; the
// board's size and colours come with the state.
"use strict";

const MT = {
  damRecord: N_("The game's PDN"),
  manOn: N_("{side} man on ({x},{y})"),
  kingOn: N_("{side} king on ({x},{y})"),
  damEmpty: N_("empty square ({x},{y})"),
  white: N_("White"),
  black: N_("Black"),
};

function pieceSvg(side, king) {
  const crown = king ? '<path d="M13 27 L15 17 L20 23 L23 14 L26 23 L31 17 L33 27 Z" class="crown ' + side + '"/>' : "";
  return '<svg viewBox="0 0 46 46" aria-hidden="true"><circle cx="23" cy="23" r="19" class="man ' + side + '"/>' +
    '<circle cx="23" cy="23" r="13" class="ring ' + side + '"/>' + crown + "</svg>";
}

const Draughts = {
  cells: null,
  N: 0,

  build(size) {
    for (const old of document.querySelectorAll(".dam-board, .dam-panel")) old.remove();
    this.N = size;
    const grid = document.createElement("div");
    grid.id = "dam-board";
    grid.className = "dam-board";
    grid.style.setProperty("--n", String(size));
    grid.setAttribute("role", "grid");
    this.cells = new Map();
    for (let y = this.N - 1; y >= 0; y--) {
      for (let x = 0; x < this.N; x++) {
        const cell = document.createElement("button");
        cell.type = "button";
        const dark = (x + y) % 2 === 1;
        cell.className = "mcell " + (dark ? "dark" : "light");
        cell.dataset.square = x + "," + y;
        if (dark) cell.addEventListener("click", () => send({ type: "click", square: [x, y] }));
        else cell.disabled = true;
        grid.append(cell);
        this.cells.set(x + "," + y, cell);
      }
    }
    const panel = document.createElement("section");
    panel.id = "dam-panel";
    panel.className = "dam-panel";
    panel.innerHTML = '<h2 id="dam-title"></h2><p id="dam-status" role="status" aria-live="polite"></p>' +
      '<ul id="dam-legend" class="dam-legend"></ul>' +
      "<details open><summary>" + t(MT.damRecord) + '</summary><pre id="dam-record"></pre></details>';
    $("board").after(grid);
    placePanel(grid, panel);
  },

  render(s) {
    if (!this.cells || this.N !== s.size) this.build(s.size);
    state = s;
    document.body.dataset.game = s.game;
    document.body.dataset.renderer = "draughts";
    document.body.dataset.phase = s.phase;
    document.body.dataset.toMove = s.to_move;
    document.title = fmt("title", { id: s.board });
    text("board-name", fmt("boardName", { id: s.board }));
    text("game-badge", s.title);
    text("dam-title", s.title);
    const pieces = new Map(s.pieces.map((p) => [p.square.join(","), p]));
    const onTable = new Set(s.table.map((sq) => sq.join(",")));
    for (const [key, cell] of this.cells) {
      if (cell.disabled) continue;
      const [x, y] = key.split(",").map(Number);
      const p = pieces.get(key);
      cell.dataset.light = s.lights[key] || "";
      const rgb = s.leds[key] || [0, 0, 0];
      cell.style.setProperty("--led", "rgb(" + rgb.join(",") + ")");
      if (onTable.has(key)) {
        const side = p ? p.side : s.colours[0];
        cell.innerHTML = pieceSvg(side, p ? p.king : false);
        cell.setAttribute("aria-label", fmt(p && p.king ? "kingOn" : "manOn", { side: T[side] || side, x: x, y: y }));
      } else {
        cell.textContent = "";
        cell.setAttribute("aria-label", fmt("damEmpty", { x: x, y: y }));
      }
      cell.classList.toggle("in-hand", s.hand !== null && s.hand.join(",") === key);
    }
    $("dam-status").textContent = s.status;
    $("dam-record").textContent = s.record;
    fillLegend($("dam-legend"), s.legend, new Set(Object.values(s.lights)));
    renderOled(s);
    if (s.notice) say(s.notice, false);
  },
};

for (const [k, v] of Object.entries(MT)) if (!(k in T)) T[k] = t(v);
