"""The battle's map as one SVG drawn on the server, for the PDF, the report page and the
site: every ship the viewer may see, its track from deployment through its
position at the end of each game turn, and its last position with its heading and name
(a cross where it was lost or left the table).

Pure functions of the replay data (``battles.play.board.board_view``), which already
keeps out what the viewer may not see: with ``Viewer("public", hidden=…)`` the ships of
hidden fleets are neither drawn nor named. A battle recorded from the table logs no
positions: :func:`battle_map` gives ``None`` and the report says there is no map.

Engine geometry (rules/turn.py, ``static/js/battle-board.js``): distances in mu, +y is
heading 0 and up on the map, headings 0–5 step 60° clockwise. The SVG flips y.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["MapShip", "battle_map", "battle_map_svg"]

SVG_NS = "http://www.w3.org/2000/svg"
GRID = 12  # mu per grid square, as on the replay viewer
PAD = 8.0  # mu around the outermost position
#: Side colours (side order of ``board["sides"]``), dark enough to print on white.
COLOURS = ("#1f5fa8", "#b85c00", "#2f7d32", "#8e2a8e", "#6b5a00", "#00707a")
WIDTH_MM = 170  # the PDF's text width is 178 mm
MAX_HEIGHT_MM = 140  # a tall board keeps room on its page for the legend


@dataclass
class MapShip:
    """One ship on the map: engine ``id`` (``ship-12``), ``label``, ``side`` (faction
    slug), ``track`` (``[(turn, x, y)]`` in mu: deployment as turn 0, then the end of
    each turn it was on the table), last ``heading`` (0–5 or None) and ``lost`` (left
    the table before the end: destroyed, captured or withdrawn)."""

    id: str
    label: str
    side: str | None
    track: list[tuple[int, float, float]] = field(default_factory=list)
    heading: int | None = None
    lost: bool = False


def battle_map(board: Mapping[str, Any]) -> list[MapShip] | None:
    """The ships of ``board`` (``board_view`` output) with their tracks, in the order
    they first appear; ``None`` when the log holds no position (a recorded battle).

    A track point is taken from the last frame of each game turn (the board after that
    turn's last logged phase); the first frame is the deployment (turn 0)."""
    moments, frames = board.get("moments") or [], board.get("frames") or []
    ends: list[tuple[int, list[dict[str, Any]]]] = []  # (turn, the board at its end)
    for index, frame in enumerate(frames):
        turn = int(moments[index]["turn"]) if index and index < len(moments) else 0
        if index and ends[-1][0] == turn:
            ends[-1] = (turn, frame)
        else:
            ends.append((turn, frame))
    ships: dict[str, MapShip] = {}
    for turn, frame in ends:
        for marker in frame:
            if marker.get("kind") != "ship":
                continue  # light units and blips are not tracked
            ship = ships.get(marker["id"])
            if ship is None:
                label = str(marker.get("label") or "")
                ship = ships[marker["id"]] = MapShip(marker["id"], label, marker.get("side"))
            ship.track.append((turn, float(marker["x"]), float(marker["y"])))
            ship.heading = marker.get("h")
    if not ships:
        return None
    last_turn = ends[-1][0]
    for ship in ships.values():
        ship.lost = ship.track[-1][0] < last_turn
    return list(ships.values())


def _num(value: float) -> str:
    """``value`` to 2 decimals, trailing zeros dropped (``-0`` is ``0``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def battle_map_svg(
    board: Mapping[str, Any], *, title: str = "", width_mm: float = WIDTH_MM
) -> str | None:
    """The map of ``board`` (``board_view`` output) as an SVG string, or ``None`` when
    there is no position to draw (:func:`battle_map`).

    ``width_mm`` sets the printed width (the height follows the board's proportions, at
    most :data:`MAX_HEIGHT_MM`: a tall board is drawn narrower).
    Colours are presentation attributes (no ``style``: the app's CSP refuses inline
    styles); every text goes through ElementTree, which escapes it. Each ship is a
    ``<g class="map-ship" data-id=… data-side=…>`` holding its track (``<polyline>``,
    one point per turn), its deployment (``<circle>``) and its last position
    (``<g class="map-end" data-x data-y data-heading>``: a triangle along its heading,
    or a cross when lost, and its name)."""
    ships = battle_map(board)
    if ships is None:
        return None
    sides = list((board.get("sides") or {}).keys())
    xs = [x for s in ships for _, x, _ in s.track]
    ys = [y for s in ships for _, _, y in s.track]
    x0, x1, y0, y1 = min(xs) - PAD, max(xs) + PAD, min(ys) - PAD, max(ys) + PAD
    # No thinner than 1:2 either way: a line of ships would make a strip.
    if (x1 - x0) < (y1 - y0) / 2:
        grow = ((y1 - y0) / 2 - (x1 - x0)) / 2
        x0, x1 = x0 - grow, x1 + grow
    if (y1 - y0) < (x1 - x0) / 2:
        grow = ((x1 - x0) / 2 - (y1 - y0)) / 2
        y0, y1 = y0 - grow, y1 + grow
    width, height = x1 - x0, y1 - y0
    width_mm = min(width_mm, MAX_HEIGHT_MM * width / height)
    scale = max(width, height) / 60  # marker size follows the board's size
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "battle-map",
            "version": "1.1",
            "role": "img",
            "viewBox": f"{_num(x0)} {_num(-y1)} {_num(width)} {_num(height)}",
            "width": f"{_num(width_mm)}mm",
            "height": f"{_num(width_mm * height / width)}mm",
        },
    )
    if title:
        ET.SubElement(root, "title").text = title
    ET.SubElement(
        root,
        "rect",
        {
            "x": _num(x0),
            "y": _num(-y1),
            "width": _num(width),
            "height": _num(height),
            "fill": "#f7f8fb",
            "stroke": "#9aa3b5",
            "stroke-width": _num(0.15 * scale),
        },
    )
    grid = []  # one path for the whole grid: one element to draw, not dozens
    for gx in range(int(x0 // GRID + 1) * GRID, int(x1) + 1, GRID):
        grid.append(f"M{gx},{_num(-y1)}V{_num(-y0)}")
    for gy in range(int(y0 // GRID + 1) * GRID, int(y1) + 1, GRID):
        grid.append(f"M{_num(x0)},{-gy}H{_num(x1)}")
    if grid:
        ET.SubElement(
            root,
            "path",
            {
                "d": "".join(grid),
                "fill": "none",
                "stroke": "#dde1ea",
                "stroke-width": _num(0.1 * scale),
            },
        )
    places = label_places(ships, scale, (x0, -y1, x1, -y0))
    for ship in ships:
        _draw_ship(root, ship, sides, scale, places[ship.id])
    return ET.tostring(root, encoding="unicode")


# Where a ship's name may go, around its marker, in marker units (scale): x, y of the text
# and its anchor, tried in this order: next to the marker first, then farther out (with a
# leader line) for ships in a crowd.
_NEAR_SPOTS = (
    (1.8, 0.5, "start"),  # right
    (-1.8, 0.5, "end"),  # left
    (0.0, -2.6, "middle"),  # above
    (0.0, 3.4, "middle"),  # below
    (1.8, -1.6, "start"),  # upper right
    (1.8, 2.6, "start"),  # lower right
    (-1.8, -1.6, "end"),  # upper left
    (-1.8, 2.6, "end"),  # lower left
)
_LABEL_SPOTS = _NEAR_SPOTS + tuple(
    (dx * ring, dy * ring + 0.5, anchor)
    for ring in (2.0, 3.0, 4.5)
    for dx, dy, anchor in (
        (2.0, 0.0, "start"),
        (-2.0, 0.0, "end"),
        (1.6, -1.6, "start"),
        (-1.6, -1.6, "end"),
        (1.6, 1.6, "start"),
        (-1.6, 1.6, "end"),
        (0.0, -2.0, "middle"),
        (0.0, 2.0, "middle"),
    )
)
#: Spots past the near ones get a leader line back to their marker.
LEADER_FROM = len(_NEAR_SPOTS)


def label_places(
    ships: list[MapShip],
    scale: float,
    bounds: tuple[float, float, float, float] | None = None,
) -> dict[str, tuple[float, float, str, bool]]:
    """``{ship id: (x, y, anchor, leader)}``: where each ship's name is written, relative
    to its last position, in map units, so that no two names overlap and no name covers another
    ship's marker where a free spot exists (greedy, ships in the given order; text width
    estimated at 0.6 em a character). A ship with no free spot takes the first spot that
    overlaps least (names of ships lying on the same point cannot all be kept apart).
    ``leader`` is True for a spot away from the marker, drawn with a line back to it.
    ``bounds`` (left, top, right, bottom in the drawing's units): a name crossing them
    counts as an overlap, so names stay on the map where they can."""
    font = 1.4 * scale
    ends = {s.id: (s.track[-1][1], -s.track[-1][2]) for s in ships}
    markers = [(x - 1.6 * scale, y - 2 * scale, x + 1.6 * scale, y + 1.8 * scale)
               for x, y in ends.values()]  # fmt: skip
    placed: list[tuple[float, float, float, float]] = []
    out: dict[str, tuple[float, float, str, bool]] = {}
    for own, ship in zip(markers, ships, strict=True):
        ex, ey = ends[ship.id]
        width = 0.6 * font * max(len(ship.label), 1)
        best: tuple[int, tuple[float, float, str, bool], tuple[float, ...]] | None = None
        for index, (dx, dy, anchor) in enumerate(_LABEL_SPOTS):
            x, y = dx * scale, dy * scale
            left = ex + x - {"start": 0, "middle": width / 2, "end": width}[anchor]
            box = (left, ey + y - 0.8 * font, left + width, ey + y + 0.2 * font)
            hits = sum(_overlap(box, other) for other in placed)
            hits += sum(_overlap(box, m) for m in markers if m is not own)
            if bounds and not (bounds[0] <= box[0] and box[2] <= bounds[2]):
                hits += 1
            if bounds and not (bounds[1] <= box[1] and box[3] <= bounds[3]):
                hits += 1
            if best is None or hits < best[0]:
                best = (hits, (x, y, anchor, index >= LEADER_FROM), box)
            if hits == 0:
                break
        out[ship.id] = best[1]  # type: ignore[index]  # _LABEL_SPOTS is not empty
        placed.append(best[2])  # type: ignore[index]
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _draw_ship(
    root: ET.Element,
    ship: MapShip,
    sides: list[str],
    scale: float,
    place: tuple[float, float, str, bool] | None = None,
) -> None:
    index = sides.index(ship.side) if ship.side in sides else len(sides)
    colour = COLOURS[index % len(COLOURS)]
    g = ET.SubElement(
        root, "g", {"class": "map-ship", "data-id": ship.id, "data-side": ship.side or ""}
    )
    ET.SubElement(g, "title").text = ship.label
    points = " ".join(f"{_num(x)},{_num(-y)}" for _, x, y in ship.track)
    if len(ship.track) > 1:
        ET.SubElement(
            g,
            "polyline",
            {
                "points": points,
                "fill": "none",
                "stroke": colour,
                "stroke-width": _num(0.25 * scale),
                "stroke-dasharray": f"{_num(0.8 * scale)} {_num(0.5 * scale)}",
            },
        )
    _, sx, sy = ship.track[0]
    ET.SubElement(
        g,
        "circle",
        {
            "cx": _num(sx),
            "cy": _num(-sy),
            "r": _num(0.6 * scale),
            "fill": "#fff",
            "stroke": colour,
            "stroke-width": _num(0.2 * scale),
        },
    )
    _, ex, ey = ship.track[-1]
    end = ET.SubElement(
        g,
        "g",
        {
            "class": "map-end lost" if ship.lost else "map-end",
            "transform": f"translate({_num(ex)} {_num(-ey)})",
            "data-x": _num(ex),
            "data-y": _num(ey),
            "data-heading": "" if ship.heading is None else str(ship.heading),
        },
    )
    if ship.lost:
        d, m = _num(scale), _num(-scale)
        ET.SubElement(
            end,
            "path",
            {
                "d": f"M{m},{m}L{d},{d}M{d},{m}L{m},{d}",
                "stroke": colour,
                "stroke-width": _num(0.35 * scale),
            },
        )
    else:
        ET.SubElement(
            end,
            "polygon",
            {
                "points": f"0,{_num(-2 * scale)} {_num(1.4 * scale)},{_num(1.6 * scale)} "
                f"{_num(-1.4 * scale)},{_num(1.6 * scale)}",
                "transform": f"rotate({(ship.heading or 0) * 60})",
                "fill": colour,
            },
        )
    x, y, anchor, leader = place or (1.8 * scale, 0.5 * scale, "start", False)
    if leader:  # a name set apart from a crowd, tied to its marker
        ET.SubElement(
            end,
            "line",
            {
                "x1": "0",
                "y1": "0",
                "x2": _num(x),
                "y2": _num(y - 0.5 * scale),
                "stroke": "#6b7385",
                "stroke-width": _num(0.1 * scale),
            },
        )
    attributes = {"x": _num(x), "y": _num(y)}
    if anchor != "start":
        attributes["text-anchor"] = anchor
    label = ET.SubElement(
        end,
        "text",
        {
            **attributes,
            "font-size": _num(1.4 * scale),
            "font-family": "DejaVu Sans, sans-serif",
            "fill": "#1d2330",
        },
    )
    label.text = ship.label
