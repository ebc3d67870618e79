// A Dadama game on the simulated board (controller/sim/tables.py): dice drawn with their pips,
// a dadama as two stacked dice, the LEDs round each square, the throw and the face buttons.
// sim.js hands every state whose renderer is "dadama" to Dadama.render.
"use strict";

const DT = {
  dice: N_("Dice"),
  thrown: N_("Thrown: {dice}, kept {keep}"),
  noThrow: N_("No throw waiting"),
  faces: N_("Real dice: enter the face"),
  record: N_("The record, with every throw"),
  dieOn: N_("{side} die showing {value} on ({x},{y})"),
  dadamaOn: N_("{side} dadama showing {value} on ({x},{y})"),
  empty: N_("empty square ({x},{y})"),
  white: N_("White"),
  black: N_("Black"),
};

const PIPS = {
  1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
  4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
  6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]],
};

function dieSvg(value, side, dadama, size) {
  const face = (dx, dy) => {
    let out = '<rect x="' + (dx + 2) + '" y="' + (dy + 2) + '" width="36" height="36" rx="7" class="die-face ' + side + '"/>';
    for (const [px, py] of PIPS[value] || []) {
      out += '<circle cx="' + (dx + 10 + px * 10) + '" cy="' + (dy + 10 + py * 10) + '" r="3.6" class="pip ' + side + '"/>';
    }
    return out;
  };
  const under = dadama ? '<rect x="8" y="8" width="36" height="36" rx="7" class="die-face under ' + side + '"/>' : "";
  return '<svg viewBox="0 0 46 46" width="' + size + '" height="' + size + '" aria-hidden="true">' + under + face(0, 0) + "</svg>";
}

const Dadama = {
  cells: null,

  build() {
    const grid = document.createElement("div");
    grid.id = "dadama-board";
    grid.className = "dadama-board";
    grid.setAttribute("role", "grid");
    this.cells = new Map();
    for (let y = 7; y >= 0; y--) {
      for (let x = 0; x < 8; x++) {
        const cell = document.createElement("button");
        cell.type = "button";
        cell.className = "dcell " + ((x + y) % 2 ? "dark" : "light");
        cell.dataset.square = x + "," + y;
        if ((x + y) % 2) cell.addEventListener("click", () => send({ type: "click", square: [x, y] }));
        else cell.disabled = true;
        grid.append(cell);
        this.cells.set(x + "," + y, cell);
      }
    }
    const panel = document.createElement("section");
    panel.id = "dadama-panel";
    panel.className = "dadama-panel";
    panel.innerHTML = '<h2>' + t(DT.dice) + '</h2><p id="dadama-status" role="status" aria-live="polite"></p>' +
      '<div id="dadama-throw" class="dadama-throw"></div><p id="dadama-last"></p>' +
      '<div id="dadama-faces" class="dadama-faces" hidden><span>' + t(DT.faces) + "</span> </div>" +
      '<ul id="dadama-legend" class="dadama-legend"></ul>' +
      '<details open><summary>' + t(DT.record) + '</summary><pre id="dadama-record"></pre></details>';
    const faces = panel.querySelector("#dadama-faces");
    for (let n = 1; n <= 6; n++) {
      const b = document.createElement("button");
      b.type = "button";
      b.id = "face-" + n;
      b.className = "face-button";
      b.innerHTML = dieSvg(n, "white", false, 28);
      b.setAttribute("aria-label", String(n));
      b.addEventListener("click", () => send({ type: "button", name: "face" + n }));
      faces.append(b);
    }
    const board = $("board");
    board.after(grid);
    placePanel(grid, panel);
  },

  render(s) {
    if (!this.cells) this.build();
    state = s;
    document.body.dataset.game = "dadama";
    document.body.dataset.renderer = "dadama";
    document.body.dataset.phase = s.phase;
    document.body.dataset.toMove = s.to_move;
    document.title = fmt("title", { id: s.board });
    text("board-name", fmt("boardName", { id: s.board }));
    text("game-badge", "Dadama");
    const pieces = new Map(s.pieces.map((p) => [p.square.join(","), p]));
    const onTable = new Set(s.table.map((sq) => sq.join(",")));
    for (const [key, cell] of this.cells) {
      const [x, y] = key.split(",").map(Number);
      if ((x + y) % 2 === 0) continue;
      const p = pieces.get(key);
      const light = s.lights[key] || "";
      cell.dataset.light = light;
      const rgb = s.leds[key] || [0, 0, 0];
      cell.style.setProperty("--led", "rgb(" + rgb.join(",") + ")");
      if (onTable.has(key)) {
        const side = p ? p.side : "white";
        cell.innerHTML = dieSvg(p ? p.value : 0, side, p ? p.dadama : false, 46);
        cell.dataset.value = p ? p.value : "";
        cell.setAttribute("aria-label", fmt(p && p.dadama ? "dadamaOn" : "dieOn",
          { side: T[side] || side, value: p ? p.value : "?", x: x, y: y }));
      } else {
        cell.textContent = "";
        cell.dataset.value = "";
        cell.setAttribute("aria-label", fmt("empty", { x: x, y: y }));
      }
      cell.classList.toggle("in-hand", s.hand !== null && s.hand.join(",") === key);
    }
    $("dadama-status").textContent = s.status;
    const thrown = $("dadama-throw");
    thrown.innerHTML = s.dice.length
      ? s.dice.map((d) => '<span class="thrown' + (d === s.keep ? " kept" : "") + '">' + dieSvg(d, s.to_move, false, 40) + "</span>").join("") +
        " " + fmt("thrown", { dice: s.dice.join(" + "), keep: s.keep })
      : t(DT.noThrow);
    $("dadama-last").textContent = s.last_throw;
    $("dadama-faces").hidden = s.dice_mode !== "real";
    $("dadama-record").textContent = s.record;
    fillLegend($("dadama-legend"), s.legend, null);
    renderOled(s);
    if (s.notice) say(s.notice, false);
  },
};

for (const [k, v] of Object.entries(DT)) if (!(k in T)) T[k] = t(v);
