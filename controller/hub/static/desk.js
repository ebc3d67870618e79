// The desk's live cells: every 5 s the round as the hub sees it; a changed state reloads the
// page unless the arbiter is typing in one of its forms.
(function () {
  const tbl = document.querySelector("table.round");
  if (!tbl) return;
  const q = new URLSearchParams({division: tbl.dataset.division, round: tbl.dataset.round});
  async function poll() {
    try {
      const r = await fetch("/desk/round.json?" + q, {credentials: "same-origin"});
      if (!r.ok) return;
      const data = await r.json();
      let changed = false;
      for (const t of data.tables) {
        const row = tbl.querySelector(`tr[data-pairing="${t.pairing}"]`);
        if (!row) { changed = true; continue; }
        const live = row.querySelector(".live");
        if (live && live.textContent !== t.live_text) live.textContent = t.live_text;
        const st = row.querySelector(".st");
        if (st && !st.classList.contains(t.status)) changed = true;
      }
      const busy = document.activeElement && document.activeElement.closest("form");
      const open = document.querySelector("details[open]");
      if (changed && !busy && !open) location.reload();
    } catch (e) { /* the hub is back at the next poll */ }
  }
  setInterval(poll, 5000);
})();
