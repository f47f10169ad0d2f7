// The board of an engine-fought battle (battles/play/board.py): an SVG map per moment
// (a game turn and phase), fire lines, a slider with previous / play / next, and the log
// lines of the moment beside it. Plain JavaScript, no build step, no inline script: the
// data comes from the json_script element named by the section's data-board attribute
// (the app), or from the JSON file at its data-board-src URL (the baked site, which has
// no server: campaign/publish/replays.py writes {"board": …, "phases": […]}).
// The server computes every position, the grid, the markers' shapes and where each name
// goes (data.layout, battles/log/battle_map.py board_layout): this script only draws
// them, so a ship's name sits where the report's map writes it.
(() => {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  function setup(section, data, phases) {
    const svg = section.querySelector(".board-map svg");
    const slider = section.querySelector(".board-slider input");
    const output = section.querySelector(".board-moment");
    const logList = section.querySelector(".board-log");
    const playButton = section.querySelector(".board-play");
    if (!svg || !slider || !data.moments.length || !data.layout) return;
    if (section.dataset.boardSrc) {
      slider.max = String(data.moments.length - 1);
      slider.value = slider.max;
    }
    const sides = Object.keys(data.sides);
    const layout = data.layout;
    const scale = layout.scale;
    svg.setAttribute("viewBox", layout.view.join(" "));
    const grid = el("g", { class: "board-grid" }, svg);
    if (layout.grid) el("path", { d: layout.grid }, grid);
    const fireLayer = el("g", { class: "board-fire" }, svg);
    const unitLayer = el("g", { class: "board-units" }, svg);

    // The log once, each line tagged with its moment; a moment shows its own lines.
    const items = data.log.map((line) => {
      const li = document.createElement("li");
      li.textContent = line.text;
      li.className = `log-${line.kind}`;
      li.dataset.m = line.m;
      li.hidden = true;
      logList.appendChild(li);
      return li;
    });

    function draw(index) {
      const frame = data.frames[index];
      const moment = data.moments[index];
      fireLayer.replaceChildren();
      unitLayer.replaceChildren();
      const where = {};
      const placed = layout.frames[index];
      frame.forEach((m, i) => {
        const at = placed[i];
        where[m.id] = at;
        const side = `side-${sides.indexOf(m.side)}`;
        const g = el("g", {
          class: `marker ${m.kind} ${side}${m.own ? " own" : ""}`,
          transform: `translate(${at.x} ${at.y})`,
          "data-id": m.id,
        }, unitLayer);
        const title = el("title", {}, g);
        title.textContent = m.label || m.kind;
        if (m.kind === "ship") {
          el("polygon", { points: layout.shapes.ship, transform: `rotate(${at.rotate || 0})` }, g);
        } else if (m.kind === "blip") {
          el("polygon", { points: layout.shapes.blip }, g);
        } else {
          const [x, y, width, height] = layout.shapes.unit;
          el("rect", { x, y, width, height }, g);
        }
        const label = at.label;
        if (!label) return;
        if (label.leader) {
          const [x2, y2] = label.leader;
          el("line", { class: "label-leader", x1: 0, y1: 0, x2, y2, "stroke-width": 0.1 * scale }, g);
        }
        const text = el("text", { x: label.x, y: label.y, "font-size": layout.font }, g);
        if (label.anchor !== "start") text.setAttribute("text-anchor", label.anchor);
        text.textContent = m.label;
      });
      for (const [from, to] of data.fire[index]) {
        const a = where[from] || where[from.split(".")[0]];
        const b = where[to] || where[to.split(".")[0]];
        if (a && b) el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, "stroke-width": 0.4 * scale }, fireLayer);
      }
      const name = phases[moment.phase] || moment.phase;
      output.textContent = `${section.dataset.turnLabel || "T"} ${moment.turn} · ${name}`;
      for (const li of items) li.hidden = Number(li.dataset.m) !== index;
      section.dispatchEvent(new CustomEvent("board:moment", { bubbles: true, detail: { frame } }));
    }

    let timer = null;
    function go(index) {
      slider.value = String(Math.max(0, Math.min(data.moments.length - 1, index)));
      draw(Number(slider.value));
    }
    function stop() {
      clearInterval(timer);
      timer = null;
      playButton.textContent = "▶";
    }
    slider.addEventListener("input", () => draw(Number(slider.value)));
    section.querySelector(".board-prev").addEventListener("click", () => { stop(); go(Number(slider.value) - 1); });
    section.querySelector(".board-next").addEventListener("click", () => { stop(); go(Number(slider.value) + 1); });
    playButton.addEventListener("click", () => {
      if (timer) return stop();
      if (Number(slider.value) >= data.moments.length - 1) go(0);
      playButton.textContent = "❚❚";
      timer = setInterval(() => {
        if (Number(slider.value) >= data.moments.length - 1) return stop();
        go(Number(slider.value) + 1);
      }, 700);
    });
    window.admiraltyBoard = { current: () => data.frames[Number(slider.value)] };
    draw(Number(slider.value));
  }

  function readScript(id) {
    return JSON.parse(document.getElementById(id).textContent);
  }

  // The baked site: fetch the replay file; the note stays when it cannot be read (a page
  // opened from disk: browsers refuse file:// fetches, so none is tried).
  function load(section) {
    if (window.location.protocol === "file:") return;
    fetch(section.dataset.boardSrc)
      .then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.url}`);
        return response.json();
      })
      .then((replay) => {
        if (!replay.board.moments.length) return;
        for (const node of section.querySelectorAll("[data-replay-loaded]")) node.hidden = false;
        const note = section.querySelector(".board-note");
        if (note) note.hidden = true;
        setup(section, replay.board, replay.phases);
      })
      .catch((error) => console.warn("replay not loaded:", error.message));
  }

  document.addEventListener("DOMContentLoaded", () => {
    for (const section of document.querySelectorAll("section[data-board]")) {
      // No moment yet (a battle not started): the section says so and has no data.
      if (!document.getElementById(section.dataset.board)) continue;
      if (!document.getElementById(section.dataset.phases)) continue;
      setup(section, readScript(section.dataset.board), readScript(section.dataset.phases));
    }
    for (const section of document.querySelectorAll("section[data-board-src]")) load(section);
  });
})();
