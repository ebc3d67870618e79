// The virtual board's page (and the projector's): draws the snapshot the server sends, and
// sends what the hands do. No framework and no build step: the page must work offline, served
// by the simulator itself. The projector view (body data-view="projector") only draws.
"use strict";

// Every sentence the page writes, once, with named placeholders (ready for a catalogue).
const T = {
  connecting: N_("connecting…"),
  clocksLabel: N_("The clocks"),
  clockMove: N_("move {time}"),
  connected: N_("connected"),
  reconnecting: N_("disconnected: reconnecting…"),
  notConnected: N_("not connected to the board yet"),
  boardName: N_("board {id}"),
  title: N_("Damath board {id}"),
  badge: N_("{variant} · {rules} rules"),
  badgePractice: N_("{variant} · {rules} rules · practice"),
  toMove: N_("{who} to move"),
  setup: N_("Setting up"),
  restore: N_("Set the board back"),
  over: N_("Game over"),
  won: N_("{winner} wins {won} to {lost}"),
  drawn: N_("Draw, {blue} to {red}"),
  paused: N_("Paused"),
  blue: N_("Blue"),
  red: N_("Red"),
  named: N_("{name} ({side})"),
  handEmpty: N_("nothing"),
  crownOn: N_("Crown the new dama on ({x}, {y})"),
  earlier: N_("earlier: {text}"),
  totalBlue: N_("Blue total: {total}"),
  totalRed: N_("Red total: {total}"),
  finalBlue: N_("Blue final score: {total}"),
  finalRed: N_("Red final score: {total}"),
  takingAt: N_(" at {square}"),
  square: N_("({x}, {y}) {op} square"),
  squareChip: N_(", {side} chip {label}"),
  squareDama: N_(", {side} dama {label}"),
  squareEmpty: N_(", empty"),
  squareLed: N_(", LED {meaning}"),
  squarePreview: N_(", taking here scores {score}"),
  trayChip: N_("pick up the {side} chip {label} to put it back"),
  cue: N_("♪ {name}"),
  notPosition: N_("{file} is not a JSON position: {error}"),
  gameInProgress: N_("A game is being played on this board (moves so far: {moves}). It will be kept in this board's saved games, with its scoresheet and record."),
  positionChosen: N_("From the position in {file} ({chips} chips)."),
  noKept: N_("none yet"),
  kept: N_("{when}: {variant}, {players}, {moves} moves. {result}"),
  keptOne: N_("{when}: {variant}, {players}, {moves} move. {result}"),
  keptPlayers: N_("{blue} v {red}"),
  keptSheet: N_("scoresheet"),
  keptCsv: N_("CSV"),
  keptPdn: N_("PDN"),
  legendPattern: N_("{meaning} · {pattern}"),
  chip: N_("{side} chip {label}"),
  chipDama: N_("{side} dama {label}"),
  pause: N_("Pause"),
  resume: N_("Resume"),
};
for (const key of Object.keys(T)) T[key] = t(T[key]); // the page's language (i18n.js)
const CUE_WORDS = { move: N_("move"), error: N_("error"), warning: N_("warning"), time_up: N_("time up"), game_over: N_("game over") };
const PATTERN_WORDS = { blink: N_("blinking"), pulse: N_("pulsing"), steady: N_("steady") };
// The rule profiles as people name them (the profile's own name stays in files and messages).
const RULES_WORDS = { official: N_("official"), online: N_("online") };
const rulesWord = (name) => t(RULES_WORDS[name] || name);
const fmt = (key, values) => T[key].replace(/\{(\w+)\}/g, (m, k) => (values && k in values ? values[k] : m));

const VIEW = document.body.dataset.view || "board";
const boardId = decodeURIComponent(location.pathname.split("/")[2] || "");
const SYMBOL = {
  lifted: "▲", destination: "●", must_take: "!", to_be_taken: "✕", cannot_move: "⊘",
  missing: "↓", extra: "↑", choice: "?", selected: "✓", locked: "■", crown: "♛",
  last_move: "·", paused: "II", menu: "≡", time_warning: "T", time_up: "0",
  winner_blue: "W", winner_red: "W", draw: "=", place_next: "↓",
};
let facts = null;
let state = null;
let ws = null;
let lastCue = null;
let focusSq = [1, 0];
let audio = null;
let keptFor = null;
let keptPhase = null; // the phase the saved games were last looked at in
let pendingPosition = null;
const LONGER = { game_seconds: 2400, move_seconds: 120 }; // the dialog's "longer" clocks
const $ = (id) => document.getElementById(id);
const cells = new Map(); // "x,y" -> square element
const text = (id, value) => { const el = $(id); if (el) el.textContent = value; };
const minus = (s) => String(s).replace(/-/g, "−");

