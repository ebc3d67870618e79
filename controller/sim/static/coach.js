// The computer and the coach on the board's page: play the computer, a hint, the review.
// Every sentence of this part of the page is in C, marked N_ and translated as the script loads
// (docs/translation.md); the level names come from the server in English and are translated here.
"use strict";

const C = {
  levelOption: "{n}: {name}",
  thinking: N_("The computer (level {level}) is thinking…"),
  hintThinking: N_("Looking for a good move…"),
  reviewing: N_("The coach is reviewing the game: every move is searched again…"),
  reviewTitle: N_("Review: {variant} Damath, the engine looking {depth} moves ahead, after {ply} moves"),
  reviewStale: N_("The game went on after this review: press Review the game again for the new moves."),
  mistakesTitle: N_("The three biggest mistakes"),
  noMistakes: N_("No mistakes: every move was as good as the engine's."),
  mistakeHead: N_("Move {number}: {who}"),
  youMoved: N_("Your move: your {chip} from {start} to {end}."),
  betterMove: N_("Better: your {chip} from {start} to {end}."),
  takingYours: N_("Your {taker} jumps {other}'s {taken} on {over} and lands on the {op} square {land}: {arithmetic}."),
  takingYoursThen: N_("Then it jumps {other}'s {taken} on {over} and lands on the {op} square {land}: {arithmetic}."),
  damaDouble: N_("A dama takes part, so the score counts double."),
  damaFour: N_("Two damas take part, so the score counts four times."),
  measureMore: N_("Over the next {plies} moves (both players'), the better move gives you {gain} points more: you {bm} and {other} {bt}, instead of you {pm} and {other} {pt}."),
  measureSame: N_("Over the next {plies} moves (both players'), both moves score the same: you {pm} and {other} {pt}. The coach looks further ahead and still prefers the better move."),
  measureLess: N_("Over the next {plies} moves (both players'), your move scores more: you {pm} and {other} {pt}, instead of you {bm} and {other} {bt}. The coach looks further ahead and sees that it costs you later."),
  about: N_("{exact} (about {approx})"),
  then: N_("Then: {line}."),
  missedWin: N_("It let a won game slip."),
  picture: N_("The board before move {number}: the grey arrow is your move, the green arrow the better move."),
  pictureLabel: N_("The board before move {number}. Your move: {played}. The better move: {best}."),
  accuracyTitle: N_("Accuracy"),
  accuracyHead: "",
  bestMoves: N_("best moves"),
  pointsLost: N_("points lost"),
  takingsOn: N_("takings on {op}"),
  cell: N_("{ok} of {n} ({percent} %)"),
  none: "—",
  teacherTitle: N_("For the teacher: the engine's figures"),
  teacherIntro: N_("What each move lost by the engine's estimate, looking {depth} moves ahead: takings, the chips left and the position together, in points (two decimals; the exact figure is in the review's data)."),
  teacherMistake: N_("Move {number}, {who}: the engine's estimate {loss} points (exactly {exact})."),
  lossesTitle: N_("Every move"),
  colNumber: N_("move"),
  colSide: N_("side"),
  colPlayed: N_("played"),
  colBest: N_("engine's best"),
  colLost: N_("points lost"),
  same: "=",
  forced: N_("only move"),
  problem: N_("The computer could not answer: {problem}"),
  lesson: N_("Practise from this position"),
  lessonTitle: N_("A new practice game from the position before this move"),
};
for (const key of Object.keys(C)) if (C[key]) C[key] = t(C[key]); // the page's language (i18n.js)
const cfmt = (key, values) => C[key].replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? values[k] : m));
// A player as the review names them: the name and the side, or the side alone when the record
// has no name (its default is the side's English name).
const whoText = (name, side) => (!name || name === capital(side) ? sideWord(side) : fmt("named", { name: name, side: sideWord(side) }));
const pathText = (path, takes) => path.map((sq) => sq.join(",")).join(takes ? "x" : "-");
const squareName = (sq) => "(" + sq[0] + ", " + sq[1] + ")";
const signs = (text) => String(text).replace(/ x /g, " × ").replace(/-/g, "−");
// A display figure under the review's rounding rule: two decimals, halves away from zero.
const twoPlaces = (v) => (Math.sign(v) * Math.round(Math.abs(v) * 100) / 100).toFixed(2).replace(/\.?0+$/, "");
// An exact score as the sheet writes it, with its value beside it when it has a root.
const scoreWords = (s) => (String(s.text).includes("√") ? cfmt("about", { exact: signs(s.text), approx: signs(twoPlaces(s.value)) }) : signs(s.text));
let coachFilled = false;

