// What tests/sim/test_browser_layout.py checks on a page, from the elements' own boxes: the
// page does not scroll sideways, no element sticks out of the screen (what a scroll box holds
// scrolls inside it), and what must show whole (``whole``: [selector, one line?]) is not cut,
// nor wrapped when it must stay on one line. Returns the problems found, one sentence each.
(whole) => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) {
    out.push("the page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
  }
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "");
  const scrolls = (el) => {  // a box that scrolls what it holds (or clips it on purpose)
    const s = getComputedStyle(el);
    return ["auto", "scroll", "hidden", "clip"].includes(s.overflowX) && el !== document.body &&
      el !== document.documentElement;
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  for (const el of document.querySelectorAll("body *")) {
    if (!shown(el) || el.closest(".visually-hidden")) continue;
    let inside = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (scrolls(p)) inside = true;
    if (inside) continue;
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 || r.left < -1) {
      out.push(name(el) + " sticks out of the screen: " + Math.round(r.left) + "…" + Math.round(r.right) + " of " + width);
    }
  }
  for (const [selector, oneLine] of whole) {
    for (const el of document.querySelectorAll(selector)) {
      if (!shown(el) || !el.textContent.trim()) continue;
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
        out.push(name(el) + " is cut: " + JSON.stringify(el.textContent.trim()));
      }
      const r = el.getBoundingClientRect();
      if (r.right > width + 1 || r.left < -1) out.push(name(el) + " is off the screen");
      if (oneLine) {
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
        if (tops.size > 1) out.push(name(el) + " wraps: " + JSON.stringify(el.textContent.trim()));
      }
    }
  }
  return out;
}
