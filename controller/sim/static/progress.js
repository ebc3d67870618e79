// The teacher's progress pages: the class (/class/progress) and one child (?child=NAME), with
// Chart.js (vendored, /static/vendor/chartjs/) for the charts; the child's page prints as the
// parents' one-page A4 report. Every figure comes from /api/progress* (the teacher's, PIN).
"use strict";

const T = {
  noGames: N_("no games yet"),
  none: N_("No child on the class list yet: add the names below."),
  notOnList: N_("(not on the class list)"),
  read: N_("{games} games read from the boards; {children} children."),
  readOne: N_("One game read from the boards; {children} children."),
  indexing: N_("Reviewing the newest games: the figures will grow in a moment."),
  rename: N_("Rename"),
  remove: N_("Remove"),
  renameTo: N_("New name for {name}:"),
  removeAsk: N_("Remove {name} from the class list? The figures stay until deleted on the child's page."),
  deleteAsk: N_("Delete all of {name}'s data: the figures of every game, the puzzle attempts, and the name on the class list? This cannot be undone."),
  deleted: N_("{name}'s data was deleted."),
  games: N_("Games"),
  results: N_("Won, drawn, lost"),
  best: N_("Best moves"),
  bestCell: N_("{best} of {n} ({percent} %)"),
  bestGame: N_("{best} of {n}"),
  puzzles: N_("Puzzles solved"),
  rating: N_("Puzzle rating"),
  trend: N_("Trend"),
  variants: N_("Variants played"),
  period: N_("From {first} to {last}: {games} games."),
  periodOne: N_("From {first} to {last}: one game."),
  noPuzzles: N_("no puzzles yet"),
  win: N_("won"),
  loss: N_("lost"),
  draw: N_("draw"),
  weekAccuracy: N_("best moves (%)"),
  puzzleRating: N_("puzzle rating"),
  opAccuracy: N_("best takings (%)"),
  path: N_("Kept in {path}"),
  up: N_("▲ {n} points"),
  down: N_("▼ {n} points"),
  flat: N_("steady"),
  notYet: N_("not yet"),
};
const OPS = { "+": N_("addition"), "−": N_("subtraction"), "×": N_("multiplication"), "÷": N_("division") };
const SIGN = { "+": "+", "−": "−", "×": "×", "÷": "÷" };
for (const key of Object.keys(T)) T[key] = t(T[key]);
const fmt = (key, v) => T[key].replace(/\{(\w+)\}/g, (m, k) => (v && k in v ? v[k] : m));
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const child = params.get("child");
const charts = [];

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
const pct = (v) => (v === null || v === undefined ? "—" : String(v).replace(".0", "") + " %");
const num = (v) => (v === null || v === undefined ? "—" : String(v).replace(/-/g, "−"));
// The review's own figure: best moves of the moves with a choice (a forced move is no choice).
const bestText = (best, n) => (n ? fmt("bestCell", { best: best, n: n, percent: pct(Math.round((1000 * best) / n) / 10).replace(" %", "") }) : "—");
// A date as the page's language writes it (the period and the weeks: dates, not ISO weeks).
const LOCALE = I18N.lang === "fil" ? "fil-PH" : "en-GB";
const day = (iso, year) => (iso ? new Date(iso + "T12:00:00Z").toLocaleDateString(LOCALE,
  Object.assign({ day: "numeric", month: "short", timeZone: "UTC" }, year ? { year: "numeric" } : {})) : "");
function trendText(v) {
  if (v === null || v === undefined) return T.notYet;
  if (Math.abs(v) < 0.5) return T.flat;
  return fmt(v > 0 ? "up" : "down", { n: String(Math.abs(v)) });
}

async function api(url, options) {
  const response = await fetch(url, Object.assign({ credentials: "same-origin" }, options || {}));
  let body = {};
  try { body = await response.json(); } catch (e) { body = {}; }
  if (response.status === 403 && body.need) {
    $("unlock").hidden = false;
    $("class-view").hidden = true;
    $("child-view").hidden = true;
    throw new Error("locked");
  }
  if (!response.ok) throw new Error(body.error || String(response.status));
  return body;
}

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

// ------------------------------------------------------------------ the class

