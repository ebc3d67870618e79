// The puzzle page: a child picks their name, gets the puzzle nearest their rating, and makes
// the move on the board (tap the chip, then each landing square). The server judges it
// (controller/sim/puzzles.py) and says why, in the page's language; a wrong first try gets a
// second one.
"use strict";

const VARIANT_KEY = "damath_puzzle_variant";
const state = { child: "", puzzle: null, board: null, played: [], path: [], tries: 1, started: 0, busy: false, done: false,
  variant: localStorage.getItem(VARIANT_KEY) || "" };
const $ = (id) => document.getElementById(id);

const SOLVE = N_("{side} to move: find the best move.");
const RATING_CHANGE = N_("Your puzzle rating: {before} → {after} ({delta})");
const SECOND_TRY = N_("Second try: your move again.");
const RATING_STAYS = N_("Solved at the second try: your puzzle rating stays {rating}.");
const VARIANT_NAME = N_("{variant} Damath");
const VARIANT_OPTION = N_("{variant} ({n} puzzles)");
const BEST_SHOWN = N_("The best move is shown on the board in green.");
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

async function getJson(url, options) {
  const response = await fetch(url, Object.assign({ cache: "no-store" }, options || {}));
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { data: data });
  return data;
}

async function loadNames() {
  const data = await getJson("/api/puzzles/class");
  const box = $("names");
  box.textContent = "";
  for (const name of data.children) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "name";
    b.textContent = name;
    b.addEventListener("click", () => start(name));
    box.append(b);
  }
  if (!data.children.length) $("who-status").textContent = t(N_("The class list is empty: the teacher writes players.txt."));
}

// A device answers for one child (its session, an HttpOnly cookie): the teacher picks the
// child, or the child picks her name and types the class's code once.
async function start(name) {
  const code = $("code").value.trim();
  const response = await fetch("/api/puzzles/join", {
    method: "POST", headers: { "Content-Type": "application/json" }, cache: "no-store",
    body: JSON.stringify({ child: name, code: code }),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("who-status").textContent = data.error || response.statusText;
    if (data.need === "code") { $("code-box").hidden = false; $("code").focus(); }
    return;
  }
  await begin(data.child);
}

async function begin(name) {
  state.child = name;
  try {
    await nextPuzzle();
  } catch (err) {
    if (!(err.data && err.data.variants && err.data.variants.length)) {
      $("who-status").textContent = err.message;
      return;
    }
    noPuzzle(err); // none in this variant: the child may choose another
  }
  $("who").hidden = true;
  $("solve").hidden = false;
  $("child-name").textContent = name;
}

// The variants the store holds, the one shown chosen (the class's, or the child's choice).
function fillVariants(list, current) {
  const select = $("variant");
  select.textContent = "";
  for (const v of list) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = t(VARIANT_OPTION, { variant: capital(v.name), n: v.puzzles });
    o.selected = v.name === current;
    select.append(o);
  }
  if (!list.some((v) => v.name === current)) {
    const o = document.createElement("option");
    o.value = current;
    o.textContent = capital(current);
    o.selected = true;
    select.prepend(o);
  }
  $("variant-name").textContent = t(VARIANT_NAME, { variant: capital(current) });
}

function noPuzzle(err) {
  fillVariants(err.data.variants, err.data.variant);
  state.puzzle = null;
  state.done = true;
  $("task").textContent = "";
  say("wrong", [err.message]);
  $("board").textContent = "";
  document.body.dataset.phase = "none";
}

async function resume() {
  const me = await getJson("/api/puzzles/me");
  $("code-box").hidden = !me.code;
  if (me.child) await begin(me.child);
  else await loadNames();
}

async function nextPuzzle() {
  const data = await getJson("/api/puzzles/next" + (state.variant ? "?variant=" + encodeURIComponent(state.variant) : ""));
  state.puzzle = data;
  fillVariants(data.variants, data.variant);
  document.body.dataset.variant = data.variant;
  document.body.dataset.puzzle = data.id;
  state.played = [];
  state.path = [];
  state.tries = 1;
  state.done = false;
  delete document.body.dataset.best;
  state.started = performance.now();
  $("rating").textContent = data.rating;
  $("themes").textContent = data.themes.join(", ");
  $("task").textContent = t(SOLVE, { side: data.board.side });
  $("task").className = "task " + (data.board.solver === 0 ? "blue" : "red");
  $("said").textContent = "";
  $("said").className = "said";
  $("change").textContent = "";
  $("next").hidden = true;
  $("undo").hidden = false;
  document.body.dataset.phase = "solving";
  draw(data.board, null);
}

function sameSquare(a, b) { return a[0] === b[0] && a[1] === b[1]; }

