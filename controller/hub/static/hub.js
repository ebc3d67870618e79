// Shared by the hub's pages: the live stream, the board picture, clocks and names.
"use strict";
const Hub = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  let offset = 0; // hub time - page time, seconds
  let operators = {};

  function el(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function facts() {
    return fetch("/api/facts").then((r) => r.json()).then((f) => {
      for (const o of f.operators) operators[o.square.join(",")] = o.op;
      return f;
    });
  }

  // The board seen from Blue's side: y = 7 at the top. The squares are drawn once per picture;
  // a move redraws only the chips and the last move's marks.
  function drawBoard(svg, summary, large) {
    if (summary && summary.picture) return drawGame(svg, summary);
    if (svg.dataset.kind && svg.dataset.kind !== "damath") svg.textContent = "";
    svg.dataset.kind = "damath";
    let layer = svg.querySelector("g.live");
    if (!layer) {
      svg.setAttribute("viewBox", "0 0 8 8");
      for (let y = 0; y < 8; y++) {
        for (let x = 0; x < 8; x++) {
          const dark = (x + y) % 2 === 1;
          svg.appendChild(el("rect", { x, y: 7 - y, width: 1, height: 1,
            fill: dark ? "var(--dark-sq)" : "var(--light-sq)" }));
          if (dark && large && operators[x + "," + y]) {
            svg.appendChild(el("text", { x: x + 0.08, y: 7 - y + 0.27, "font-size": 0.24,
              fill: "#9fb7dd" }, operators[x + "," + y]));
          }
        }
      }
      layer = el("g", { class: "live" });
      svg.appendChild(layer);
    }
    const key = JSON.stringify([summary && summary.position, summary && summary.last_move]);
    if (layer.dataset.key === key) return;
    layer.dataset.key = key;
    layer.textContent = "";
    for (const [x, y] of (summary && summary.last_move && summary.last_move.path) || []) {
      layer.appendChild(el("rect", { x: x + 0.04, y: 7 - y + 0.04, width: 0.92, height: 0.92,
        fill: "none", stroke: "var(--gold)", "stroke-width": 0.08 }));
    }
    const pieces = (summary && summary.position && summary.position.pieces) || [];
    for (const p of pieces) {
      const [x, y] = p.square, cx = x + 0.5, cy = 7 - y + 0.5;
      layer.appendChild(el("circle", { cx, cy, r: 0.4,
        fill: p.side === "blue" ? "var(--blue)" : "var(--red)",
        stroke: p.dama ? "var(--gold)" : "#0b1020", "stroke-width": p.dama ? 0.09 : 0.03 }));
      const v = String(p.value), size = v.length <= 3 ? 0.36 : Math.max(0.16, 1.1 / v.length);
      layer.appendChild(el("text", { x: cx, y: cy + size * 0.35, "font-size": size,
        "text-anchor": "middle", "font-weight": 700, fill: "#fff" }, v));
      if (p.dama) layer.appendChild(el("text", { x: cx, y: cy - 0.2, "font-size": 0.2,
        "text-anchor": "middle", fill: "var(--gold)" }, "♛"));
    }
    svg.setAttribute("aria-label", pieces.length + " chips on the board");
  }

  // Every other game as the board shows it (the hub's summary.picture): the dark squares of an
  // 8 × 8 or 12 × 12 board, or the points of a 9 × 9 grid; White and Black pieces, each with its
  // die's value or its digit or operator; a king or dadama ringed in gold; Dadama's last throw
  // framed on its die.
  function drawGame(svg, summary) {
    const b = summary.picture, n = b.size, points = b.grid === "points";
    const kind = b.grid + "-" + n;
    if (svg.dataset.kind !== kind) {
      svg.textContent = "";
      svg.dataset.kind = kind;
    }
    let layer = svg.querySelector("g.live");
    if (!layer) {
      svg.setAttribute("viewBox", "0 0 " + n + " " + n);
      if (points) {
        svg.appendChild(el("rect", { x: 0, y: 0, width: n, height: n, fill: "var(--light-sq)" }));
        for (let i = 0; i < n; i++) {
          const line = { stroke: "var(--dark-sq)", "stroke-width": 0.04 };
          svg.appendChild(el("line", { x1: 0.5, y1: i + 0.5, x2: n - 0.5, y2: i + 0.5, ...line }));
          svg.appendChild(el("line", { x1: i + 0.5, y1: 0.5, x2: i + 0.5, y2: n - 0.5, ...line }));
        }
      } else {
        for (let y = 0; y < n; y++) {
          for (let x = 0; x < n; x++) {
            svg.appendChild(el("rect", { x, y: n - 1 - y, width: 1, height: 1,
              fill: (x + y) % 2 === 1 ? "var(--dark-sq)" : "var(--light-sq)" }));
          }
        }
      }
      layer = el("g", { class: "live" });
      svg.appendChild(layer);
    }
    const thrown = summary.last_throw;
    const key = JSON.stringify([b.pieces, thrown]);
    if (layer.dataset.key === key) return;
    layer.dataset.key = key;
    layer.textContent = "";
    if (thrown) {
      const [x, y] = thrown.at;
      layer.appendChild(el("rect", { class: "thrown", x: x + 0.04, y: n - 1 - y + 0.04,
        width: 0.92, height: 0.92, fill: "none", stroke: "var(--gold)", "stroke-width": 0.08 }));
    }
    for (const p of b.pieces) {
      const [x, y] = p.at, cx = x + 0.5, cy = n - 1 - y + 0.5, light = p.side === b.colours[0]
        ? b.colours[0] === "white" : b.colours[1] === "white";
      layer.appendChild(el("circle", { class: "piece " + p.side, cx, cy, r: points ? 0.36 : 0.4,
        fill: light ? "#f3efe2" : "#22232b", stroke: p.king ? "var(--gold)" : "#0b1020",
        "stroke-width": p.king ? 0.09 : 0.03 }));
      const label = p.label || (p.king ? "♛" : "");
      if (label) {
        layer.appendChild(el("text", { x: cx, y: cy + 0.13, "font-size": 0.38,
          "text-anchor": "middle", "font-weight": 700, fill: light ? "#0b1020" : "#fff" }, label));
      }
    }
    let said = b.pieces.length + " pieces on the " + (points ? n + " × " + n + " points" :
      n + " × " + n + " board");
    if (thrown) said += "; last throw " + thrown.dice.join(" and ");
    svg.setAttribute("aria-label", said);
  }

  // Which player's place a side of the game is in: the first mover's colour in Blue's.
  function place(s, side) {
    if (!s || !s.picture) return side;
    return ["blue", "red"][s.picture.colours.indexOf(side)];
  }

  function setText(node, text) { if (node.textContent !== text) node.textContent = text; }

  function hubNow() { return Date.now() / 1000 + offset; }

  function mmss(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000 - 1e-6));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  // The clocks as they stand now: counted down from the last record while time runs.
  function clocks(card) {
    const s = card.summary;
    if (!s || !s.clocks) return null;
    const c = s.clocks;
    let spent = 0;
    if (c.running && card.online && card.as_of) spent = Math.max(0, (hubNow() - card.as_of) * 1000);
    return { game: c.game_left_ms - spent, move: c.move_left_ms - spent, running: c.running };
  }

  // The table the shown game was played for: an earlier one's (card.played) while the board
  // still shows that game, else the table it holds now.
  function tableOf(card) { return card.played || card.assignment || null; }

  function names(card) {
    const a = tableOf(card) || {};
    const n = (side, dflt) => (a[side] && a[side].name) || dflt;
    const s = card.summary, colours = s && s.picture ? s.picture.colours : null;
    const word = (c) => c.charAt(0).toUpperCase() + c.slice(1);
    if (colours) return { blue: n("blue", word(colours[0])), red: n("red", word(colours[1])) };
    return { blue: n("blue", "Blue"), red: n("red", "Red") };
  }

  function statusOf(card) {
    const s = card.summary;
    if (s && s.problem) return { pill: "problem", text: "PROBLEM", line: s.problem };
    if (!card.online) return { pill: "offline", text: "OFFLINE", line: s && s.result ? s.result.text : "" };
    if (!s) return { pill: "", text: "NO GAME", line: "" };
    if (s.phase === "over") {
      const r = s.result, rec = card.recorded;
      if (rec) {  // the tournament's result, not the board's: said with who and why
        const why = rec.reason ? " (" + rec.by + ": " + rec.reason + ")" : "";
        return { pill: "over", text: rec.result, line: "Recorded " + rec.text + why };
      }
      return { pill: "over", text: r ? r.result : "OVER", line: r ? r.text : "" };
    }
    if (s.paused) return { pill: "", text: "PAUSED", line: "Paused by the arbiter" };
    if (s.clocks && s.clocks.held && !s.ply) {
      return { pill: "", text: "WAITING", line: "Waiting for the round's start" };
    }
    if (s.phase === "setup") return { pill: "", text: "SETUP", line: "Setting up" };
    if (s.last_throw) {
      return { pill: "live", text: "LIVE", line: "Last throw " + s.last_throw.dice.join(" and ") };
    }
    return { pill: "live", text: "LIVE", line: s.last_move ? "Last move " + s.last_move.move : "" };
  }

  // The big numbers: the takings while a Damath game is played, its final scores (the grand
  // totals, the chips left counted: RULES.md) once it is over, the result's numbers.
  function scoresOf(s) {
    return s.phase === "over" && s.result && s.result.grand ? s.result.grand : s.totals;
  }

  // Fill a card (the wall's small one, or the large board page) from the hub's card data.
  function fill(root, c, large) {
    const s = c.summary, who = names(c), st = statusOf(c);
    const pill = root.querySelector(".pill");
    pill.className = "pill " + st.pill;
    pill.textContent = st.text;
    drawBoard(root.querySelector("svg.board"), s, large);
    for (const side of ["blue", "red"]) {
      const p = root.querySelector(".player." + side);
      const turn = s && s.phase === "play" && place(s, s.to_move) === side;
      p.classList.toggle("turn", !!turn);
      p.querySelector(".name").textContent = (turn ? "▶ " : "") + who[side];
      p.querySelector(".total").textContent = s ? scoresOf(s)[side] : "–";
    }
    const status = root.querySelector(".status");
    status.textContent = st.line;
    status.classList.toggle("problem", st.pill === "problem");
    root.dataset.ply = s ? s.ply : 0;
    root.dataset.seq = c.seq;
    return label(c);
  }

  // "Table 3 · " for the table the board holds; "Round 1 · Table 5 · " for a game of an
  // earlier table the board still shows (round 2 sent, round 1's game on it).
  function label(c) {
    const a = tableOf(c);
    if (!a || !a.table) return "";
    return (c.played ? "Round " + a.round + " · " : "") + "Table " + a.table + " · ";
  }

  // The clocks of a card, counted down while time runs.
  function tick(root, c) {
    const k = clocks(c);
    const m = root.querySelector(".move");
    setText(root.querySelector(".game"), k ? mmss(k.game) : "–");
    setText(m, k ? mmss(k.move) : "–");
    m.classList.toggle("low", !!k && k.move < 10000);
  }

  function stream(board, handlers) {
    const url = "/api/stream" + (board ? "?board=" + encodeURIComponent(board) : "");
    const es = new EventSource(url);
    es.addEventListener("hello", (e) => {
      const d = JSON.parse(e.data);
      offset = d.now - Date.now() / 1000;
      handlers.hello && handlers.hello(d.cards);
      handlers.connected && handlers.connected(true);
    });
    es.addEventListener("card", (e) => {
      const d = JSON.parse(e.data);
      offset = d.now - Date.now() / 1000;
      handlers.card && handlers.card(d.card);
    });
    es.addEventListener("detail", (e) => handlers.detail && handlers.detail(JSON.parse(e.data)));
    es.onerror = () => handlers.connected && handlers.connected(false);
    return es;
  }

  return { el, facts, drawBoard, clocks, mmss, names, statusOf, stream, hubNow, setText, fill, tick, label };
})();
