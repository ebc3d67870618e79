// The index page: open a board by name, and the list of boards (no inline script: the CSP).
"use strict";
document.getElementById("open-board").addEventListener("submit", (e) => {
  e.preventDefault();
  const id = document.getElementById("board-id").value.trim();
  location.href = "/board/" + encodeURIComponent(id);
});
fetch("/api/boards").then((r) => r.json()).then((data) => {
  const ul = document.getElementById("boards");
  if (!data.boards.length) return;
  ul.textContent = "";
  for (const id of data.boards) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "/board/" + encodeURIComponent(id);
    a.textContent = "Board " + id;
    li.append(a);
    ul.append(li);
  }
});