function prefixMoves(board, path) {
  return board.legal.filter((m) => path.every((sq, i) => m[i] && sameSquare(m[i], sq)));
}

// A chip's label in the lines that fit a round chip, as the board page splits it: a fraction
// over its bar, a long value (121√18, −21xy²) as its number over the rest.
function labelLines(label) {
  const frac = label.match(/^(−?)(\d+)\/(\d+)$/);
  if (frac) return { kind: "frac", lines: [frac[1] + frac[2], frac[3]] };
  if (label.length <= 4) return { kind: "one", lines: [label] };
  const split = label.match(/^(−?\d+)(\D.*)$/);
  if (split) return { kind: "two", lines: [split[1], split[2]] };
  return { kind: "one", lines: [label] };
}

// The squares' numbers along the edges, in the order the board is drawn (turned for Red).
function drawAxes(flip) {
  const ys = $("axis-y"), xs = $("axis-x");
  ys.textContent = "";
  xs.textContent = "";
  for (let i = 0; i < 8; i++) {
    const y = document.createElement("span");
    y.textContent = String(flip ? i : 7 - i);
    ys.append(y);
    const x = document.createElement("span");
    x.textContent = String(flip ? 7 - i : i);
    xs.append(x);
  }
}

// The best move drawn on the board after a second miss: its squares lit green and an arrow
// from the chip along each landing square.
const SVG = "http://www.w3.org/2000/svg";
function drawBest(el, path, flip) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 8 8");
  svg.setAttribute("class", "best-arrow");
  svg.setAttribute("aria-hidden", "true");
  const centre = (sq) => [(flip ? 7 - sq[0] : sq[0]) + 0.5, (flip ? sq[1] : 7 - sq[1]) + 0.5];
  const marker = document.createElementNS(SVG, "marker");
  for (const [k, v] of Object.entries({ id: "best-head", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 3, markerHeight: 3, orient: "auto" })) marker.setAttribute(k, String(v));
  const head = document.createElementNS(SVG, "path");
  head.setAttribute("d", "M0,0 L10,5 L0,10 z");
  marker.append(head);
  const defs = document.createElementNS(SVG, "defs");
  defs.append(marker);
  svg.append(defs);
  for (let i = 1; i < path.length; i++) {
    const [x1, y1] = centre(path[i - 1]), [x2, y2] = centre(path[i]);
    const line = document.createElementNS(SVG, "line");
    for (const [k, v] of Object.entries({ x1: x1, y1: y1, x2: x2, y2: y2, "marker-end": "url(#best-head)" })) line.setAttribute(k, String(v));
    svg.append(line);
  }
  el.append(svg);
}

function draw(board, last, best) {
  state.board = board;
  const el = $("board");
  el.textContent = "";
  const pieces = new Map(board.pieces.map((p) => [p.x + "," + p.y, p]));
  const ops = new Map(board.operators.map((o) => [o.x + "," + o.y, o.op]));
  const open = state.done ? [] : prefixMoves(board, state.path);
  const next = new Set(open.filter((m) => m.length > state.path.length).map((m) => m[state.path.length].join(",")));
  const lastSet = new Set((last || []).map((sq) => sq.join(",")));
  const bestSet = new Set((best || []).map((sq) => sq.join(",")));
  const flip = board.solver === 1;
  drawAxes(flip);
  for (let r = 0; r < 8; r++) {
    const row = document.createElement("div");
    row.className = "row";
    for (let c = 0; c < 8; c++) {
      const x = flip ? 7 - c : c;
      const y = flip ? r : 7 - r;
      const key = x + "," + y;
      const sq = document.createElement("button");
      sq.type = "button";
      sq.className = "sq " + ((x + y) % 2 === 1 ? "dark" : "light");
      sq.dataset.square = key;
      if (ops.has(key)) {
        const op = document.createElement("span");
        op.className = "op";
        op.textContent = ops.get(key);
        sq.append(op);
      }
      const piece = pieces.get(key);
      if (piece) {
        const slot = document.createElement("span");
        slot.className = "chip-slot";
        const chip = document.createElement("span");
        const parts = labelLines(piece.value);
        const longest = Math.max(...parts.lines.map((l) => l.length));
        chip.className = "chip " + (piece.side === 0 ? "blue" : "red") + (piece.dama ? " dama" : "") +
          " lines-" + parts.kind + " len-" + Math.min(5, longest);
        chip.dataset.label = piece.value;
        const val = document.createElement("span");
        val.className = "val";
        parts.lines.forEach((text, i) => {
          const line = document.createElement("span");
          line.className = "line" + (parts.kind === "frac" && i === 1 ? " denominator" : "");
          line.textContent = text;
          val.append(line);
        });
        chip.append(val);
        if (piece.dama) {
          const crown = document.createElement("span");
          crown.className = "crown";
          crown.textContent = "♛";
          chip.append(crown);
        }
        slot.append(chip);
        sq.append(slot);
      }
      if (next.has(key)) sq.classList.add(state.path.length ? "target" : "can");
      if (state.path.some((p) => p.join(",") === key)) sq.classList.add("picked");
      if (lastSet.has(key)) sq.classList.add("last");
      if (bestSet.has(key)) sq.classList.add("best");
      sq.setAttribute("aria-label", "(" + x + ", " + y + ")" + (piece ? " " + piece.value : ""));
      sq.addEventListener("click", () => tap([x, y]));
      row.append(sq);
    }
    el.append(row);
  }
  if (best && best.length) drawBest(el, best, flip);
}