// ------------------------------------------------------------------ the grid, built once

function buildBoard() {
  const board = $("board");
  const interactive = VIEW === "board";
  for (let y = 7; y >= 0; y--) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    for (let x = 0; x < 8; x++) {
      let el;
      if ((x + y) % 2 === 1) {
        el = document.createElement(interactive ? "button" : "div");
        if (interactive) el.type = "button";
        el.className = "sq dark";
        el.dataset.x = x;
        el.dataset.y = y;
        el.setAttribute("role", "gridcell");
        el.innerHTML = '<span class="led" aria-hidden="true"><span class="led-sym"></span></span>' +
          '<span class="op" aria-hidden="true"></span><span class="chip-slot"></span>' +
          '<span class="preview" aria-hidden="true"></span>' +
          '<span class="coord" aria-hidden="true">' + x + "," + y + "</span>";
        if (interactive) {
          el.tabIndex = x === focusSq[0] && y === focusSq[1] ? 0 : -1;
          el.addEventListener("click", () => send({ type: "click", square: [x, y] }));
          el.addEventListener("focus", () => setFocus(x, y, false));
          el.addEventListener("dragover", (e) => e.preventDefault());
          el.addEventListener("drop", (e) => {
            e.preventDefault();
            const from = e.dataTransfer.getData("text/plain").split(",").map(Number);
            if (from.length === 2 && !(from[0] === x && from[1] === y)) {
              send({ type: "drag", from: from, to: [x, y] });
            }
          });
        }
        cells.set(x + "," + y, el);
      } else {
        el = document.createElement("div");
        el.className = "sq light";
        el.setAttribute("aria-hidden", "true");
      }
      row.append(el);
    }
    board.append(row);
  }
  if (interactive) board.addEventListener("keydown", onKey);
}

function setFocus(x, y, move) {
  const old = cells.get(focusSq.join(","));
  if (old) old.tabIndex = -1;
  focusSq = [x, y];
  const el = cells.get(x + "," + y);
  el.tabIndex = 0;
  if (move) el.focus();
}

function onKey(e) {
  const [x, y] = focusSq;
  let target = null;
  const dark = (a, b) => a >= 0 && a < 8 && b >= 0 && b < 8 && (a + b) % 2 === 1;
  const vertical = (ny) => (dark(x + 1, ny) ? [x + 1, ny] : dark(x - 1, ny) ? [x - 1, ny] : null);
  if (e.key === "ArrowUp") target = vertical(y + 1);
  else if (e.key === "ArrowDown") target = vertical(y - 1);
  else if (e.key === "ArrowLeft") target = dark(x - 2, y) ? [x - 2, y] : null;
  else if (e.key === "ArrowRight") target = dark(x + 2, y) ? [x + 2, y] : null;
  else if (e.key === "c" || e.key === "C") {
    send({ type: "crown", square: [x, y] });
    e.preventDefault();
    return;
  } else if (e.key === "Delete" || e.key === "Backspace" || e.key === "x") {
    send({ type: "remove", square: [x, y] });
    e.preventDefault();
    return;
  } else return;
  e.preventDefault();
  if (target) setFocus(target[0], target[1], true);
}

// ------------------------------------------------------------------ the channel

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(proto + "//" + location.host + "/ws/" + encodeURIComponent(boardId));
  ws.onopen = () => { text("link", T.connected); $("link").className = "link ok"; };
  ws.onclose = () => {
    text("link", T.reconnecting);
    $("link").className = "link bad";
    setTimeout(connect, 1000);
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "hello") setFacts(msg.facts);
    else if (msg.type === "state") rendererOf(msg.state)(msg.state);
    else if (msg.type === "error") say(msg.message, true);
    else if (msg.type === "done") say(msg.message, false);
    if (msg.type === "error" || msg.type === "done") {  // the answer to the page's last message
      document.body.dataset.reply = msg.type;
      document.body.dataset.replies = String(Number(document.body.dataset.replies || "0") + 1);
    }
  };
}

// A game's LED legend as a list: each meaning (only those lit now, when ``lit`` is a set).
function fillLegend(ul, legend, lit) {
  ul.innerHTML = "";
  for (const [name, meaning] of Object.entries(legend)) {
    if (lit && !lit.has(name)) continue;
    const li = document.createElement("li");
    li.dataset.light = name;
    li.textContent = meaning;
    ul.append(li);
  }
}