function classRow(c) {
  const tr = el("tr");
  tr.dataset.child = c.name;
  const name = el("th");
  name.scope = "row";
  const a = el("a", "", c.name);
  a.href = "/class/progress?child=" + encodeURIComponent(c.name);
  name.append(a);
  if (!c.on_roster) name.append(" ", el("span", "note", T.notOnList));
  tr.append(name, el("td", "num games", String(c.games)));
  for (const op of ["+", "−", "×", "÷"]) tr.append(el("td", "num op", pct(c.operations[op].percent)));
  tr.append(el("td", "num best", bestText(c.best_moves, c.choices)));
  tr.append(el("td", "num solved", String(c.puzzles_solved)));
  tr.append(el("td", "num rating", num(c.puzzle_rating)));
  const trend = el("td", "trend", trendText(c.trend));
  if (c.trend > 0.5) trend.classList.add("up");
  if (c.trend < -0.5) trend.classList.add("down");
  tr.append(trend);
  return tr;
}

function rosterItem(c) {
  const li = el("li");
  li.append(el("span", "who", c.name));
  const rename = el("button", "small", T.rename);
  rename.type = "button";
  rename.addEventListener("click", () => {
    const to = window.prompt(fmt("renameTo", { name: c.name }), c.name);
    if (to && to !== c.name) roster({ action: "rename", name: c.name, new: to });
  });
  const remove = el("button", "small", T.remove);
  remove.type = "button";
  remove.addEventListener("click", () => {
    if (window.confirm(fmt("removeAsk", { name: c.name }))) roster({ action: "remove", name: c.name });
  });
  li.append(" ", rename, " ", remove);
  return li;
}

