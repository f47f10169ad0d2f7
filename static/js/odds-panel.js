// Odds of one shot: one of our weapons, a target, the range read from
// the board (battle-board.js) or typed, screens; asks GET /api/rules/odds and lists the
// exact distribution. Plain JavaScript, no inline script; data from json_script.
(() => {
  "use strict";

  function percent(p) {
    return (100 * p).toFixed(2);
  }

  // The outcomes worth a row (shown as more than 0.00 %) and the rest, in their order.
  function splitOdds(distribution) {
    const shown = [];
    const folded = [];
    for (const point of distribution) (percent(point.p_float) === "0.00" ? folded : shown).push(point);
    return { shown, folded };
  }

  function setup(section) {
    const data = JSON.parse(document.getElementById(section.dataset.odds).textContent);
    const form = section.querySelector(".odds-form");
    const result = section.querySelector(".odds-result");
    const weapon = form.elements.weapon;
    const target = form.elements.target;
    const range = form.elements.range;

    function fromMap() {
      const frame = window.admiraltyBoard ? window.admiraltyBoard.current() : null;
      const shooter = data.weapons[Number(weapon.value)];
      if (!frame || !shooter || !target.value) return false;
      const a = frame.find((m) => m.id === shooter.ship);
      const b = frame.find((m) => m.id === target.value);
      if (!a || !b) return false;
      range.value = Math.hypot(a.x - b.x, a.y - b.y).toFixed(1);
      return true;
    }

    async function show() {
      const shooter = data.weapons[Number(weapon.value)];
      const params = new URLSearchParams({
        weapon: shooter.weapon, range: range.value || "0", screen: form.elements.screen.value,
      });
      result.textContent = "…";
      const response = await fetch(`${section.dataset.url}?${params}`, { headers: { Accept: "application/json" } });
      const body = await response.json();
      result.replaceChildren();
      if (!response.ok) {
        const p = document.createElement("p");
        p.className = "form-error";
        p.setAttribute("role", "alert");
        p.textContent = body.detail || String(response.status);
        result.appendChild(p);
        return;
      }
      const head = document.createElement("p");
      head.className = "odds-mean";
      head.textContent = `${body.resolved_as}: ${body.value_kind} — ${body.mean_float.toFixed(3)} (${body.mean})`;
      result.appendChild(head);
      const { shown, folded } = splitOdds(body.distribution);
      result.appendChild(oddsTable(shown));
      if (folded.length) {
        // Dozens of "0.00 %" rows buried the few that matter: they fold under one line.
        const details = document.createElement("details");
        details.className = "odds-folded";
        const summary = document.createElement("summary");
        summary.textContent = section.dataset.folded.replace("{n}", String(folded.length));
        details.append(summary, oddsTable(folded));
        result.appendChild(details);
      }
    }

    const fromMapButton = section.querySelector(".odds-from-map");  // only with a board
    if (fromMapButton) fromMapButton.addEventListener("click", () => { fromMap(); show(); });
    target.addEventListener("change", () => { if (fromMap()) show(); });
    form.addEventListener("submit", (event) => { event.preventDefault(); show(); });
  }

  function oddsTable(points) {
    const table = document.createElement("table");
    table.className = "data odds-table";
    for (const point of points) {
      const row = table.insertRow();
      row.insertCell().textContent = point.value;
      const bar = document.createElement("meter");
      bar.min = 0; bar.max = 1; bar.value = point.p_float;
      row.insertCell().appendChild(bar);
      row.insertCell().textContent = `${percent(point.p_float)} % (${point.p})`;
    }
    return table;
  }

  if (typeof document !== "undefined") {
    document.addEventListener("DOMContentLoaded", () => {
      for (const section of document.querySelectorAll("section[data-odds]")) setup(section);
    });
  }
  if (typeof module !== "undefined") module.exports = { splitOdds, percent };
})();