// Each game's renderer, picked by the state's "renderer" (the game's kind says which): Damath's
// chips here, the others in their own files (dadama.js, draughts.js, mathchess.js).
function rendererOf(s) {
  const table = { damath: render,
    dadama: (x) => withClocks(x, (y) => Dadama.render(y)),
    draughts: (x) => withClocks(x, (y) => Draughts.render(y)),
    mathchess: (x) => withClocks(x, (y) => MathChess.render(y)) };
  return table[s.renderer] || render;
}

// The board's clocks of a game other than Damath (controller/games/clocks.py): each side's game
// time, the side to move's move time; a strip above the game's board, hidden with the clocks off.
function withClocks(s, draw) {
  draw(s);
  let strip = $("table-clocks");
  if (!strip) {
    strip = document.createElement("div");
    strip.id = "table-clocks";
    strip.className = "table-clocks";
    strip.setAttribute("aria-label", t(T.clocksLabel));
    $("board").before(strip);
  }
  const c = s.clocks || {};
  strip.hidden = !c.sides;
  if (!c.sides) return;
  const sides = c.names || ["", ""];
  strip.replaceChildren(...c.sides.map((face, i) => {
    const d = document.createElement("span");
    d.className = "side-clock";
    d.textContent = (sides[i] ? sides[i] + " " : "") + face;
    return d;
  }));
  if (c.move && c.move !== "-:--" && c.move !== "--:--") {
    const m = document.createElement("span");
    m.className = "move-clock" + (c.warned ? " warn" : "");
    m.textContent = t(T.clockMove, { time: c.move });
    strip.append(m);
  }
}

// Where a game's own panel goes: under its board on the board's page, in the side panel on the
// projector (the renderers in dadama.js and draughts.js call this).
function placePanel(grid, panel) {
  const side = VIEW === "projector" ? document.querySelector("aside.panel") : null;
  if (side) side.prepend(panel);
  else grid.after(panel);
}

function send(msg) {
  if (VIEW !== "board") return;
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else say(T.notConnected, true);
}

function say(message, error) {
  const s = $("status");
  if (!s) return;
  s.textContent = message;
  s.className = error ? "status error" : "status";
  s.setAttribute("role", error ? "alert" : "status");
}

// ------------------------------------------------------------------ drawing

function setFacts(f) {
  facts = f;
  const fill = (sel, items, word) => {
    if (!sel) return;
    sel.textContent = "";
    for (const item of items) {
      const o = document.createElement("option");
      o.value = item; o.textContent = word(item);
      sel.append(o);
    }
  };
  fill($("variant"), f.variants.concat(f.games || []), (item) => (f.titles && f.titles[item]) || item);
  fill($("profile"), f.profiles, rulesWord);
  const legend = $("legend");
  if (!legend) return;
  legend.textContent = "";
  for (const l of f.legend) {
    const li = document.createElement("li");
    li.innerHTML = '<span class="swatch pat-' + l.pattern + '" style="--led: rgb(' + l.rgb.join(",") +
      ')"><span class="led-sym">' + (SYMBOL[l.name] || "") + "</span></span> ";
    const words = l.pattern !== "steady" ? fmt("legendPattern", { meaning: t(l.meaning), pattern: t(PATTERN_WORDS[l.pattern] || l.pattern) }) : t(l.meaning);
    li.append(document.createTextNode(words));
    li.dataset.led = l.name;
    legend.append(li);
  }
}

// An LED's meaning in words, from the legend the server sent (its own words for the square).
function ledMeaning(name) {
  const light = facts && facts.legend.find((l) => l.name === name);
  return light ? t(light.meaning) : name.replace(/_/g, " ");
}
function sideWord(side) { return side === "blue" ? T.blue : T.red; }

// A chip's label split into the lines that fit a round chip: a fraction stacked over its bar,
// a long value (−121√18, −21xy²) as its number over the rest. Minus signs are real minus signs.
function labelLines(label) {
  const s = minus(label);
  const frac = s.match(/^(−?)(\d+)\/(\d+)$/);
  if (frac) return { kind: "frac", lines: [frac[1] + frac[2], frac[3]] };
  if (s.length <= 4) return { kind: "one", lines: [s] };
  const split = s.match(/^(−?\d+)(\D.*)$/);
  if (split) return { kind: "two", lines: [split[1], split[2]] };
  return { kind: "one", lines: [s] };
}