async function roster(body) {
  $("roster-error").textContent = "";
  try {
    await api("/api/roster", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    await loadClass();
  } catch (e) {
    if (e.message !== "locked") $("roster-error").textContent = e.message;
  }
}

async function loadClass() {
  const data = await api("/api/progress");
  problem(data.problem);
  $("unlock").hidden = true;
  $("class-view").hidden = false;
  $("puzzle-code").textContent = data.puzzle_code || "";
  const body = document.querySelector("#class-table tbody");
  body.replaceChildren(...data.children.map(classRow));
  const games = Object.values(data.games_read || {}).reduce((a, b) => a + b, 0);
  $("class-note").textContent = data.children.length
    ? fmt((data.games_read || {}).indexed === 1 ? "readOne" : "read", { games: (data.games_read || {}).indexed || 0, children: data.children.length }) + (data.indexing ? " " + T.indexing : "")
    : T.none;
  $("class-note").dataset.files = String(games);
  $("roster-list").replaceChildren(...data.children.filter((c) => c.on_roster).map(rosterItem));
  $("store-path").textContent = fmt("path", { path: data.store });
}

// ------------------------------------------------------------------ one child

function figure(list, label, value, cls) {
  const dt = el("dt", "", label);
  const dd = el("dd", cls, value);
  list.append(dt, dd);
}

function chart(id, config) {
  const canvas = $(id);
  const old = Chart.getChart(canvas);
  if (old) old.destroy();
  config.options = Object.assign({ animation: false, responsive: true, maintainAspectRatio: false }, config.options || {});
  charts.push(new Chart(canvas, config));
}

function drawCharts(data) {
  const ops = ["+", "−", "×", "÷"];
  chart("chart-operations", {
    type: "bar",
    data: {
      labels: ops.map((op) => SIGN[op] + " " + t(OPS[op])),
      datasets: [{ label: T.opAccuracy, data: ops.map((op) => data.operations[op].percent),
        backgroundColor: ["#0b57a4", "#b3261e", "#1d6b3a", "#8a5a00"] }],
    },
    options: { plugins: { legend: { display: false } }, scales: { y: { min: 0, max: 100, title: { display: true, text: T.opAccuracy } } } },
  });
  const weeks = data.weeks;
  chart("chart-weeks", {
    type: "line",
    data: {
      labels: weeks.map((w) => day(w.from)),
      datasets: [
        { label: T.weekAccuracy, data: weeks.map((w) => w.accuracy), borderColor: "#0b57a4", backgroundColor: "#0b57a4", yAxisID: "y", spanGaps: true },
      ],
    },
    options: { plugins: { legend: { display: false } },
      scales: { y: { min: 0, max: 100, position: "left", title: { display: true, text: T.weekAccuracy } } } },
  });
  const rated = weeks.filter((w) => w.puzzle_rating !== null);
  $("puzzle-figure").classList.toggle("empty-chart", !rated.length);
  chart("chart-puzzles", {
    type: "line",
    data: { labels: weeks.map((w) => day(w.from)),
      datasets: [{ label: T.puzzleRating, data: weeks.map((w) => w.puzzle_rating), borderColor: "#1d6b3a", backgroundColor: "#1d6b3a", spanGaps: true }] },
    options: { plugins: { legend: { display: false }, subtitle: { display: !rated.length, text: T.noPuzzles } },
      scales: { y: { title: { display: true, text: T.puzzleRating }, suggestedMin: 1000, suggestedMax: 2000 } } },
  });
}

async function loadChild() {
  const data = await api("/api/progress/child?name=" + encodeURIComponent(child));
  problem(data.problem);
  $("unlock").hidden = true;
  $("child-view").hidden = false;
  document.title = data.name + " · " + document.title;
  $("child-name").textContent = data.name;
  const first = day(data.first, true);
  const last = day(data.last, true);
  $("child-period").textContent = data.games ? fmt(data.games === 1 ? "periodOne" : "period", { first: first, last: last, games: data.games }) : T.noGames;
  const list = $("child-figures");
  list.replaceChildren();
  figure(list, T.games, String(data.games), "games");
  figure(list, T.results, data.wins + " · " + data.draws + " · " + data.losses, "results");
  figure(list, T.best, bestText(data.best_moves, data.choices), "best");
  figure(list, T.puzzles, data.puzzles_tried ? data.puzzles_solved + " / " + data.puzzles_tried : T.noPuzzles, "solved");
  figure(list, T.rating, num(data.puzzle_rating), "rating");
  figure(list, T.trend, trendText(data.trend), "trend");
  figure(list, T.variants, Object.entries(data.variants).map(([v, n]) => v + " " + n).join(", ") || "—", "variants");
  const ops = document.querySelector("#ops-table tbody");
  ops.replaceChildren(...["+", "−", "×", "÷"].map((op) => {
    const tr = el("tr");
    tr.dataset.op = op;
    const o = data.operations[op];
    tr.append(el("th", "", SIGN[op] + " " + t(OPS[op])), el("td", "num", String(o.takings)),
      el("td", "num", String(o.best)), el("td", "num percent", pct(o.percent)));
    return tr;
  }));
  const games = document.querySelector("#games-table tbody");
  games.replaceChildren(...data.recent.map((g) => {
    const tr = el("tr");
    tr.append(el("td", "", day(g.date, true)), el("td", "", g.variant), el("td", "", T[g.result] || g.result),
      el("td", "num", num(g.score) + " : " + num(g.opponent_score)),
      el("td", "num best", g.choices ? fmt("bestGame", { best: g.best_moves, n: g.choices }) : "—"));
    return tr;
  }));
  drawCharts(data);
  document.body.dataset.ready = "1";
}

async function load() {
  try {
    if (child) await loadChild();
    else await loadClass();
    document.body.dataset.ready = "1";
  } catch (e) {
    if (e.message !== "locked") problem(e.message);
  }
}

$("unlock").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("unlock-error").textContent = "";
  const response = await fetch("/api/unlock", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin: $("pin").value }) });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) { $("unlock-error").textContent = body.error || String(response.status); return; }
  $("pin").value = "";
  load();
});
$("add-form").addEventListener("submit", (event) => {
  event.preventDefault();
  roster({ action: "add", name: $("add-name").value });
  $("add-name").value = "";
});
$("print").addEventListener("click", () => window.print());
$("export").addEventListener("click", () => {
  location.href = "/api/progress/export?name=" + encodeURIComponent(child);
});
$("delete").addEventListener("click", async () => {
  if (!window.confirm(fmt("deleteAsk", { name: child }))) return;
  try {
    await api("/api/progress/delete", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: child, confirm: child }) });
    location.href = "/class/progress";
  } catch (e) {
    if (e.message !== "locked") $("child-error").textContent = e.message;
  }
});
// Printing: the report's layout first, then each chart redrawn at its printed size; back after.
function printLayout(on) {
  document.body.classList.toggle("print-layout", on);
  for (const c of charts) c.resize();
}
window.addEventListener("beforeprint", () => printLayout(true));
window.addEventListener("afterprint", () => printLayout(false));
$("to-class").hidden = !child;
load();