function tap(square) {
  if (state.busy || state.done) return;
  const board = state.board;
  if (state.path.length && sameSquare(state.path[0], square) && state.path.length === 1) {
    state.path = [];
    draw(board, null);
    return;
  }
  let path = state.path.concat([square]);
  if (!prefixMoves(board, path).length) {
    path = [square];
    if (!prefixMoves(board, path).length) return;
  }
  state.path = path;
  const whole = board.legal.filter((m) => m.length === path.length && prefixMoves({ legal: [m] }, path).length);
  const longer = prefixMoves(board, path).filter((m) => m.length > path.length);
  if (whole.length && !longer.length) {
    answer(path);
  } else {
    draw(board, null);
  }
}

async function answer(move) {
  state.busy = true;
  document.body.dataset.phase = "checking";
  let data;
  try {
    data = await getJson("/api/puzzles/answer", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        puzzle: state.puzzle.id, played: state.played, move: move,
        try: state.tries, seconds: (performance.now() - state.started) / 1000,
      }),
    });
  } catch (err) {
    say("wrong", [err.message]);
    state.busy = false;
    state.path = [];
    draw(state.board, null);
    document.body.dataset.phase = "solving";
    return;
  }
  state.busy = false;
  state.path = [];
  if (data.result === "continue") {
    state.played.push(move);
    say("right", data.said);
    draw(data.board, data.reply);
    document.body.dataset.phase = "solving";
    return;
  }
  if (data.result === "right") {
    say("right", data.said);
    if (data.first_try) showChange(data);
    else $("change").textContent = t(RATING_STAYS, { rating: data.rating_after });
    finish(data.board, move);
    return;
  }
  // wrong
  say("wrong", data.said);
  if (data.rating_before !== data.rating_after) showChange(data);
  if (data.tries_left > 0) {
    state.tries += 1;
    const p = document.createElement("p");
    p.className = "verdict";
    p.textContent = t(SECOND_TRY);
    $("said").append(p);
    draw(data.board, null);
    document.body.dataset.phase = "second-try";
  } else {
    const p = document.createElement("p");
    p.className = "verdict";
    p.textContent = t(BEST_SHOWN);
    $("said").append(p);
    finish(data.board, null, data.best);
    document.body.dataset.best = "shown";
  }
}

function showChange(data) {
  const delta = data.rating_after - data.rating_before;
  $("change").textContent = t(RATING_CHANGE, {
    before: data.rating_before, after: data.rating_after, delta: (delta >= 0 ? "+" : "−") + Math.abs(delta),
  });
  $("rating").textContent = data.rating_after;
}

function finish(board, last, best) {
  state.done = true;
  draw(board, last, best);
  $("next").hidden = false;
  $("undo").hidden = true;
  document.body.dataset.phase = "done";
}

function say(kind, lines) {
  const box = $("said");
  box.textContent = "";
  box.className = "said " + kind;
  lines.forEach((line, i) => {
    const p = document.createElement("p");
    if (i === 0) p.className = "verdict";
    p.textContent = line;
    box.append(p);
  });
}

$("undo").addEventListener("click", () => { if (state.board) { state.path = []; draw(state.board, null); } });
$("variant").addEventListener("change", (e) => {
  state.variant = e.target.value;
  localStorage.setItem(VARIANT_KEY, state.variant);
  nextPuzzle().catch((err) => (err.data && err.data.variants ? noPuzzle(err) : say("wrong", [err.message])));
});
$("next").addEventListener("click", () => nextPuzzle().catch((err) => (err.data && err.data.variants ? noPuzzle(err) : say("wrong", [err.message]))));
$("not-me").addEventListener("click", async () => {
  await fetch("/api/puzzles/leave", { method: "POST" });
  location.reload();
});
resume().catch((err) => { $("who-status").textContent = err.message; });