function chipEl(c, draggableFrom) {
  const el = document.createElement("span");
  const parts = labelLines(c.label);
  const longest = Math.max(...parts.lines.map((l) => l.length));
  el.className = "chip " + c.side + (c.dama ? " dama" : "") + " lines-" + parts.kind + " len-" + Math.min(longest, 5);
  el.dataset.label = c.label;
  el.dataset.side = c.side;
  el.dataset.dama = c.dama ? "1" : "0";
  el.setAttribute("aria-label", fmt(c.dama ? "chipDama" : "chip", { side: sideWord(c.side).toLowerCase(), label: minus(c.label) }));
  if (c.dama) {
    const crown = document.createElement("span");
    crown.className = "crown";
    crown.setAttribute("aria-hidden", "true");
    crown.textContent = "♛";
    el.append(crown);
  }
  const val = document.createElement("span");
  val.className = "val";
  parts.lines.forEach((line, i) => {
    const span = document.createElement("span");
    span.className = "line" + (parts.kind === "frac" && i === 1 ? " denominator" : "");
    span.textContent = line;
    val.append(span);
  });
  el.append(val);
  if (draggableFrom) {
    el.draggable = true;
    el.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", draggableFrom.join(",")));
  }
  return el;
}

function playerName(s, side) {
  const name = s.info && s.info[side];
  return name ? fmt("named", { name: name, side: sideWord(side) }) : sideWord(side);
}

function render(s) {
  const first = state === null;
  const newGame = !first && (s.ply < state.ply || s.variant !== state.variant);
  state = s;
  document.body.dataset.game = "damath";
  document.body.dataset.renderer = "damath";
  document.title = fmt("title", { id: s.board });
  text("board-name", fmt("boardName", { id: s.board }));
  text("game-badge", fmt(s.play && s.play.practice ? "badgePractice" : "badge",
    { variant: capital(s.variant), rules: rulesWord(s.profile) }));
  document.body.dataset.phase = s.phase;
  document.body.dataset.paused = s.paused ? "1" : "0";
  document.body.dataset.toMove = s.to_move;
  document.body.dataset.ply = s.ply;
  document.body.dataset.variant = s.variant;
  const preview = new Map((s.preview || []).map(([sq, score]) => [sq.join(","), score]));
  for (const cell of s.squares) {
    const [x, y] = cell.square;
    const el = cells.get(x + "," + y);
    el.querySelector(".op").textContent = cell.operator;
    const slot = el.querySelector(".chip-slot");
    slot.textContent = "";
    if (cell.chip) slot.append(chipEl(cell.chip, VIEW === "board" ? [x, y] : null));
    const led = el.querySelector(".led");
    const sym = el.querySelector(".led-sym");
    let label = fmt("square", { x: x, y: y, op: cell.operator });
    if (cell.chip) label += fmt(cell.chip.dama ? "squareDama" : "squareChip", { side: sideWord(cell.chip.side).toLowerCase(), label: minus(cell.chip.label) });
    else label += T.squareEmpty;
    if (cell.led) {
      led.style.setProperty("--led", "rgb(" + cell.led.rgb.join(",") + ")");
      led.className = "led on pat-" + cell.led.pattern;
      led.style.setProperty("--level", Math.max(0.35, cell.led.brightness || 1));
      sym.textContent = SYMBOL[cell.led.name] || "";
      el.dataset.led = cell.led.name;
      el.dataset.rgb = cell.led.rgb.join(",");
      label += fmt("squareLed", { meaning: ledMeaning(cell.led.name) });
    } else {
      led.className = "led";
      led.style.removeProperty("--led");
      sym.textContent = "";
      delete el.dataset.led;
      delete el.dataset.rgb;
    }
    const score = preview.get(x + "," + y);
    const badge = el.querySelector(".preview");
    badge.textContent = score === undefined ? "" : minus(score);
    if (score !== undefined) {
      el.dataset.preview = score;
      label += fmt("squarePreview", { score: minus(score) });
    } else delete el.dataset.preview;
    el.setAttribute("aria-label", label);
  }
  renderBar(s);
  renderSays(s);
  if (VIEW === "board") renderControls(s, first, newGame);
  if (VIEW === "board" && window.renderCoach) window.renderCoach(s);
  const against = s.renderer !== "damath" && s.computer && s.computer.side !== null && s.computer.side !== undefined;
  if ($("game-hint")) $("game-hint").hidden = !against; // a game against the computer: its Hint
  renderOled(s);
  renderSheet(s.sheet);
  playCues(s.cues);
}

function capital(word) { return word ? word.charAt(0).toUpperCase() + word.slice(1) : ""; }

