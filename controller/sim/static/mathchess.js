// The Mathematical Chess board page (controller/sim/mathchess.py): the points as buttons, the
// state from the server after every click, nothing decided here.
"use strict";

const boardId = decodeURIComponent(location.pathname.split("/").pop());
const api = "/api/mathchess/" + encodeURIComponent(boardId);
const SIDE = { white: N_("White"), black: N_("Black") };
const PHASE = { prepare: N_("Prepare now!"), play: N_("Play now!"), over: N_("The game is over") };
const STATE = {
  lifted: N_("lifted"), removed: N_("lifted: removed"), refused: N_("refused"),
  moved: N_("moved here"), naming: N_("to be named"), stray: N_("put it back"),
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

async function send(message) {
  const r = await fetch(api, {
    method: message ? "POST" : "GET",
    headers: { "Content-Type": "application/json" },
    body: message ? JSON.stringify(message) : undefined,
  });
  const data = await r.json();
  if (data.error) { say(data.error, "problem"); document.body.dataset.renders = String(++renders); return; }
  render(data);
}

function say(text, cls) {
  const says = document.getElementById("says");
  says.textContent = text || "";
  says.className = "mc-says" + (text && cls ? " " + cls : "");
}

function pieceEl(p, state) {
  const shown = p ? p.symbol : (state === "naming" ? "?" : "!");
  const cls = "mc-piece " + (p ? p.side + (p.digit ? " digit" : " op") : "");
  const e = el("span", cls, shown);
  if (p) e.appendChild(el("span", "side", p.side === "white" ? "W" : "B"));
  return e;
}

let renders = 0;

function render(s) {
  document.body.dataset.renders = String(++renders);
  document.body.dataset.phase = s.phase;
  document.body.dataset.toMove = s.to_move;
  document.body.dataset.turns = String(s.sheet.turns.length);
  document.getElementById("board-name").textContent = boardId;
  document.getElementById("turn").textContent = s.phase === "over"
    ? t(PHASE.over) : t(PHASE[s.phase]) + " · " + t(N_("{side} to play"), { side: t(SIDE[s.to_move]) });
  if (s.ending) say(s.ending, "over");
  else if (s.said) {
    const rule = s.said.rule && !s.said.text.includes(s.said.rule) ? s.said.rule + ": " : "";
    say(rule + s.said.text, "problem");
  }
  else if (s.problem) say(s.problem, s.names.length ? "ask" : "problem");
  else say("");
  const board = document.getElementById("board");
  board.replaceChildren();
  for (let y = s.size - 1; y >= 0; y--) {
    board.appendChild(el("span", "mc-axis", String(y)));
    for (let x = 0; x < s.size; x++) {
      const pt = s.points[y * s.size + x];
      const b = el("button", "mc-point x" + x + " y" + y);
      b.type = "button";
      b.dataset.x = x; b.dataset.y = y;
      if (pt.state) b.classList.add(pt.state);
      if (pt.lit) b.classList.add("lit");
      let label = "(" + x + "," + y + ")";
      if (pt.piece) label += " " + pt.piece.name;
      if (pt.state) label += ", " + t(STATE[pt.state]);
      if (pt.piece || pt.state === "naming" || pt.state === "stray") b.appendChild(pieceEl(pt.piece, pt.state));
      const rule = pt.rule || pt.lit;
      if (rule) { b.appendChild(el("span", "badge", rule)); label += ", " + rule; }
      b.setAttribute("aria-label", label);
      b.addEventListener("click", () => send({ op: "click", point: [x, y] }));
      board.appendChild(b);
    }
  }
  board.appendChild(el("span", "mc-axis", ""));
  for (let x = 0; x < s.size; x++) board.appendChild(el("span", "mc-axis", String(x)));
  const names = document.getElementById("names");
  names.replaceChildren();
  for (const n of s.names) {
    const b = el("button", "mc-name", n);
    b.type = "button";
    b.setAttribute("aria-label", t(N_("Name it {piece}"), { piece: n }));
    b.addEventListener("click", () => send({ op: "name", piece: n }));
    names.appendChild(b);
  }
  document.getElementById("done").hidden = s.phase !== "play";
  document.getElementById("score").textContent =
    t(N_("White {white} · Black {black}"), { white: s.sheet.score[0], black: s.sheet.score[1] });
  const began = s.sheet.start_score;
  document.getElementById("began").textContent = began[0] || began[1]
    ? t(N_("The position began at {white}–{black}: pieces missing from a box count as taken."),
      { white: began[0], black: began[1] }) : "";
  const c = s.conditions;
  const ops = Object.entries(c.operators).map(([o, n]) => n + " " + o).join(", ");
  document.getElementById("conditions").textContent =
    (s.level ? t(N_("Level {level}"), { level: s.level }) + " · " : "") +
    t(N_("digits {digits}; operators {ops}; compared by {compare}"),
      { digits: c.digits.join(" "), ops: ops, compare: c.compare });
  const options = document.getElementById("options");
  options.replaceChildren();
  for (const o of s.options) {
    options.appendChild(el("li", "", o.rule + ": " + o.text + " → " + o.removable.join(" ")));
  }
  const sheet = document.getElementById("sheet");
  sheet.replaceChildren();
  for (const turn of s.sheet.turns) {
    const li = el("li", "", t(SIDE[turn.side]) + ": " + turn.text + (turn.score ? " (+" + turn.score + ")" : ""));
    for (const r of turn.removals) {
      li.appendChild(el("span", "arith", r.rule + " " + r.pieces.join(" ") + " +" + r.score +
        (r.arithmetic.length ? ": " + r.arithmetic.join("; ") : "")));
    }
    sheet.appendChild(li);
  }
}

document.getElementById("record").href = location.pathname + "/record.json";
document.getElementById("sheet-text").href = location.pathname + "/scoresheet.txt";
const level = document.getElementById("level");
for (let n = 1; n <= 10; n++) {
  const o = el("option", "", String(n));
  o.value = String(n);
  if (n === 9) o.selected = true;
  level.appendChild(o);
}
document.getElementById("new-game").addEventListener("submit", (e) => {
  e.preventDefault();
  const played = Number(document.body.dataset.turns || "0");
  if (played && document.body.dataset.phase !== "over" &&
      !window.confirm(t(N_("Start a new game? The game on the board is kept with the board's games.")))) return;
  send({ op: "new", level: Number(level.value) });
});
document.getElementById("done").addEventListener("click", () => send({ op: "done" }));
send(null);
