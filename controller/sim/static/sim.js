// The virtual board's page: draws the snapshot the server sends, and sends what the hands do.
// No framework and no build step: the page must work offline, served by the simulator itself.
"use strict";

const boardId = decodeURIComponent(location.pathname.split("/")[2] || "");
const SYMBOL = {
  lifted: "▲", destination: "●", must_take: "!", to_be_taken: "✕", cannot_move: "⊘",
  missing: "↓", extra: "↑", choice: "?", selected: "✓", locked: "■", crown: "♛",
  last_move: "·", paused: "II", menu: "≡", time_warning: "T", time_up: "0",
  winner_blue: "W", winner_red: "W", draw: "=",
};
const OP_NAME = { "+": "plus", "−": "minus", "×": "times", "÷": "divide" };
let facts = null;
let state = null;
let ws = null;
let lastCue = null;
let focusSq = [1, 0];
let audio = null;
const $ = (id) => document.getElementById(id);
const cells = new Map(); // "x,y" -> button

// ------------------------------------------------------------------ the grid, built once

function buildBoard() {
  const board = $("board");
  for (let y = 7; y >= 0; y--) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    for (let x = 0; x < 8; x++) {
      let el;
      if ((x + y) % 2 === 1) {
        el = document.createElement("button");
        el.type = "button";
        el.className = "sq dark";
        el.dataset.x = x;
        el.dataset.y = y;
        el.tabIndex = x === focusSq[0] && y === focusSq[1] ? 0 : -1;
        el.setAttribute("role", "gridcell");
        el.innerHTML = '<span class="led" aria-hidden="true"><span class="led-sym"></span></span>' +
          '<span class="op" aria-hidden="true"></span><span class="chip-slot"></span>' +
          '<span class="coord" aria-hidden="true">' + x + "," + y + "</span>";
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
  board.addEventListener("keydown", onKey);
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
  ws.onopen = () => { $("link").textContent = "connected"; $("link").className = "link ok"; };
  ws.onclose = () => {
    $("link").textContent = "disconnected: reconnecting…";
    $("link").className = "link bad";
    setTimeout(connect, 1000);
  };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "hello") setFacts(msg.facts);
    else if (msg.type === "state") render(msg.state);
    else if (msg.type === "error") say(msg.message, true);
    else if (msg.type === "done") say(msg.message, false);
  };
}

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else say("not connected to the board yet", true);
}

function say(text, error) {
  const s = $("status");
  s.textContent = text;
  s.className = error ? "status error" : "status";
  s.setAttribute("role", error ? "alert" : "status");
}

// ------------------------------------------------------------------ drawing

function setFacts(f) {
  facts = f;
  const fill = (sel, items) => {
    sel.textContent = "";
    for (const item of items) {
      const o = document.createElement("option");
      o.value = item; o.textContent = item;
      sel.append(o);
    }
  };
  fill($("variant"), f.variants);
  fill($("profile"), f.profiles);
  const legend = $("legend");
  legend.textContent = "";
  for (const l of f.legend) {
    const li = document.createElement("li");
    li.innerHTML = '<span class="swatch pat-' + l.pattern + '" style="--led: rgb(' + l.rgb.join(",") +
      ')"><span class="led-sym">' + (SYMBOL[l.name] || "") + "</span></span> ";
    li.append(document.createTextNode(l.meaning + (l.pattern !== "steady" ? " · " + l.pattern : "")));
    li.dataset.led = l.name;
    legend.append(li);
  }
}

function chipText(c) {
  return c.side + " chip " + c.label + (c.dama ? " dama" : "");
}

function chipEl(c, draggableFrom) {
  const el = document.createElement("span");
  el.className = "chip " + c.side + (c.dama ? " dama" : "");
  el.dataset.label = c.label;
  el.dataset.side = c.side;
  el.dataset.dama = c.dama ? "1" : "0";
  el.innerHTML = (c.dama ? '<span class="crown" aria-hidden="true">♛</span>' : "") +
    '<span class="val"></span>';
  el.querySelector(".val").textContent = c.label;
  if (draggableFrom) {
    el.draggable = true;
    el.addEventListener("dragstart", (e) => e.dataTransfer.setData("text/plain", draggableFrom.join(",")));
  }
  return el;
}