function renderBar(s) {
  text("clock-game", s.clocks.game);
  text("clock-move", s.clocks.move);
  const move = $("clock-move");
  if (move) move.classList.toggle("warn", !!s.clocks.warned);
  const bar = $("gamebar");
  if (bar) bar.classList.toggle("colon-off", !s.clocks.colon);
  text("name-blue", playerName(s, "blue"));
  text("name-red", playerName(s, "red"));
  text("score-blue", minus(s.sheet.totals.blue));
  text("score-red", minus(s.sheet.totals.red));
  for (const side of ["blue", "red"]) {
    const el = document.querySelector(".gamebar .player." + side);
    if (el) el.classList.toggle("to-move", s.phase !== "over" && s.to_move === side);
  }
  let phase = { setup: T.setup, play: "", restore: T.restore, over: T.over }[s.phase];
  if (phase === undefined) phase = s.phase;
  if (s.paused) phase = T.paused;
  const turn = s.phase === "over" ? overText(s) : fmt("toMove", { who: playerName(s, s.to_move) });
  text("turn", (phase ? phase + " · " : "") + turn);
  const t = $("turn");
  if (t) t.className = "turn " + s.to_move;
}

// A finished game in the header: who won and the final scores first, then why it ended.
function overText(s) {
  const blue = minus(s.sheet.totals.blue);
  const red = minus(s.sheet.totals.red);
  let head = "";
  if (s.winner === "draw") head = fmt("drawn", { blue: blue, red: red });
  else if (s.winner) {
    const blueWon = s.winner === "blue";
    head = fmt("won", { winner: playerName(s, s.winner), won: blueWon ? blue : red, lost: blueWon ? red : blue });
  }
  return [head, s.ending || ""].filter(Boolean).join(" · ");
}

function renderSays(s) {
  const says = $("says");
  if (says) {
    says.textContent = s.message || "";
    says.className = "says" + (s.message ? " on" : "") + (s.tracker_phase === "mismatch" || s.tracker_phase === "invalid" ? " wrong" : "");
  }
  const ol = $("messages"); // newest first
  if (!ol) return;
  ol.textContent = "";
  const current = s.message || "";
  if (current) {
    const li = document.createElement("li");
    li.className = "now";
    li.textContent = current;
    ol.append(li);
  }
  const earlier = s.messages.slice().reverse().filter((m, i) => !(i === 0 && m === current));
  for (const m of earlier.slice(0, 5)) {
    const li = document.createElement("li");
    li.className = "earlier";
    li.textContent = fmt("earlier", { text: m });
    ol.append(li);
  }
}

let assignmentSeen = ""; // the hub's assignment line this page has shown (sim --hub)
function renderControls(s, first, newGame) {
  const dialog = $("new-game-dialog");
  if (!dialog.open) { // what another page (or this one) chose shows here too
    $("variant").value = s.variant;
    $("profile").value = s.profile;
  }
  $("btn-pause").textContent = s.paused ? T.resume : T.pause;
  renderMenu(s.menu);
  const hand = $("hand");
  hand.textContent = "";
  if (s.hand) hand.append(chipEl(s.hand, null), document.createTextNode(" " + sideWord(s.hand.side) + " " + minus(s.hand.label)));
  else hand.textContent = T.handEmpty;
  $("put-aside").disabled = !s.hand;
  $("turn-over").disabled = !s.hand;
  $("my-takeback").hidden = !s.player_takeback;
  $("my-takeback").disabled = !s.ply;
  for (const side of ["blue", "red"]) {
    const tray = $("tray-" + side);
    tray.textContent = "";
    for (const c of s.trays[side]) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tray-chip";
      b.setAttribute("aria-label", fmt("trayChip", { side: sideWord(c.side).toLowerCase(), label: minus(c.label) }));
      b.append(chipEl(c, null));
      b.addEventListener("click", () => send({ type: "from_tray", chip: c.id }));
      tray.append(b);
    }
  }
  $("crown-call").hidden = !s.crown;
  if (s.crown) $("crown-square").textContent = fmt("crownOn", { x: s.crown[0], y: s.crown[1] });
  fillInfo(s, first);
  const practice = !!(s.play && s.play.practice);
  $("practice-box").hidden = !practice;
  $("live-preview").checked = !!(s.play && s.play.capture_preview);
  $("live-takeback").checked = !!(s.play && s.play.takeback === "players");
  if (s.notice && first) say(s.notice, false);
  else if (s.assignment && s.assignment !== assignmentSeen) say(s.assignment, false); // from the hub
  assignmentSeen = s.assignment || "";
  const ended = s.phase === "over" && keptPhase !== "over"; // the game just ended: it is kept now
  keptPhase = s.phase;
  if (first || newGame || ended || keptFor === null) loadKept();
}

