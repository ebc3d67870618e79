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
  mistake: N_("Move {number}, {who}: {move} lost {loss} points."),
  played: N_("Played: {takings}."),
  better: N_("Better: {move}"),
  betterTakes: N_("Better: {move} ({takings})"),
  then: N_("Then: {line}."),
  missedWin: N_("It let a won game slip."),
  accuracyTitle: N_("Accuracy"),
  accuracyHead: "",
  bestMoves: N_("best moves"),
  pointsLost: N_("points lost"),
  takingsOn: N_("takings on {op}"),
  cell: N_("{ok} of {n} ({percent} %)"),
  none: "—",
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
  for (const index of r.mistakes) {
    const m = r.moves[index];
    const li = el("li");
    li.dataset.move = String(index);
    li.append(el("div", cfmt("mistake", { number: m.number, who: whoText(names[m.side], m.side),
      move: pathText(m.move, m.takings.length), loss: m.loss.toFixed(2) })));
    if (m.missed_win) li.append(el("div", C.missedWin));
    if (m.takings.length) li.append(el("div", cfmt("played", { takings: m.takings.join("; ") })));
    const best = pathText(m.best, m.best_takings.length);
    const better = m.best_takings.length ? cfmt("betterTakes", { move: best, takings: m.best_takings.join("; ") }) : cfmt("better", { move: best });
    li.append(el("div", better, "better"));
    if (m.best_line.length > 1) {
      const rest = m.best_line.slice(1).map((lm) => sideWord(lm.side) + " " + pathText(lm.move, lm.takings.length)
        + (lm.takings.length ? " (" + lm.takings.join("; ") + ")" : ""));
      li.append(el("div", cfmt("then", { line: rest.join(", ") })));
    }
    const lesson = r.lessons && r.lessons[String(index)];
    if (lesson) {
      const b = el("button", C.lesson, "lesson");
      b.type = "button";
      b.title = C.lessonTitle;
      b.addEventListener("click", () => send({ type: "new_game", variant: r.variant, profile: r.profile,
        position: lesson, confirm: true, play: Object.assign({}, state.play) }));
      li.append(b);
    }
    list.append(li);
  }
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
  row(C.pointsLost, r.sides.map((sd) => sd.points_lost.toFixed(2)));
  for (const op of Object.keys(r.sides[0].accuracy)) {
    row(cfmt("takingsOn", { op: op }), r.sides.map((sd) => cell(sd.accuracy[op].accurate, sd.accuracy[op].takings)));
  }
  out.append(acc);
  out.append(el("h4", C.lossesTitle));
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
      el("td", m.forced ? C.forced : m.accurate ? "0.00" : m.loss.toFixed(2)));
    table.append(tr);
  }
  wrap.append(table);
  out.append(wrap);
}

window.renderCoach = renderCoach;
Object.assign(SYMBOL, { shown_from: "◆", shown_path: "◇", shown_taken: "✕" });

$("coach-computer").addEventListener("change", (e) => send({ type: "play", play: { computer: e.target.value } }));
$("coach-level").addEventListener("change", (e) => send({ type: "play", play: { level: Number(e.target.value) } }));
$("coach-hints").addEventListener("change", (e) => send({ type: "play", play: { hints: e.target.checked } }));
$("coach-hint").addEventListener("click", () => send({ type: "hint" }));
$("coach-review").addEventListener("click", () => send({ type: "review" }));