function render(s) {
  const first = state === null;
  state = s;
  document.title = "Damath board " + s.board;
  $("board-name").textContent = "· board " + s.board;
  if (first) {
    $("variant").value = s.variant;
    $("profile").value = s.profile;
  }
  document.body.dataset.phase = s.phase;
  document.body.dataset.paused = s.paused ? "1" : "0";
  document.body.dataset.toMove = s.to_move;
  document.body.dataset.ply = s.ply;
  for (const cell of s.squares) {
    const [x, y] = cell.square;
    const el = cells.get(x + "," + y);
    el.querySelector(".op").textContent = cell.operator;
    const slot = el.querySelector(".chip-slot");
    slot.textContent = "";
    if (cell.chip) slot.append(chipEl(cell.chip, [x, y]));
    const led = el.querySelector(".led");
    const sym = el.querySelector(".led-sym");
    let label = "(" + x + ", " + y + ") " + cell.operator + " square";
    label += cell.chip ? ", " + chipText(cell.chip) : ", empty";
    if (cell.led) {
      led.style.setProperty("--led", "rgb(" + cell.led.rgb.join(",") + ")");
      led.className = "led on pat-" + cell.led.pattern;
      led.style.setProperty("--level", Math.max(0.35, cell.led.brightness || 1));
      sym.textContent = SYMBOL[cell.led.name] || "";
      el.dataset.led = cell.led.name;
      el.dataset.rgb = cell.led.rgb.join(",");
      label += ", LED " + cell.led.name.replace(/_/g, " ");
    } else {
      led.className = "led";
      led.style.removeProperty("--led");
      sym.textContent = "";
      delete el.dataset.led;
      delete el.dataset.rgb;
    }
    el.setAttribute("aria-label", label);
  }
  // clocks
  $("clock-game").textContent = s.clocks.game;
  $("clock-move").textContent = s.clocks.move;
  $("clock-move").classList.toggle("warn", !!s.clocks.warned);
  $("clocks").classList.toggle("colon-off", !s.clocks.colon);
  let phaseText = { setup: "Setting up", play: "", restore: "Set the board back", over: "Game over" }[s.phase];
  if (phaseText === undefined) phaseText = s.phase;
  if (s.paused) phaseText = "Paused";
  $("turn").textContent = (phaseText ? phaseText + " · " : "") +
    (s.phase === "over" ? (s.ending || "") : (s.to_move === "blue" ? "Blue" : "Red") + " to move");
  $("turn").className = "turn " + s.to_move;
  $("btn-pause").textContent = s.paused ? "Resume" : "Pause";
  renderMenu(s.menu);
  renderOled(s);
  // hand and trays
  const hand = $("hand");
  hand.textContent = "";
  if (s.hand) hand.append(chipEl(s.hand, null), document.createTextNode(" " + chipText(s.hand)));
  else hand.textContent = "nothing";
  $("put-aside").disabled = !s.hand;
  $("turn-over").disabled = !s.hand;
  for (const side of ["blue", "red"]) {
    const tray = $("tray-" + side);
    tray.textContent = "";
    for (const c of s.trays[side]) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tray-chip";
      b.setAttribute("aria-label", "pick up the " + chipText(c) + " to put it back");
      b.append(chipEl(c, null));
      b.addEventListener("click", () => send({ type: "from_tray", chip: c.id }));
      tray.append(b);
    }
  }
  $("crown-call").hidden = !s.crown;
  if (s.crown) $("crown-square").textContent = "Crown the new dama on (" + s.crown.join(", ") + ")";
  // messages
  const ol = $("messages"); // newest first
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
    li.textContent = "earlier: " + m;
    ol.append(li);
  }
  renderSheet(s.sheet, s.phase === "over");
  if (s.notice && first) say(s.notice, false);
  playCues(s.cues);
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

let oledText = null;
function renderOled(s) {
  const text = (s.scoresheet || []).join("\n");
  $("oled-text").textContent = text;
  if (text !== oledText) {
    oledText = text;
    $("oled").src = "/board/" + encodeURIComponent(boardId) + "/oled.png?v=" + s.version;
  }
}

function renderSheet(sheet, over) {
  const body = $("sheet").querySelector("tbody");
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
      if (i === 1) move.className = "sep";
      if (c) {
        move.textContent = c.move;
        if (c.square) {
          const at = document.createElement("span");
          at.className = "at";
          at.textContent = " at " + c.square;
          move.append(at);
        }
      }
      const score = document.createElement("td");
      score.textContent = c ? c.score : "";
      const total = document.createElement("td");
      total.textContent = c ? c.total : "";
      tr.append(move, score, total);
      if (c) tr.dataset.kind = c.kind;
    });
    body.append(tr);
  }
  $("total-blue").textContent = "Blue total: " + sheet.totals.blue;
  $("total-red").textContent = "Red total: " + sheet.totals.red;
  $("result").textContent = [sheet.result || ""].concat(sheet.ending || []).join(" ");
}

// ------------------------------------------------------------------ the buzzer

function playCues(cues) {
  const seqs = cues.map((c) => c.seq);
  const newest = seqs.length ? Math.max(...seqs) : 0;
  if (lastCue === null || newest < lastCue) { lastCue = newest; return; }
  for (const cue of cues) {
    if (cue.seq <= lastCue) continue;
    const b = $("buzzer");
    b.textContent = "♪ " + cue.name.replace(/_/g, " ");
    b.dataset.cue = cue.name;
    b.dataset.seq = cue.seq;
    if ($("sound").checked) beep(cue.name);
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

// ------------------------------------------------------------------ wiring

function wire() {
  for (const b of document.querySelectorAll("[data-button]")) {
    b.addEventListener("click", () =>
      send({ type: "button", name: b.dataset.button, hold: b.dataset.hold === "1" }));
  }
  $("game-form").addEventListener("submit", (e) => {
    e.preventDefault();
    send({ type: "new_game", variant: $("variant").value, profile: $("profile").value });
  });
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
    say(file.name + " is not a JSON position: " + err.message, true);
    return;
  }
  send({ type: "new_game", variant: $("variant").value, profile: $("profile").value, position });
}

buildBoard();
wire();
connect();
