// Mathematical Chess on the simulated board (controller/sim/tables.py, PointsTable): the points
// as buttons, the names a piece just put down may have, the player's button, the score, the
// conditions, the removals possible now and the scoresheet. sim.js hands every state whose
// renderer is "mathchess" to MathChess.render; nothing is decided here.
"use strict";

const MC = {
  white: N_("White"), black: N_("Black"),
  prepare: N_("Prepare now!"), play: N_("Play now!"), over: N_("The game is over"),
  toPlay: N_("{side} to play"),
  lifted: N_("lifted"), removed: N_("lifted: removed"), refused: N_("refused"),
  moved: N_("moved here"), naming: N_("to be named"), stray: N_("put it back"),
  nameIt: N_("Name it {piece}"),
  score: N_("White {white} · Black {black}"),
  began: N_("The position began at {white}–{black}: pieces missing from a box count as taken."),
  level: N_("Level {level}"),
  conditions: N_("digits {digits}; operators {ops}; compared by {compare}"),
  done: N_("End my turn"),
  hint: N_("Click a piece to lift it, click an empty point to put it down. Lift each piece you remove, then end your turn with the button."),
  scoreTitle: N_("Score"), conditionsTitle: N_("Conditions"), removalsTitle: N_("Removals now"),
  sheetTitle: N_("Scoresheet"), record: N_("The game's record"), sheetText: N_("The scoresheet as text"),
  boardLabel: N_("Mathematical Chess board, White at the bottom"), namesLabel: N_("Name the piece"),
  whiteLetter: N_("W"), blackLetter: N_("B"),
  "last-digit": N_("last digit"), "digit-sum": N_("sum of the digits"),
};

function mcEl(tag, cls, content) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (content !== undefined) e.textContent = content;
  return e;
}

function mcPiece(p, mark) {
  const shown = p ? p.symbol : (mark === "naming" ? "?" : "!");
  const e = mcEl("span", "mc-piece " + (p ? p.side + (p.digit ? " digit" : " op") : ""), shown);
  if (p) e.appendChild(mcEl("span", "side", t(p.side === "white" ? MC.whiteLetter : MC.blackLetter)));
  return e;
}