// The players' form follows the board (another page may have changed it) unless it is being
// edited here.
function fillInfo(s, first) {
  const form = $("info-form");
  const roster = $("roster");
  const names = (s.roster || []).join("\n");
  if (roster.dataset.names !== names) {
    roster.dataset.names = names;
    roster.textContent = "";
    for (const n of s.roster || []) {
      const o = document.createElement("option");
      o.value = n;
      roster.append(o);
    }
  }
  if (form.contains(document.activeElement) && !first) return;
  for (const input of form.querySelectorAll("input[name]")) {
    input.value = (s.info && s.info[input.name]) || "";
  }
}

function renderMenu(menu) {
  const box = $("menu");
  box.hidden = !menu;
  if (!menu) return;
  $("menu-title").textContent = menu.title;
  const ol = $("menu-options");
  ol.textContent = "";
  menu.options.forEach((label, i) => {
    const li = document.createElement("li");
    li.textContent = (i === menu.selected ? "▶ " : "") + label;
    if (i === menu.selected) li.className = "selected";
    ol.append(li);
  });
}

// The display's picture is asked for again whenever its lines change (the key is their hash),
// so it always shows what the real display shows, the clock's seconds and a question included.
let oledKey = null;
function renderOled(s) {
  const img = $("oled");
  if (!img) return;
  text("oled-text", (s.display || []).join("\n"));
  if (s.display_key !== oledKey) {
    oledKey = s.display_key;
    img.src = "/board/" + encodeURIComponent(boardId) + "/oled.png?k=" + s.display_key;
    img.dataset.key = s.display_key;
  }
}

function renderSheet(sheet) {
  const table = $("sheet");
  if (!table) return;
  const body = table.querySelector("tbody");
  body.textContent = "";
  for (const line of sheet.lines) {
    const tr = document.createElement("tr");
    tr.dataset.section = line.section;
    const no = document.createElement("td");
    no.className = "no";
    no.textContent = line.n;
    tr.append(no);
    [line.blue, line.red].forEach((c, i) => {
      const move = document.createElement("td");
      move.className = i === 1 ? "move sep" : "move";
      if (c) {
        move.textContent = c.move;
        if (c.square) {
          const at = document.createElement("span");
          at.className = "at";
          at.textContent = fmt("takingAt", { square: c.square });
          move.append(at);
        }
      }
      const score = document.createElement("td");
      // the projector has no Total column: its totals lines (RC, takings, grand) show theirs here
      score.textContent = c ? (VIEW === "projector" && !c.score ? c.total : c.score) : "";
      const total = document.createElement("td");
      total.textContent = c ? c.total : "";
      tr.append(move, score);
      if (VIEW !== "projector") tr.append(total); // the projector shows the totals large above
      if (c) tr.dataset.kind = c.kind;
    });
    body.append(tr);
  }
  const scroll = table.parentElement;
  if (scroll && scroll.classList.contains("sheet-scroll")) scroll.scrollTop = scroll.scrollHeight;
  const over = !!sheet.result; // once the game is over, the totals are its final scores
  text("total-blue", fmt(over ? "finalBlue" : "totalBlue", { total: minus(sheet.totals.blue) }));
  text("total-red", fmt(over ? "finalRed" : "totalRed", { total: minus(sheet.totals.red) }));
  text("result", [sheet.result || ""].concat(sheet.ending || []).join(" "));
}

// ------------------------------------------------------------------ the buzzer

function playCues(cues) {
  const seqs = cues.map((c) => c.seq);
  const newest = seqs.length ? Math.max(...seqs) : 0;
  if (lastCue === null || newest < lastCue) { lastCue = newest; return; }
  for (const cue of cues) {
    if (cue.seq <= lastCue) continue;
    const b = $("buzzer");
    if (b) {
      b.textContent = fmt("cue", { name: t(CUE_WORDS[cue.name] || cue.name.replace(/_/g, " ")) });
      b.dataset.cue = cue.name;
      b.dataset.seq = cue.seq;
    }
    const sound = $("sound");
    if (sound && sound.checked) beep(cue.name);
  }
  lastCue = newest;
}

function beep(name) {
  const pattern = facts && facts.patterns[name];
  if (!pattern) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  audio = audio || new Ctx();
  let t = audio.currentTime;
  for (const [freq, seconds] of pattern) {
    if (freq) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.value = 0.08;
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + seconds);
    }
    t += seconds;
  }
}

// ------------------------------------------------------------------ the kept games

