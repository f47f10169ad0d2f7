// The board of an engine-fought battle (battles/play/board.py): an SVG map per moment
// (a game turn and phase), fire lines, a slider with previous / play / next, and the log
// lines of the moment beside it. Plain JavaScript, no build step, no inline script: the
// data comes from the json_script element named by the section's data-board attribute
// (the app), or from the JSON file at its data-board-src URL (the baked site, which has
// no server: campaign/publish/replays.py writes {"board": …, "phases": […]}).
// Engine geometry: +y is heading 0 and up on the map; headings step 60° clockwise.
(() => {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const GRID = 12; // mu per grid square

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (parent) parent.appendChild(node);
    return node;
  }

  // Label placement: each label takes the first of these spots (text anchor, dx, dy of
  // its baseline, in marker sizes) that hits no label placed before and no marker, else
  // the spot that overlaps least; a label moved away from its marker gets a thin leader.
  const SPOTS = [["start", 2.2, 0.6], ["end", -2.2, 0.6], ["middle", 0, -2.8], ["middle", 0, 4.6]];
  for (let k = 1; k <= 6; k++) {
    const step = 2.6 * k;
    SPOTS.push(["middle", 0, -2.8 - step], ["middle", 0, 4.6 + step]);
    SPOTS.push(["start", 2.2, 0.6 - step], ["start", 2.2, 0.6 + step]);
    SPOTS.push(["end", -2.2, 0.6 - step], ["end", -2.2, 0.6 + step]);
  }

  function overlap(a, b) {
    const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
    const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
  }

  // labels: [{text, x, y}] with x, y the marker's centre in SVG coordinates; returns the
  // chosen spot of each (index into SPOTS). Greedy, left to right: O(labels² × spots).
  function placeLabels(labels, scale, view) {
    const size = 2.2 * scale;
    const markers = labels.map((l) => ({ x0: l.x - 2 * scale, y0: l.y - 2 * scale, x1: l.x + 2 * scale, y1: l.y + 2 * scale }));
    const placed = [];
    const order = labels.map((_, i) => i).sort((i, j) => labels[i].x - labels[j].x || labels[i].y - labels[j].y);
    const chosen = new Array(labels.length).fill(0);
    for (const i of order) {
      const l = labels[i];
      let best = null;
      for (let s = 0; s < SPOTS.length; s++) {
        const [anchor, dx, dy] = SPOTS[s];
        const left = l.x + dx * scale - (anchor === "end" ? l.width : anchor === "middle" ? l.width / 2 : 0);
        const box = { x0: left, x1: left + l.width, y0: l.y + dy * scale - 0.8 * size, y1: l.y + dy * scale + 0.25 * size };
        let cost = 0;
        for (const other of placed) cost += overlap(box, other);
        for (const m of markers) cost += overlap(box, m);
        const inside = overlap(box, view);
        cost += 4 * ((box.x1 - box.x0) * (box.y1 - box.y0) - inside); // off the map: worse
        if (best === null || cost < best.cost) best = { cost, s, box };
        if (cost === 0) break;
      }
      chosen[i] = best.s;
      placed.push(best.box);
    }
    return chosen;
  }

  function setup(section, data, phases) {
    const svg = section.querySelector(".board-map svg");
    const slider = section.querySelector(".board-slider input");
    const output = section.querySelector(".board-moment");
    const logList = section.querySelector(".board-log");
    const playButton = section.querySelector(".board-play");
    if (!svg || !slider || !data.moments.length) return;
    if (section.dataset.boardSrc) {
      slider.max = String(data.moments.length - 1);
      slider.value = slider.max;
    }
    const sides = Object.keys(data.sides);
    let [x0, y0, x1, y1] = data.bounds;
    // Keep the map no taller than 4:3 (a narrow line of ships would make a thin strip).
    const grow = Math.max(0, (y1 - y0) * 0.75 - (x1 - x0)) / 2;
    x0 -= grow;
    x1 += grow;
    const width = Math.max(x1 - x0, 24);
    const height = Math.max(y1 - y0, 24);
    const scale = Math.max(width, height) / 60; // marker size follows the board's size
    svg.setAttribute("viewBox", `${x0} ${-y1} ${width} ${height}`);
    const view = { x0, y0: -y1, x1: x0 + width, y1: -y1 + height };
    const grid = el("g", { class: "board-grid" }, svg);
    for (let x = Math.ceil(x0 / GRID) * GRID; x <= x1; x += GRID) {
      el("line", { x1: x, y1: -y1, x2: x, y2: -y0 }, grid);
    }
    for (let y = Math.ceil(y0 / GRID) * GRID; y <= y1; y += GRID) {
      el("line", { x1: x0, y1: -y, x2: x1, y2: -y }, grid);
    }
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
      const labels = [];
      for (const m of frame) {
        where[m.id] = m;
        const side = `side-${sides.indexOf(m.side)}`;
        const g = el("g", {
          class: `marker ${m.kind} ${side}${m.own ? " own" : ""}`,
          transform: `translate(${m.x} ${-m.y})`,
          "data-id": m.id,
        }, unitLayer);
        const title = el("title", {}, g);
        title.textContent = m.label || m.kind;
        if (m.kind === "ship") {
          el("polygon", {
            points: `0,${-2 * scale} ${1.4 * scale},${1.6 * scale} ${-1.4 * scale},${1.6 * scale}`,
            transform: `rotate(${(m.h || 0) * 60})`,
          }, g);
        } else if (m.kind === "blip") {
          el("polygon", { points: `0,${-1.5 * scale} ${1.5 * scale},0 0,${1.5 * scale} ${-1.5 * scale},0` }, g);
        } else {
          el("rect", { x: -0.7 * scale, y: -0.7 * scale, width: 1.4 * scale, height: 1.4 * scale }, g);
        }
        if (m.label) {
          const text = el("text", { x: 2.2 * scale, y: 0.6 * scale, "font-size": 2.2 * scale }, g);
          text.textContent = m.label;
          // Measured once drawn (0 while the map is hidden: then a width per character).
          const width = text.getComputedTextLength() || m.label.length * 1.3 * scale;
          labels.push({ text, g, x: m.x, y: -m.y, width });
        }
      }
      const spots = placeLabels(labels, scale, view);
      labels.forEach((l, i) => {
        const [anchor, dx, dy] = SPOTS[spots[i]];
        l.text.setAttribute("x", dx * scale);
        l.text.setAttribute("y", dy * scale);
        l.text.setAttribute("text-anchor", anchor);
        if (spots[i] >= 4) {
          const y = dy < 0 ? dy * scale : (dy - 1.8) * scale;
          const line = el("line", { class: "label-leader", x1: 0, y1: 0, x2: dx * scale, y2: y, "stroke-width": 0.15 * scale });
          l.g.insertBefore(line, l.text);
        }
      });
      for (const [from, to] of data.fire[index]) {
        const a = where[from] || where[from.split(".")[0]];
        const b = where[to] || where[to.split(".")[0]];
        if (a && b) el("line", { x1: a.x, y1: -a.y, x2: b.x, y2: -b.y, "stroke-width": 0.4 * scale }, fireLayer);
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
