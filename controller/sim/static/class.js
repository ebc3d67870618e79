// The class overview: every board's game at a glance, read from /api/class once a second.
"use strict";

const T = {
  connected: N_("live"),
  lost: N_("no answer from the simulator: retrying…"),
  none: N_("No board is open yet. Open one from the start page: one board per pair of players."),
  practice: N_("practice"),
  toMove: N_("{side} to move"),
  setup: N_("setting up"),
  restore: N_("setting the board back"),
  paused: N_("paused"),
  over: N_("Game over: {result}"),
  moves: N_("{moves} moves"),
  move: N_("{moves} move"),
  blue: N_("Blue"),
  red: N_("Red"),
  open: N_("Open the board"),
  projector: N_("Projector view"),
  kept: N_("Saved games"),
  keptNone: N_("none yet"),
  keptLine: N_("{when}: {players}, {moves} moves. {result}"),
  keptLineOne: N_("{when}: {players}, {moves} move. {result}"),
  sheet: N_("scoresheet"),
  pdn: N_("PDN"),
  csv: N_("CSV"),
  noRoster: N_("No class list: put the names in players.txt in the simulator's state folder, one a line."),
  roster: N_("{count} names: {names}"),
  players: N_("{blue} v {red}"),
  badge: N_("{variant} · {rules} rules"),
  badgePractice: N_("{variant} · {rules} rules · practice"),
};
const RULES_WORDS = { official: N_("official"), online: N_("online") };
for (const key of Object.keys(T)) T[key] = t(T[key]); // the page's language (i18n.js)
const fmt = (key, v) => T[key].replace(/\{(\w+)\}/g, (m, k) => (v && k in v ? v[k] : m));
const $ = (id) => document.getElementById(id);
const minus = (s) => String(s).replace(/-/g, "−");
const capital = (word) => (word ? word.charAt(0).toUpperCase() + word.slice(1) : "");
const cards = new Map();

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function card(id) {
  if (cards.has(id)) return cards.get(id);
  const c = el("article", "card");
  c.dataset.board = id;
  const h = el("h2");
  const name = el("a", "name", t(N_("Board {id}"), { id: id }));
  name.href = "/board/" + encodeURIComponent(id);
  h.append(name, el("span", "badge"));
  const players = el("div", "players");
  players.append(el("span", "blue"), el("span", "score blue-score"), el("span", "red"), el("span", "score red-score"));
  const actions = el("div", "actions");
  const open = el("a", "", T.open);
  open.href = "/board/" + encodeURIComponent(id);
  const proj = el("a", "", T.projector);
  proj.href = "/board/" + encodeURIComponent(id) + "/projector";
  proj.target = "_blank";
  actions.append(open, proj);
  const details = el("details", "kept");
  details.append(el("summary", "", T.kept), el("ul"));
  details.addEventListener("toggle", () => { if (details.open) loadKept(id, details.querySelector("ul")); });
  c.append(h, players, el("div", "state"), el("div", "clocks"), el("div", "said"), actions, details);
  cards.set(id, c);
  $("boards").append(c);
  return c;
}

function show(b) {
  const c = card(b.board);
  const rules = RULES_WORDS[b.rules] ? t(RULES_WORDS[b.rules]) : b.rules;
  const damath = b.rules in RULES_WORDS; // the other games have no variants or rule profiles
  c.querySelector(".badge").textContent = damath
    ? fmt(b.practice ? "badgePractice" : "badge", { variant: capital(b.variant), rules: rules }) : b.title;
  const blue = c.querySelector(".blue");
  const red = c.querySelector(".red");
  blue.textContent = b.blue || T.blue;
  red.textContent = b.red || T.red;
  c.querySelector(".blue-score").textContent = minus(b.totals.blue);
  c.querySelector(".red-score").textContent = minus(b.totals.red);
  blue.classList.toggle("to-move", !b.over && b.to_move === "blue");
  red.classList.toggle("to-move", !b.over && b.to_move === "red");
  let state;
  if (b.over) state = fmt("over", { result: b.result });
  else if (b.paused) state = T.paused;
  else if (b.phase === "setup") state = T.setup;
  else if (b.phase === "restore") state = T.restore;
  else state = fmt("toMove", { side: b.to_move === "blue" ? (b.blue || T.blue) : (b.red || T.red) });
  c.querySelector(".state").textContent = state + " · " + fmt(b.ply === 1 ? "move" : "moves", { moves: b.ply });
  c.querySelector(".clocks").textContent = b.clocks.game + "  " + b.clocks.move;
  c.querySelector(".said").textContent = b.message || "";
  c.classList.toggle("over", b.over);
  c.dataset.over = b.over ? "1" : "0";
  c.dataset.toMove = b.to_move;
  c.dataset.ply = b.ply;
}

async function loadKept(id, ul) {
  const data = await (await fetch("/board/" + encodeURIComponent(id) + "/games.json", { cache: "no-store" })).json();
  ul.textContent = "";
  if (!data.games.length) { ul.append(el("li", "", T.keptNone)); return; }
  const base = "/board/" + encodeURIComponent(id) + "/games/";
  for (const g of data.games) {
    const li = el("li");
    const files = g.current ? "/board/" + encodeURIComponent(id) + "/" : base + encodeURIComponent(g.name) + "/";
    const players = fmt("players", { blue: g.blue || T.blue, red: g.red || T.red });
    li.append(document.createTextNode(fmt(g.moves === 1 ? "keptLineOne" : "keptLine", {
      when: new Date(g.saved * 1000).toLocaleString(), players: players, moves: g.moves, result: minus(g.result),
    }) + " "));
    for (const [file, label] of [["scoresheet.html", T.sheet], ["game.pdn", T.pdn], ["scoresheet.csv", T.csv]]) {
      const a = el("a", "", label);
      a.href = files + file; // the game that ended on the board: the board's own downloads
      if (file.endsWith(".html")) a.target = "_blank";
      li.append(a, document.createTextNode(" "));
    }
    ul.append(li);
  }
}

async function refresh() {
  let data;
  try {
    data = await (await fetch("/api/class", { cache: "no-store" })).json();
    $("link").textContent = T.connected;
    $("link").className = "link ok";
  } catch (err) {
    $("link").textContent = T.lost;
    $("link").className = "link bad";
    return;
  }
  const seen = new Set();
  for (const b of data.boards) { show(b); seen.add(b.board); }
  for (const [id, c] of cards) if (!seen.has(id)) { c.remove(); cards.delete(id); }
  let empty = document.querySelector("#boards > .empty");
  if (!data.boards.length && !empty) { empty = el("p", "empty", T.none); $("boards").append(empty); }
  if (data.boards.length && empty) empty.remove();
  $("kept-boards").hidden = !data.kept.length;
  const list = $("kept-list");
  if (list.dataset.ids === data.kept.join(",")) return setRoster(data.roster);
  list.dataset.ids = data.kept.join(",");
  list.textContent = "";
  for (const id of data.kept) {
    const li = el("li");
    const a = el("a", "", t(N_("Board {id}"), { id: id }));
    a.href = "/board/" + encodeURIComponent(id);
    const details = el("details");
    details.append(el("summary", "", T.kept), el("ul"));
    details.addEventListener("toggle", () => { if (details.open) loadKept(id, details.querySelector("ul")); });
    li.append(a, details);
    list.append(li);
  }
  setRoster(data.roster);
}

function setRoster(roster) {
  $("roster-text").textContent = roster.length
    ? fmt("roster", { count: roster.length, names: roster.join(", ") }) : T.noRoster;
}

refresh();
setInterval(refresh, 1000);
