// Every word a page shows, for tests/sim/test_browser_fil_words.py: its title, its text as
// shown, every title/aria-label/placeholder/alt, every option of every menu and each open
// dialog; as [where, text] pairs. The language menu is left out: it names each language in
// that language, by design; so are the game records shown as they are written in their files
// (PDN: its tags are the format's own words, for programs).
() => {
  const asIs = [...document.querySelectorAll("label.language, #dam-record, #dadama-record")];
  for (const el of asIs) el.hidden = true;
  const out = [["title", document.title], ["text", document.body.innerText]];
  for (const el of document.querySelectorAll("body *")) {
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const value = el.getAttribute(name);
      if (value) out.push([name + " of " + el.tagName.toLowerCase() + (el.id ? "#" + el.id : ""), value]);
    }
  }
  for (const o of document.querySelectorAll("option")) {
    if (!o.closest("label.language")) out.push(["option of #" + (o.parentElement.id || "?"), o.textContent]);
  }
  for (const d of document.querySelectorAll("dialog[open]")) out.push(["dialog #" + d.id, d.innerText]);
  for (const el of asIs) el.hidden = false;
  return out;
}