function fillLevels() {
  if (coachFilled || !facts || !facts.levels) return;
  const select = $("coach-level");
  for (const lv of facts.levels) {
    const o = document.createElement("option");
    o.value = String(lv.number);
    o.textContent = cfmt("levelOption", { n: lv.number, name: t(lv.name) });
    select.append(o);
  }
  coachFilled = true;
}

function renderCoach(s) {
  fillLevels();
  const coach = s.coach || {};
  const practice = !!(s.play && s.play.practice);
  $("coach-settings").hidden = !practice;
  $("coach-tournament").hidden = practice;
  if (document.activeElement !== $("coach-computer")) $("coach-computer").value = s.play.computer || "off";
  if (document.activeElement !== $("coach-level")) $("coach-level").value = String(s.play.level || 4);
  $("coach-hints").checked = !!s.play.hints;
  $("coach-hint").hidden = !coach.hints;
  $("coach-hint").disabled = s.phase !== "play";
  let line = "";
  if (coach.problem) line = cfmt("problem", { problem: coach.problem });
  if (s.shown) line = s.shown.text;
  else if (coach.thinking) line = cfmt("thinking", { level: coach.level });
  else if (coach.hint_thinking) line = C.hintThinking;
  $("coach-shown").textContent = line;
  document.body.dataset.shown = s.shown ? s.shown.kind : "";
  document.body.dataset.thinking = coach.thinking ? "1" : "0";
  $("coach-review").disabled = !s.ply || !!coach.reviewing;
  renderReview(s, coach);
}

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

let reviewKey = null;
function renderReview(s, coach) {
  const out = $("coach-review-out");
  const key = coach.reviewing ? "working" : coach.review ? JSON.stringify([coach.review.ply, coach.review.mistakes, s.ply]) : coach.review_error || "";
  if (key === reviewKey) return;
  reviewKey = key;
  out.textContent = "";
  out.hidden = !key;
  if (coach.reviewing) { out.append(el("p", C.reviewing)); return; }
  if (coach.review_error) { out.append(el("p", coach.review_error, "error")); return; }
  const r = coach.review;
  if (!r) return;
  out.append(el("h3", cfmt("reviewTitle", { variant: capital(r.variant), depth: r.depth, ply: r.ply })));
  if (r.ply !== s.ply) out.append(el("p", C.reviewStale));
  const names = {};
  for (const side of r.sides) names[side.side] = side.name;
  out.append(el("h4", C.mistakesTitle));
  const list = el("ol", undefined, "mistakes");
  for (const index of r.mistakes) list.append(mistakeCard(r, index, names));
  if (!r.mistakes.length) out.append(el("p", C.noMistakes));
  else out.append(list);
  out.append(el("h4", C.accuracyTitle));
  const acc = el("table", undefined, "accuracy");
  const head = el("tr");
  head.append(el("th", C.accuracyHead, "move"));
  for (const side of r.sides) head.append(el("th", whoText(side.name, side.side)));
  acc.append(head);
  const cell = (ok, n) => (n ? cfmt("cell", { ok: ok, n: n, percent: Math.round((100 * ok) / n) }) : C.none);
  const row = (label, values) => {
    const tr = el("tr");
    tr.append(el("th", label, "move"));
    for (const v of values) tr.append(el("td", v));
    acc.append(tr);
  };
  row(C.bestMoves, r.sides.map((sd) => cell(sd.best_moves, sd.choices)));
  for (const op of Object.keys(r.sides[0].accuracy)) {
    row(cfmt("takingsOn", { op: op }), r.sides.map((sd) => cell(sd.accuracy[op].accurate, sd.accuracy[op].takings)));
  }
  out.append(acc);
  out.append(teacherFigures(r, names));
}