async function loadKept() {
  const ul = $("kept-games");
  if (!ul) return;
  keptFor = state ? state.ply : 0;
  let data;
  try {
    data = await (await fetch("/board/" + encodeURIComponent(boardId) + "/games.json", { cache: "no-store" })).json();
  } catch (err) {
    return;
  }
  ul.textContent = "";
  if (!data.games || !data.games.length) {
    const li = document.createElement("li");
    li.textContent = T.noKept;
    ul.append(li);
    return;
  }
  const base = "/board/" + encodeURIComponent(boardId) + "/games/";
  for (const g of data.games) {
    const li = document.createElement("li");
    li.dataset.name = g.name;
    const players = fmt("keptPlayers", { blue: g.blue || T.blue, red: g.red || T.red });
    const when = new Date(g.saved * 1000).toLocaleString();
    li.append(document.createTextNode(fmt(g.moves === 1 ? "keptOne" : "kept", {
      when: when, variant: capital(g.variant), players: players, moves: g.moves, result: minus(g.result),
    }) + " "));
    const files = g.current ? "/board/" + encodeURIComponent(boardId) + "/" : base + encodeURIComponent(g.name) + "/";
    for (const [file, label, newTab] of [["scoresheet.html", T.keptSheet, true], ["scoresheet.csv", T.keptCsv, false], ["game.pdn", T.keptPdn, false]]) {
      const a = document.createElement("a");
      a.href = files + file; // the game that ended on the board: the board's own downloads
      a.textContent = label;
      if (newTab) a.target = "_blank";
      li.append(a, document.createTextNode(" "));
    }
    ul.append(li);
  }
}

// ------------------------------------------------------------------ a new game, asked first

function openNewGame(position, fileName) {
  pendingPosition = position || null;
  const dialog = $("new-game-dialog");
  const warn = $("new-game-warning");
  const inProgress = state && state.ply > 0 && state.phase !== "over";
  warn.hidden = !inProgress;
  if (inProgress) warn.textContent = fmt("gameInProgress", { moves: state.ply });
  const pos = $("new-game-position");
  pos.hidden = !position;
  if (position) pos.textContent = fmt("positionChosen", { file: fileName, chips: (position.pieces || []).length });
  if (state) {
    $("variant").value = state.variant;
    $("profile").value = state.profile;
    if (state.dice_mode) $("dice-mode").value = state.dice_mode;
    if (state.renderer !== "damath") $("table-clocks-choice").value = state.clocks && state.clocks.sides ? "on" : "off";
    const play = state.play || {};
    const practice = !!play.practice;
    $("kind-practice").checked = practice;
    document.querySelector('input[name="kind"][value="tournament"]').checked = !practice;
    $("practice-options").disabled = !practice;
    $("practice-clocks").value = clocksChoice(state);
    $("practice-preview").checked = !!play.capture_preview;
    $("practice-takeback").checked = play.takeback === "players";
  }
  showGameControls();
  dialog.showModal();
}

// The dialog's clocks as the board's game has them: off, longer (40:00 and 2:00), or the rules'.
function clocksChoice(s) {
  if (s.play && s.play.practice && s.play.clocks === "off") return "off";
  const k = s.clock_seconds;
  return k && k.game === LONGER.game_seconds && k.move === LONGER.move_seconds ? "longer" : "rules";
}

// The dialog shows the controls of the game chosen in it: the rules and the kind of game for
// Damath's variants, the dice for Dadama, the level for Mathematical Chess.
function showGameControls() {
  const chosen = $("variant").value;
  const damath = !facts || facts.variants.includes(chosen);
  for (const row of document.querySelectorAll("#game-form [data-game]")) row.hidden = row.dataset.game !== chosen;
  for (const id of ["profile-row", "kind-row", "practice-options"]) $(id).hidden = !damath;
  $("table-clocks-row").hidden = damath; // the other games' clocks: on or off (controller/games/clocks.py)
  const levels = facts && facts.computers && facts.computers[chosen]; // a game with a computer
  $("computer-row").hidden = $("computer-level-row").hidden = !levels;
  if (levels) {
    const select = $("computer-level");
    select.textContent = "";
    for (const lv of levels) {
      const o = document.createElement("option");
      o.value = String(lv.number); o.textContent = `${lv.number}: ${lv.name}`;
      select.append(o);
    }
  }
}

