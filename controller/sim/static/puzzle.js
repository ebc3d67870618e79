// The puzzle page: a child picks their name, gets the puzzle nearest their rating, and makes
// the move on the board (tap the chip, then each landing square). The server judges it
// (controller/sim/puzzles.py) and says why, in the page's language; a wrong first try gets a
// second one.
"use strict";

const state = { child: "", puzzle: null, board: null, played: [], path: [], tries: 1, started: 0, busy: false, done: false };
const $ = (id) => document.getElementById(id);

const SOLVE = N_("{side} to move: find the best move.");
const RATING_CHANGE = N_("Your puzzle rating: {before} → {after} ({delta})");
const SECOND_TRY = N_("Second try: your move again.");
const RATING_STAYS = N_("Solved at the second try: your puzzle rating stays {rating}.");

async function getJson(url, options) {
  const response = await fetch(url, Object.assign({ cache: "no-store" }, options || {}));
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
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
    $("who-status").textContent = err.message;
    return;
  }
  $("who").hidden = true;
  $("solve").hidden = false;
  $("child-name").textContent = name;
}

async function resume() {
  const me = await getJson("/api/puzzles/me");
  $("code-box").hidden = !me.code;
  if (me.child) await begin(me.child);
  else await loadNames();
}

async function nextPuzzle() {
  const data = await getJson("/api/puzzles/next");
  state.puzzle = data;
  document.body.dataset.puzzle = data.id;
  state.played = [];
  state.path = [];
  state.tries = 1;
  state.done = false;
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

function draw(board, last) {
  state.board = board;
  const el = $("board");
  el.textContent = "";
  const pieces = new Map(board.pieces.map((p) => [p.x + "," + p.y, p]));
  const ops = new Map(board.operators.map((o) => [o.x + "," + o.y, o.op]));
  const open = state.done ? [] : prefixMoves(board, state.path);
  const next = new Set(open.filter((m) => m.length > state.path.length).map((m) => m[state.path.length].join(",")));
  const lastSet = new Set((last || []).map((sq) => sq.join(",")));
  const flip = board.solver === 1;
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
        chip.className = "chip " + (piece.side === 0 ? "blue" : "red") + (piece.dama ? " dama" : "") +
          " lines-one len-" + Math.min(5, piece.value.length);
        const val = document.createElement("span");
        val.className = "val";
        val.textContent = piece.value;
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
      sq.setAttribute("aria-label", "(" + x + ", " + y + ")" + (piece ? " " + piece.value : ""));
      sq.addEventListener("click", () => tap([x, y]));
      row.append(sq);
    }
    el.append(row);
  }
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
    finish(data.board, null);
  }
}

function showChange(data) {
  const delta = data.rating_after - data.rating_before;
  $("change").textContent = t(RATING_CHANGE, {
    before: data.rating_before, after: data.rating_after, delta: (delta >= 0 ? "+" : "−") + Math.abs(delta),
  });
  $("rating").textContent = data.rating_after;
}

function finish(board, last) {
  state.done = true;
  draw(board, last);
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

$("undo").addEventListener("click", () => { state.path = []; draw(state.board, null); });
$("next").addEventListener("click", () => nextPuzzle().catch((err) => say("wrong", [err.message])));
$("not-me").addEventListener("click", async () => {
  await fetch("/api/puzzles/leave", { method: "POST" });
  location.reload();
});
resume().catch((err) => { $("who-status").textContent = err.message; });