// One of the biggest mistakes in a child's words: the picture of the board before it, the
// move played and the better one with each taking's arithmetic, and what the better move
// would have scored instead, counted as the sheet counts (the engine's figure is the teacher's).
function mistakeCard(r, index, names) {
  const m = r.moves[index];
  const li = el("li", undefined, "mistake-card");
  li.dataset.move = String(index);
  li.append(el("div", cfmt("mistakeHead", { number: m.number, who: whoText(names[m.side], m.side) }), "mistake-head"));
  const lesson = r.lessons && r.lessons[String(index)];
  if (lesson) li.append(miniBoard(lesson, m));
  const other = sideWord(m.side === "blue" ? "red" : "blue");
  const played = el("p", undefined, "played");
  played.append(cfmt("youMoved", { chip: signs(m.chip.label), start: squareName(m.move[0]), end: squareName(m.move[m.move.length - 1]) }));
  for (const line of takingLines(m.steps, other)) played.append(" " + line);
  li.append(played);
  if (m.missed_win) li.append(el("p", C.missedWin));
  const better = el("p", undefined, "better");
  better.append(cfmt("betterMove", { chip: signs(m.best_chip.label), start: squareName(m.best[0]), end: squareName(m.best[m.best.length - 1]) }));
  for (const line of takingLines(m.best_steps, other)) better.append(" " + line);
  li.append(better);
  const ex = m.exchange;
  const values = { plies: ex.plies, other: other, gain: scoreWords(ex.better_by),
    bm: scoreWords(ex.best.mine), bt: scoreWords(ex.best.theirs), pm: scoreWords(ex.played.mine), pt: scoreWords(ex.played.theirs) };
  const key = ex.better_by.sign > 0 ? "measureMore" : ex.better_by.sign === 0 ? "measureSame" : "measureLess";
  const measure = el("p", cfmt(key, values), "measure");
  measure.dataset.measure = key;
  li.append(measure);
  if (m.best_line.length > 1) {
    const rest = m.best_line.slice(1).map((lm) => sideWord(lm.side) + " " + pathText(lm.move, lm.takings.length)
      + (lm.takings.length ? " (" + lm.takings.map(signs).join("; ") + ")" : ""));
    li.append(el("p", cfmt("then", { line: rest.join(", ") }), "then"));
  }
  if (lesson) {
    const b = el("button", C.lesson, "lesson");
    b.type = "button";
    b.title = C.lessonTitle;
    b.addEventListener("click", () => send({ type: "new_game", variant: r.variant, profile: r.profile,
      position: lesson, confirm: true, play: Object.assign({}, state.play) }));
    li.append(b);
  }
  return li;
}

// Each taking of a move as a whole sentence (the same sentences as the board's hint).
function takingLines(steps, other) {
  const out = [];
  steps.forEach((st, i) => {
    out.push(cfmt(i === 0 ? "takingYours" : "takingYoursThen", { taker: signs(st.taker), other: other,
      taken: signs(st.taken), over: squareName(st.over), op: st.operator, land: squareName(st.land),
      arithmetic: signs(st.arithmetic) }));
    if (st.multiplier === 2) out.push(C.damaDouble);
    else if (st.multiplier === 4) out.push(C.damaFour);
  });
  return out;
}

