// The turn page asks every 15 s whether the turn has been played (GET /api/battles/{id}/turns)
// and, when it has, shows a link to reload it; nothing typed is ever lost to a reload.
(() => {
  "use strict";
  document.addEventListener("DOMContentLoaded", () => {
    const watch = document.querySelector("[data-turn-poll]");
    if (!watch) return;
    const played = Number(watch.dataset.turnsPlayed);
    const timer = setInterval(async () => {
      try {
        const response = await fetch(watch.dataset.turnPoll, { headers: { Accept: "application/json" } });
        if (!response.ok) return;
        const body = await response.json();
        if (body.turns_played !== played || body.ended) {
          clearInterval(timer);
          watch.hidden = false;
        }
      } catch (error) {
        // Offline for a moment: ask again at the next tick.
      }
    }, 15000);
  });
})();
