// In a page: the elements whose box leaves the viewport sideways, and the key cells (table
// cells, headings, buttons, names, totals, pills, clocks) whose text is wider than their box.
(() => {
  const vw = document.documentElement.clientWidth;
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "") +
    " «" + (el.textContent || "").trim().slice(0, 30) + "»";
  const wide = [], clipped = [];
  // what a closed <details> holds is not shown (Chromium still lays it out): only its summary
  const hidden = (el) => { const d = el.closest("details:not([open])");
    return d && d !== el && !el.closest("summary"); };
  for (const el of document.querySelectorAll("body *")) {
    if (hidden(el)) continue;
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (r.right > vw + 1 || r.left < -1) wide.push(name(el) + " " + Math.round(r.left) + ".." + Math.round(r.right));
  }
  const key = "td, th, h1, h2, h3, button, summary, label, .name, .total, .title, .pill, .st, .clocks b, .player";
  for (const el of document.querySelectorAll(key)) {
    if (hidden(el)) continue;
    const st = getComputedStyle(el);
    if (st.display === "none" || st.display === "inline") continue;
    if (el.scrollWidth > el.clientWidth + 1) clipped.push(name(el) + " " + el.scrollWidth + ">" + el.clientWidth);
  }
  return {vw, doc: document.documentElement.scrollWidth, wide: wide.slice(0, 12), clipped: clipped.slice(0, 12)};
})