// The board before the mistake, small: every chip with its number, the move played as a grey
// dashed arrow, the better move as a green one, the squares' names along the edges.
const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}
function miniBoard(position, m) {
  const cell = 30, edge = 14, size = 8 * cell + edge;
  const at = (sq) => [edge + sq[0] * cell + cell / 2, (7 - sq[1]) * cell + cell / 2];
  const fig = el("figure", undefined, "mini");
  const svg = svgEl("svg", { viewBox: "0 0 " + size + " " + (size + 2), class: "mini-board", role: "img" });
  svg.setAttribute("aria-label", cfmt("pictureLabel", { number: m.number,
    played: m.move.map(squareName).join(" → "), best: m.best.map(squareName).join(" → ") }));
  const defs = svgEl("defs", {});
  for (const cls of ["played", "best"]) {
    const marker = svgEl("marker", { id: "mini-head-" + cls + "-" + m.index, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" });
    marker.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z", class: "head " + cls }));
    defs.append(marker);
  }
  svg.append(defs);
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const dark = (x + y) % 2 === 1;
      svg.append(svgEl("rect", { x: edge + x * cell, y: (7 - y) * cell, width: cell, height: cell, class: dark ? "dark" : "light" }));
    }
    svg.append(svgEl("text", { x: edge / 2, y: (7 - y) * cell + cell / 2 + 4, class: "axis" }, String(y)));
    svg.append(svgEl("text", { x: edge + y * cell + cell / 2, y: 8 * cell + edge - 2, class: "axis" }, String(y)));
  }
  const arrow = (path, cls) => {
    for (let i = 1; i < path.length; i++) {
      const [x1, y1] = at(path[i - 1]), [x2, y2] = at(path[i]);
      svg.append(svgEl("line", { x1: x1, y1: y1, x2: x2, y2: y2, class: "arrow " + cls, "marker-end": "url(#mini-head-" + cls + "-" + m.index + ")" }));
    }
  };
  arrow(m.move, "played"); // under the chips: the numbers stay readable
  arrow(m.best, "best");
  for (const p of position.pieces || []) {
    const [cx, cy] = at(p.square);
    const g = svgEl("g", { class: "mini-chip " + p.side + (p.dama ? " dama" : "") });
    g.append(svgEl("circle", { cx: cx, cy: cy, r: cell * 0.42 }));
    const label = signs(p.value);
    g.append(svgEl("text", { x: cx, y: cy + 3.5, class: label.length > 3 ? "small" : "" }, label));
    svg.append(g);
  }
  fig.append(svg, el("figcaption", cfmt("picture", { number: m.number })));
  return fig;
}

// The engine's own figures, for the teacher: each mistake's estimate (exact beside it), each
// side's points lost in all and every move's loss against the engine's best.
function teacherFigures(r, names) {
  const box = el("details", undefined, "teacher-figures");
  box.append(el("summary", C.teacherTitle));
  box.append(el("p", cfmt("teacherIntro", { depth: r.depth })));
  const ul = el("ul");
  for (const index of r.mistakes) {
    const m = r.moves[index];
    ul.append(el("li", cfmt("teacherMistake", { number: m.number, who: whoText(names[m.side], m.side),
      loss: signs(twoPlaces(m.loss)), exact: signs(m.loss_exact) })));
  }
  box.append(ul);
  const acc = el("table", undefined, "points-lost");
  const head = el("tr");
  head.append(el("th", C.accuracyHead, "move"));
  for (const side of r.sides) head.append(el("th", whoText(side.name, side.side)));
  const lost = el("tr");
  lost.append(el("th", C.pointsLost, "move"));
  for (const side of r.sides) lost.append(el("td", twoPlaces(side.points_lost)));
  acc.append(head, lost);
  box.append(acc);
  box.append(el("h4", C.lossesTitle));
  const wrap = el("div", undefined, "losses");
  const table = el("table", undefined, "moves");
  const th = el("tr");
  for (const k of ["colNumber", "colSide", "colPlayed", "colBest", "colLost"]) th.append(el("th", C[k], k === "colPlayed" || k === "colBest" ? "move" : ""));
  table.append(th);
  const mistakes = new Set(r.mistakes);
  for (const m of r.moves) {
    const tr = el("tr");
    if (mistakes.has(m.index)) tr.className = "mistake";
    tr.append(el("td", String(m.number)), el("td", sideWord(m.side)),
      el("td", pathText(m.move, m.takings.length), "move"),
      el("td", m.accurate ? C.same : pathText(m.best, m.best_takings.length), "move"),
      el("td", m.forced ? C.forced : m.accurate ? "0" : twoPlaces(m.loss)));
    table.append(tr);
  }
  wrap.append(table);
  box.append(wrap);
  return box;
}

window.renderCoach = renderCoach;
Object.assign(SYMBOL, { shown_from: "◆", shown_path: "◇", shown_taken: "✕" });

$("coach-computer").addEventListener("change", (e) => send({ type: "play", play: { computer: e.target.value } }));
$("coach-level").addEventListener("change", (e) => send({ type: "play", play: { level: Number(e.target.value) } }));
$("coach-hints").addEventListener("change", (e) => send({ type: "play", play: { hints: e.target.checked } }));
$("coach-hint").addEventListener("click", () => send({ type: "hint" }));
$("coach-review").addEventListener("click", () => send({ type: "review" }));