function startNewGame() {
  const practice = $("kind-practice").checked;
  const msg = { type: "new_game", variant: $("variant").value, profile: $("profile").value, confirm: true };
  if (practice) {
    const clocks = $("practice-clocks").value;
    msg.play = {
      practice: true,
      clocks: clocks === "off" ? "off" : "on",
      capture_preview: $("practice-preview").checked,
      takeback: $("practice-takeback").checked ? "players" : "arbiter",
    };
    if (clocks === "longer") msg.rules = Object.assign({}, LONGER);
    const now = (state && state.play) || {}; // the computer and the hints carry over
    if (now.practice) Object.assign(msg.play, { computer: now.computer || "off", level: now.level || 4, hints: !!now.hints });
  } else {
    msg.play = { practice: false, clocks: "on", capture_preview: false, takeback: "arbiter" };
  }
  if (facts && !facts.variants.includes(msg.variant)) msg.rules = { clocks: $("table-clocks-choice").value };
  if (msg.variant === "dadama") msg.dice = $("dice-mode").value;
  if (msg.variant === "mathchess") msg.level = Number($("mc-level").value);
  if (facts && facts.computers && facts.computers[msg.variant]) {
    msg.computer = $("computer-side").value;
    msg.computer_level = Number($("computer-level").value);
  }
  if (pendingPosition) msg.position = pendingPosition;
  pendingPosition = null;
  send(msg);
}

// ------------------------------------------------------------------ wiring

function wire() {
  for (const b of document.querySelectorAll("[data-button]")) {
    b.addEventListener("click", () =>
      send({ type: "button", name: b.dataset.button, hold: b.dataset.hold === "1" }));
  }
  $("open-new-game").addEventListener("click", () => openNewGame(null, ""));
  $("variant").addEventListener("change", showGameControls);
  $("new-game-cancel").addEventListener("click", () => { pendingPosition = null; $("new-game-dialog").close(); });
  $("game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    $("new-game-dialog").close();
    startNewGame();
  });
  for (const radio of document.querySelectorAll('input[name="kind"]')) {
    radio.addEventListener("change", () => { $("practice-options").disabled = !$("kind-practice").checked; });
  }
  $("info-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const info = {};
    for (const input of $("info-form").querySelectorAll("input[name]")) info[input.name] = input.value.trim();
    send({ type: "info", info: info });
    document.activeElement.blur();
  });
  $("live-preview").addEventListener("change", (e) => send({ type: "play", play: { capture_preview: e.target.checked } }));
  $("live-takeback").addEventListener("change", (e) => send({ type: "play", play: { takeback: e.target.checked ? "players" : "arbiter" } }));
  $("my-takeback").addEventListener("click", () => send({ type: "takeback" }));
  $("put-aside").addEventListener("click", () => send({ type: "put_aside" }));
  $("turn-over").addEventListener("click", () => send({ type: "crown" }));
  $("crown-square").addEventListener("click", () => {
    if (state && state.crown) send({ type: "crown", square: state.crown });
  });
  $("arrange").addEventListener("click", () => send({ type: "arrange" }));
  $("sound").addEventListener("change", () => { if ($("sound").checked) beep("move"); });
  for (const tray of document.querySelectorAll(".tray")) {
    tray.addEventListener("dragover", (e) => e.preventDefault());
    tray.addEventListener("drop", (e) => {
      e.preventDefault();
      const from = e.dataTransfer.getData("text/plain").split(",").map(Number);
      if (from.length === 2) send({ type: "remove", square: from });
    });
  }
  const base = "/board/" + encodeURIComponent(boardId) + "/";
  $("dl-csv").href = base + "scoresheet.csv";
  $("dl-html").href = base + "scoresheet.html";
  $("dl-pdn").href = base + "game.pdn";
  $("dl-position").href = base + "position.json";
  $("link-projector").href = base + "projector";
  $("position-file").addEventListener("change", loadPosition);
}

// A teacher's position (or one saved from a game) starts a new game on this board; the
// board checks it and answers with what is wrong, if anything.
async function loadPosition(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  let position;
  try {
    position = JSON.parse(await file.text());
  } catch (err) {
    say(fmt("notPosition", { file: file.name, error: err.message }), true);
    return;
  }
  if (state && state.ply > 0 && state.phase !== "over") {
    openNewGame(position, file.name); // a game is being played: ask first
    return;
  }
  const variant = state && state.renderer !== "damath" ? state.game : $("variant").value;
  send({ type: "new_game", variant: variant, profile: $("profile").value, position, confirm: true });
}

buildBoard();
if (VIEW === "board") wire();
// The other games' scripts (dadama.js, mathchess.js, …) come after this one: a state that
// arrived while the browser still fetched them would name a renderer not yet defined.
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", connect);
else connect();
