"""The battle's map as one SVG drawn on the server, for the PDF, the report page and the
site: every ship the viewer may see, its track from deployment through its
position at the end of each game turn, and its last position with its heading and name
(a cross where it was lost or left the table).

Pure functions of the replay data (``battles.play.board.board_view``), which already
keeps out what the viewer may not see: with ``Viewer("public", hidden=…)`` the ships of
hidden fleets are neither drawn nor named. A battle recorded from the table logs no
positions: :func:`battle_map` gives ``None`` and the report says there is no map.

The geometry is computed here once, for this drawing and for the replay's script
(``static/js/battle-board.js`` only draws what :func:`board_layout` gives it): the map's
extent and grid (:func:`map_view`, :func:`grid_path`), the markers' shapes, and where
each name is written (``battles.log.map_labels.place_labels``), so a ship's name sits at
the same place on the report's map and on the replay's board.

Engine geometry (rules/turn.py): distances in mu, +y is heading 0 and up on the map,
headings 0–5 step 60° clockwise. The drawings flip y (SVG: +y is down).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battles.log.map_labels import FONT, place_labels

__all__ = [
    "MapShip",
    "battle_map",
    "battle_map_svg",
    "board_layout",
    "grid_path",
    "label_places",
    "map_view",
]

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


def map_view(board: Mapping[str, Any]) -> tuple[float, float, float, float] | None:
    """The map's extent ``(x0, y0, x1, y1)`` in mu, engine axes (+y up): every position
    of ``board``'s frames with :data:`PAD` around, widened to no thinner than 1:2 either
    way (a line of ships would make a strip); None when no frame holds a position."""
    points = [(float(m["x"]), float(m["y"])) for f in board.get("frames") or [] for m in f]
    if not points:
        return None
    xs, ys = [x for x, _ in points], [y for _, y in points]
    x0, x1, y0, y1 = min(xs) - PAD, max(xs) + PAD, min(ys) - PAD, max(ys) + PAD
    if (x1 - x0) < (y1 - y0) / 2:
        grow = ((y1 - y0) / 2 - (x1 - x0)) / 2
        x0, x1 = x0 - grow, x1 + grow
    if (y1 - y0) < (x1 - x0) / 2:
        grow = ((x1 - x0) / 2 - (y1 - y0)) / 2
        y0, y1 = y0 - grow, y1 + grow
    return x0, y0, x1, y1


def map_scale(view: tuple[float, float, float, float]) -> float:
    """The size of a marker unit in mu: markers and names follow the board's size."""
    x0, y0, x1, y1 = view
    return max(x1 - x0, y1 - y0) / 60