const MathChess = {
  area: null,

  build() {
    const area = mcEl("section", "mc-area mc-layout");
    area.innerHTML =
      '<div class="mc-board-area"><div id="mc-turn" class="mc-turn" role="status"></div>' +
      '<div id="mc-says" class="mc-says" role="alert" aria-live="assertive"></div>' +
      '<div id="mc-board" class="mc-board" role="grid"></div>' +
      '<div id="mc-names" class="mc-names"></div>' +
      '<button type="button" id="mc-done" class="mc-done"></button>' +
      '<p class="mc-hint" id="mc-hint"></p></div>' +
      '<aside class="mc-side"><h2 id="mc-score-title"></h2><p id="mc-score" class="mc-score"></p>' +
      '<p id="mc-began" class="mc-began"></p><h2 id="mc-conditions-title"></h2><p id="mc-conditions"></p>' +
      '<h2 id="mc-removals-title"></h2><ul id="mc-options" class="mc-options"></ul>' +
      '<h2 id="mc-sheet-title"></h2><ol id="mc-sheet" class="mc-sheet"></ol>' +
      '<p><a id="mc-record" href="#"></a> · <a id="mc-sheet-text" href="#"></a></p></aside>';
    if (VIEW === "projector") document.querySelector("main.layout").append(area); // its own layout
    else $("board").after(area);
    this.area = area;
    const words = { "mc-done": MC.done, "mc-hint": MC.hint, "mc-score-title": MC.scoreTitle,
      "mc-conditions-title": MC.conditionsTitle, "mc-removals-title": MC.removalsTitle,
      "mc-sheet-title": MC.sheetTitle, "mc-record": MC.record, "mc-sheet-text": MC.sheetText };
    for (const [id, word] of Object.entries(words)) $(id).textContent = t(word);
    $("mc-board").setAttribute("aria-label", t(MC.boardLabel));
    $("mc-names").setAttribute("aria-label", t(MC.namesLabel));
    const base = "/board/" + encodeURIComponent(boardId) + "/";
    $("mc-record").href = base + "record.json";
    $("mc-sheet-text").href = base + "scoresheet.txt";
    $("mc-done").addEventListener("click", () => send({ type: "done" }));
  },

  say(text, cls) {
    const says = $("mc-says");
    says.textContent = text || "";
    says.className = "mc-says" + (text && cls ? " " + cls : "");
  },

  render(s) {
    if (!this.area) this.build();
    state = s;
    document.body.dataset.renders = String(Number(document.body.dataset.renders || "0") + 1);
    document.body.dataset.game = "mathchess";
    document.body.dataset.renderer = "mathchess";
    document.body.dataset.phase = s.phase;
    document.body.dataset.toMove = s.to_move;
    document.body.dataset.turns = String(s.sheet.turns.length);
    document.title = fmt("title", { id: s.board });
    text("board-name", fmt("boardName", { id: s.board }));
    text("game-badge", s.title);
    $("mc-turn").textContent = s.phase === "over" ? t(MC.over)
      : t(MC[s.phase]) + " · " + t(MC.toPlay, { side: t(MC[s.to_move]) });
    if (s.ending) this.say(s.ending, "over");
    else if (s.said) {
      const rule = s.said.rule && !s.said.text.includes(s.said.rule) ? s.said.rule + ": " : "";
      this.say(rule + s.said.text, "problem");
    } else if (s.problem) this.say(s.problem, s.names.length ? "ask" : "problem");
    else this.say("");
    const board = $("mc-board");
    board.replaceChildren();
    for (let y = s.size - 1; y >= 0; y--) {
      board.appendChild(mcEl("span", "mc-axis", String(y)));
      for (let x = 0; x < s.size; x++) {
        const pt = s.points[y * s.size + x];
        const b = mcEl("button", "mc-point x" + x + " y" + y);
        b.type = "button";
        b.dataset.x = x; b.dataset.y = y;
        if (pt.state) b.classList.add(pt.state);
        if (pt.lit) b.classList.add("lit");
        let label = "(" + x + "," + y + ")";
        if (pt.piece) label += " " + pt.piece.name;
        if (pt.state) label += ", " + t(MC[pt.state]);
        if (pt.piece || pt.state === "naming" || pt.state === "stray") b.appendChild(mcPiece(pt.piece, pt.state));
        const rule = pt.rule || pt.lit;
        if (rule) { b.appendChild(mcEl("span", "badge", rule)); label += ", " + rule; }
        b.setAttribute("aria-label", label);
        b.addEventListener("click", () => send({ type: "click", point: [x, y] }));
        board.appendChild(b);
      }
    }
    board.appendChild(mcEl("span", "mc-axis", ""));
    for (let x = 0; x < s.size; x++) board.appendChild(mcEl("span", "mc-axis", String(x)));
    const names = $("mc-names");
    names.replaceChildren();
    for (const n of s.names) {
      const b = mcEl("button", "mc-name", n);
      b.type = "button";
      b.setAttribute("aria-label", t(MC.nameIt, { piece: n }));
      b.addEventListener("click", () => send({ type: "name", piece: n }));
      names.appendChild(b);
    }
    $("mc-done").hidden = s.phase !== "play";
    $("mc-score").textContent = t(MC.score, { white: s.sheet.score[0], black: s.sheet.score[1] });
    const began = s.sheet.start_score;
    $("mc-began").textContent = began[0] || began[1] ? t(MC.began, { white: began[0], black: began[1] }) : "";
    const c = s.conditions;
    const ops = Object.entries(c.operators).map(([o, n]) => n + " " + o).join(", ");
    $("mc-conditions").textContent = (s.level ? t(MC.level, { level: s.level }) + " · " : "") +
      t(MC.conditions, { digits: c.digits.join(" "), ops: ops, compare: MC[c.compare] ? t(MC[c.compare]) : c.compare });
    const options = $("mc-options");
    options.replaceChildren();
    for (const o of s.options) options.appendChild(mcEl("li", "", o.rule + ": " + o.text + " → " + o.removable.join(" ")));
    const sheet = $("mc-sheet");
    sheet.replaceChildren();
    for (const turn of s.sheet.turns) {
      const li = mcEl("li", "", t(MC[turn.side]) + ": " + turn.text + (turn.score ? " (+" + turn.score + ")" : ""));
      for (const r of turn.removals) {
        li.appendChild(mcEl("span", "arith", r.rule + " " + r.pieces.join(" ") + " +" + r.score +
          (r.arithmetic.length ? ": " + r.arithmetic.join("; ") : "")));
      }
      sheet.appendChild(li);
    }
    renderOled(s);
    if (s.notice) say(s.notice, false);
  },
};