def grid_path(view: tuple[float, float, float, float]) -> str:
    """The grid of ``view`` (:func:`map_view`) as one SVG path (drawing axes, y down): a
    line every :data:`GRID` mu. One element to draw, not dozens."""
    x0, y0, x1, y1 = view
    grid = [
        f"M{gx},{_num(-y1)}V{_num(-y0)}"
        for gx in range(int(x0 // GRID + 1) * GRID, int(x1) + 1, GRID)
    ]
    grid += [
        f"M{_num(x0)},{-gy}H{_num(x1)}"
        for gy in range(int(y0 // GRID + 1) * GRID, int(y1) + 1, GRID)
    ]
    return "".join(grid)


def _ship_points(s: float) -> str:
    """A ship's triangle, pointing along heading 0, ``s`` mu a marker unit."""
    return f"0,{_num(-2 * s)} {_num(1.4 * s)},{_num(1.6 * s)} {_num(-1.4 * s)},{_num(1.6 * s)}"


def _shapes(scale: float) -> dict[str, Any]:
    """The markers' shapes around their position (drawing axes), heading 0: a ship's
    triangle and a blip's diamond (polygon points), a light unit's square (x, y, w, h)."""
    s = scale
    return {
        "ship": _ship_points(s),
        "blip": f"0,{_num(-1.5 * s)} {_num(1.5 * s)},0 0,{_num(1.5 * s)} {_num(-1.5 * s)},0",
        "unit": [round(-0.7 * s, 2), round(-0.7 * s, 2), round(1.4 * s, 2), round(1.4 * s, 2)],
    }


def board_layout(board: Mapping[str, Any]) -> dict[str, Any] | None:
    """What the replay's script draws, computed here: ``{"view": [x, y, width, height]``
    (the SVG viewBox, drawing axes), ``"scale"`` (mu per marker unit), ``"font"`` (a
    name's size in mu), ``"grid"`` (:func:`grid_path`), ``"shapes"`` (:func:`_shapes`),
    ``"frames"``: per frame of ``board`` and per marker, in their order, ``{"x", "y"``
    (drawing axes, mu), ``"rotate"`` (degrees clockwise, the heading × 60; None without
    a heading), ``"label"``: None for a marker without a name, else ``{"x", "y",
    "anchor", "leader"}`` (the name's baseline relative to the marker, its
    ``text-anchor``, and ``[x, y]`` of a leader line's end or None), placed by
    :func:`place_labels` among that frame's markers}``. None when the board holds no
    position. Numbers to 2 decimals, as the report's drawing writes them."""
    view = map_view(board)
    if view is None:
        return None
    x0, y0, x1, y1 = view
    scale = map_scale(view)
    frames = []
    for frame in board.get("frames") or []:
        points = [(float(m["x"]), -float(m["y"]), str(m.get("label") or "")) for m in frame]
        places = place_labels(points, scale, (x0, -y1, x1, -y0))
        frames.append(
            [
                {
                    "x": round(x, 2),
                    "y": round(y, 2),
                    "rotate": None if m.get("h") is None else int(m["h"]) * 60,
                    "label": _label(place, scale),
                }
                for m, (x, y, _text), place in zip(frame, points, places, strict=True)
            ]
        )
    return {
        "view": [round(v, 2) for v in (x0, -y1, x1 - x0, y1 - y0)],
        "scale": round(scale, 4),
        "font": round(FONT * scale, 2),
        "grid": grid_path(view),
        "shapes": _shapes(scale),
        "frames": frames,
    }


def _label(place: tuple[float, float, str, bool] | None, scale: float) -> dict[str, Any] | None:
    if place is None:
        return None
    x, y, anchor, leader = place
    end = [round(x, 2), round(y - 0.5 * scale, 2)] if leader else None
    return {"x": round(x, 2), "y": round(y, 2), "anchor": anchor, "leader": end}


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
    view = map_view(board)
    assert view is not None  # battle_map found a ship: the board has a position
    x0, y0, x1, y1 = view
    width, height = x1 - x0, y1 - y0
    width_mm = min(width_mm, MAX_HEIGHT_MM * width / height)
    scale = map_scale(view)
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
    grid = grid_path(view)
    if grid:
        ET.SubElement(
            root,
            "path",
            {
                "d": grid,
                "fill": "none",
                "stroke": "#dde1ea",
                "stroke-width": _num(0.1 * scale),
            },
        )
    places = label_places(ships, scale, (x0, -y1, x1, -y0))
    for ship in ships:
        _draw_ship(root, ship, sides, scale, places[ship.id])
    return ET.tostring(root, encoding="unicode")


def label_places(
    ships: list[MapShip],
    scale: float,
    bounds: tuple[float, float, float, float] | None = None,
) -> dict[str, tuple[float, float, str, bool]]:
    """``{ship id: (x, y, anchor, leader)}``: :func:`place_labels` of each ship's name at
    its last position (the report's map)."""
    points = [(s.track[-1][1], -s.track[-1][2], s.label or " ") for s in ships]
    places = place_labels(points, scale, bounds)
    return {s.id: place for s, place in zip(ships, places, strict=True) if place is not None}


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
                "points": _ship_points(scale),
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
            "font-size": _num(FONT * scale),
            "font-family": "DejaVu Sans, sans-serif",
            "fill": "#1d2330",
        },
    )
    label.text = ship.label
