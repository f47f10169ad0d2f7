"""Ship system diagrams (SSD) drawn as SVG, with or without a ship's damage.

``design_svg(design)`` draws a ship-class design document (the agreed
``admiralty-design/1`` shape, see ``factions/designs/schema.py``); ``ship_svg(ship)`` draws the
same diagram for one ``Ship`` with its damage crossed out. The drawing holds: a title and
a stats line, hull rows as boxes with threshold marks at row ends (§11), armour boxes per
layer (outermost first, D-25), crew factor dots (``ceil(mass / 20)``, §4, D-5), the core
systems (drive, FTL, fire controls, screens, sensors, ECM, command systems), every system
of ``design["systems"]`` as a labelled icon with its six-arc diagram (§6), and the bays
with their squadrons.

Elements carry stable classes and data attributes so that pages and tests can rely on
them: ``hull-box`` / ``armour-box`` / ``crew-dot`` (plus ``lost``), ``threshold``,
``system`` (plus ``destroyed``) with ``data-system="<system id>"``, ``arc`` (plus
``covered``) with ``data-arc``, ``bay`` with ``data-bay``. Core systems use the ids
``drive``, ``ftl``, ``fc-<n>``, ``screen-<n>``, ``ecm-<n>``, ``sensors`` and the command
system names (``bridge``, ``life-support``, ``core``); ``Ship.systems_lost`` may name them.

Units: the viewBox is in drawing units of 0.25 mm; the SVG is 190 mm wide so it prints
on A4 with margins. Every text is escaped (``factions.ssd.canvas``).

Drawn once whatever the languages: what a language changes (labels, the title and stats
line, the crew dots placed after their label) is drawn in :meth:`Canvas.later` blocks,
so :func:`ship_drawing` gives one :class:`~factions.ssd.canvas.Drawing` per ship state
that renders in each language (the site draws a ship once for both of its languages).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import get_language, gettext, ngettext

from battles.rules.errors import RulesError
from battles.rules.ships import crew_factors
from factions.ssd.canvas import MARGIN, WIDTH, Canvas, Drawing, Element
from factions.ssd.text import core_systems, stats_line, system_text
from factions.type_words import type_label

if TYPE_CHECKING:
    from factions.models import Ship

# Clockwise from the bow, as rules §6 lists them.
ARCS = ("F", "FS", "AS", "A", "AP", "FP")

# Threshold roll that destroys a system when row n (1-based) is completed (§11).
THRESHOLD_ROLLS = {1: "6", 2: "5+"}


@dataclass(frozen=True)
class ShipDamage:
    """A ship's damage as the SSD shows it (mirrors the ``Ship`` model fields).

    ``hull_lost`` and ``armour_lost`` are boxes crossed off (hull from the first row on,
    armour from the outer layer on); ``crew_lost`` is crew factors lost; ``systems_lost``
    holds system ids of the design (``beam-a``, ``fc-1``, ``bridge``…).
    """

    hull_lost: int = 0
    armour_lost: int = 0
    crew_lost: int = 0
    systems_lost: frozenset[str] = field(default_factory=frozenset)


def hull_rows_for(boxes: int, rows: int = 4) -> list[int]:
    """Split ``boxes`` hull boxes into ``rows`` rows, larger rows first (D-6)."""
    base, extra = divmod(boxes, rows)
    return [base + (1 if i < extra else 0) for i in range(rows) if base or i < extra]


def covered_arcs_path(cx: float, cy: float, r: float, arc: str) -> str:
    """SVG path of the 60° sector ``arc`` (one of :data:`ARCS`) of a circle at (cx, cy)."""
    i = ARCS.index(arc)
    start = math.radians(-120 + 60 * i)  # F spans -120°..-60° (screen y points down)
    end = start + math.radians(60)
    x1, y1 = cx + r * math.cos(start), cy + r * math.sin(start)
    x2, y2 = cx + r * math.cos(end), cy + r * math.sin(end)
    return f"M{cx:.1f},{cy:.1f} L{x1:.1f},{y1:.1f} A{r:.1f},{r:.1f} 0 0 1 {x2:.1f},{y2:.1f} Z"


def _box_size(longest_row: int) -> float:
    """Box side so the longest row fits the width (max 20 units = 5 mm)."""
    usable = WIDTH - 2 * MARGIN - 60  # room for the threshold mark
    return min(20.0, usable / max(1, longest_row) - 4)


def _draw_hull(c: Canvas, design: dict, lost: int) -> None:
    hull = design.get("hull") or {}
    rows = list(hull.get("rows") or hull_rows_for(int(hull.get("boxes") or 0)))
    rows = [int(n) for n in rows if n]  # a small hull may leave rows empty ([1, 1, 0, 0])
    if not rows:
        return
    g = c.el(None, "g", class_="hull", id="hull")
    boxes = sum(rows)
    c.later(
        g,
        lambda c, box, y=c.y, n=boxes: c.text(
            box,
            MARGIN,
            y + 12,
            ngettext("Hull (%(n)d box)", "Hull (%(n)d boxes)", n) % {"n": n},
            "section-label",
        ),
    )
    c.y += 20
    size = _box_size(max(rows))
    step = size + 4
    crossed = 0
    for n, count in enumerate(rows, start=1):
        row_g = c.el(g, "g", class_="hull-row", data__row=n)
        x: float = MARGIN
        for _ in range(count):
            is_lost = crossed < lost
            crossed += 1
            c.el(
                row_g,
                "rect",
                x=f"{x:.1f}",
                y=f"{c.y:.1f}",
                width=f"{size:.1f}",
                height=f"{size:.1f}",
                class_="hull-box lost" if is_lost else "hull-box",
            )
            if is_lost:
                c.cross(row_g, x + 2, c.y + 2, size - 4, size - 4)
            x += step
        if n < len(rows):
            # A completed row triggers a threshold check (§11): mark the row end.
            c.el(
                row_g,
                "path",
                d=f"M{x:.1f},{c.y:.1f} l8,{size / 2:.1f} l-8,{size / 2:.1f} Z",
                class_="threshold",
                data__roll=THRESHOLD_ROLLS.get(n, "4+"),
            )
            c.text(
                row_g, x + 12, c.y + size / 2 + 4, THRESHOLD_ROLLS.get(n, "4+"), "threshold-label"
            )
        c.y += step
    c.y += 6


def _draw_armour(c: Canvas, design: dict, lost: int) -> None:
    layers = [int(n) for n in ((design.get("armour") or {}).get("layers") or []) if n]
    if not layers:
        return
    g = c.el(None, "g", class_="armour", id="armour")
    boxes = sum(layers)
    c.later(
        g,
        lambda c, box, y=c.y, n=boxes: c.text(
            box,
            MARGIN,
            y + 12,
            ngettext("Armour (%(n)d box)", "Armour (%(n)d boxes)", n) % {"n": n},
            "section-label",
        ),
    )
    c.y += 20
    size = _box_size(max(layers))
    step = size + 4
    crossed = 0
    for n, count in enumerate(layers, start=1):  # outermost first (D-25)
        layer_g = c.el(g, "g", class_="armour-layer", data__layer=n)
        x: float = MARGIN
        r = size / 2
        for _ in range(count):
            is_lost = crossed < lost
            crossed += 1
            c.el(
                layer_g,
                "circle",
                cx=f"{x + r:.1f}",
                cy=f"{c.y + r:.1f}",
                r=f"{r:.1f}",
                class_="armour-box lost" if is_lost else "armour-box",
            )
            if is_lost:
                c.cross(layer_g, x + 3, c.y + 3, size - 6, size - 6)
            x += step
        c.y += step
    c.y += 6


def _draw_crew(c: Canvas, design: dict, lost: int) -> None:
    mass = int(design.get("mass") or 0)
    crew = crew_factors(mass) if mass else 0
    if not crew:
        return
    g = c.el(None, "g", class_="crew", id="crew")
    c.later(g, lambda c, box, y=c.y: _draw_crew_dots(c, box, y, crew, lost))
    c.y += 26


def _draw_crew_dots(c: Canvas, g: Element, y: float, crew: int, lost: int) -> None:
    label = gettext("Crew factors (%(n)d)") % {"n": crew}
    c.text(g, MARGIN, y + 12, label, "section-label")
    # The dots start after the label: 12 px bold upper case is ~0.75 em a character in
    # DejaVu Sans, and the French label ("FACTEURS D'ÉQUIPAGE (3)") is ~210 px wide.
    x: float = MARGIN + max(140, len(label) * 12 * 0.75 + 14)
    for i in range(crew):
        c.el(
            g,
            "circle",
            cx=f"{x:.1f}",
            cy=f"{y + 8:.1f}",
            r="6",
            class_="crew-dot lost" if i < lost else "crew-dot",
        )
        if i < lost:
            c.cross(g, x - 6, y + 2, 12, 12)
        x += 18


def system_labels(design: dict) -> dict[str, str]:
    """System id -> the label its SSD box carries, in the active language ("fire control
    1", "life support", "beam class 2", a bay's squadron). Systems the SSD does not draw
    are left out: callers show those ids as they are. A design the engine cannot build
    (a class saved without mass or hull) gives its listed systems only, never an error:
    the labels only name things."""
    try:
        labels = {sid: label for sid, _icon, label in core_systems(design)}
    except (RulesError, KeyError, TypeError, ValueError, AttributeError):
        labels = {}
    for system in design.get("systems") or []:
        if isinstance(system, dict):
            labels[str(system.get("id", "?"))] = system_text(system)[1]
    return labels


CELL_W = 120
CELL_H = 96


def _draw_system(
    c: Canvas,
    parent: Element,
    x: float,
    y: float,
    *,
    sid: str,
    kind: str,
    texts: Callable[[], tuple[str, str]],
    arcs: list[str] | None,
    destroyed: bool,
    magazine: str | None = None,
) -> None:
    """One system's cell; ``texts()``: its icon text and label in the active language."""
    g = c.el(
        parent,
        "g",
        class_="system destroyed" if destroyed else "system",
        data__system=sid,
        data__kind=kind,
        id=f"sys-{sid}",
    )
    icon_x = x + (16 if arcs is not None else 40)
    c.el(g, "rect", x=icon_x, y=y, width=40, height=40, rx=6, class_="icon")
    c.later(g, lambda c, box: c.text(box, icon_x + 20, y + 25, texts()[0], "icon-text"))
    if arcs is not None:
        ag = c.el(g, "g", class_="arcs")
        for arc in ARCS:
            c.el(
                ag,
                "path",
                d=covered_arcs_path(x + 88, y + 20, 18, arc),
                class_="arc covered" if arc in arcs else "arc",
                data__arc=arc,
            )
    c.label(g, x + CELL_W / 2, y + 56, sid, 20)

    def labels(c: Canvas, box: Element) -> None:
        label = texts()[1]
        if label != sid:
            c.label(box, x + CELL_W / 2, y + 70, label, 20)
        if magazine:
            fed = gettext("fed by %(magazine)s") % {"magazine": magazine}
            c.label(box, x + CELL_W / 2, y + 84, fed, 20)

    c.later(g, labels)
    if destroyed:
        c.cross(g, icon_x - 2, y - 2, 44, 44)


def _draw_systems(c: Canvas, design: dict, lost: frozenset[str]) -> None:
    g = c.el(None, "g", class_="systems", id="systems")
    c.later(
        g, lambda c, box, y=c.y: c.text(box, MARGIN, y + 12, gettext("Systems"), "section-label")
    )
    c.y += 22
    per_row = (WIDTH - 2 * MARGIN) // CELL_W
    core: dict[str | None, list[tuple[str, str, str]]] = {}  # per language

    def core_texts(i: int) -> tuple[str, str]:
        language = get_language()
        if language not in core:
            core[language] = core_systems(design)
        _sid, icon_text, label = core[language][i]
        return icon_text, label

    cells: list[dict[str, Any]] = [
        {
            "sid": sid,
            "kind": "core",
            "texts": functools.partial(core_texts, i),
            "arcs": None,
        }
        for i, (sid, _icon, _label) in enumerate(core_systems(design))
    ]
    for system in design.get("systems") or []:
        arcs = system.get("arcs")
        cells.append(
            {
                "sid": str(system.get("id", "?")),
                "kind": str(system.get("kind", "?")),
                "texts": functools.partial(system_text, system),
                "arcs": list(arcs) if arcs is not None else None,
                "magazine": system.get("magazine"),
            }
        )
    for i, cell in enumerate(cells):
        col, row = i % per_row, i // per_row
        _draw_system(
            c,
            g,
            MARGIN + col * CELL_W,
            c.y + row * CELL_H,
            destroyed=cell["sid"] in lost,
            **cell,
        )
    c.y += CELL_H * (-(-len(cells) // per_row)) + 4


def _draw_bays(c: Canvas, design: dict, lost: frozenset[str]) -> None:
    bays = [s for s in design.get("systems") or [] if s.get("kind") == "bay"]
    if not bays:
        return
    g = c.el(None, "g", class_="bays", id="bays")
    c.later(
        g,
        lambda c, box, y=c.y: c.text(
            box, MARGIN, y + 12, gettext("Bays and squadrons"), "section-label"
        ),
    )
    c.y += 22
    col_w = (WIDTH - 2 * MARGIN - 10) / 2  # two bays per line
    for i, bay in enumerate(bays):
        x0 = MARGIN + (i % 2) * (col_w + 10)
        y0 = c.y + (i // 2) * 46
        sid = str(bay.get("id", "?"))
        sq = bay.get("squadron") or {}
        cls = "bay destroyed" if sid in lost else "bay"
        bg = c.el(g, "g", class_=cls, data__bay=sid)
        c.el(bg, "rect", x=f"{x0:.1f}", y=y0, width=f"{col_w:.1f}", height=40, class_="bay-frame")
        size = int(sq.get("size", 0) or 0)
        room = col_w - 16 * size - 14
        c.later(
            bg,
            lambda c, box, x0=x0, y0=y0, sid=sid, sq=sq, room=room: c.text(
                box,
                x0 + 6,
                y0 + 16,
                f"{sid}: {sq.get('name') or gettext('empty')}",
                "stats",
                fit=room,
                size=12,
            ),
        )
        if sq:
            unit = str(sq.get("unit", ""))
            if sq.get("variant"):
                unit += f" ({sq['variant']})"
            c.text(bg, x0 + 6, y0 + 32, f"{unit} ×{size}", "stats", fit=room, size=11)
        x = x0 + col_w - 12
        for _ in range(size):
            c.el(bg, "path", d=f"M{x:.1f},{y0 + 13} l6,14 l-12,0 Z", class_="craft")
            x -= 16
        if sid in lost:
            c.cross(bg, x0, y0, col_w, 40)
    c.y += 46 * (-(-len(bays) // 2))


def design_drawing(
    design: dict,
    *,
    damage: ShipDamage | None = None,
    caption: str | None = None,
    id_prefix: str | None = None,
    faction_name: str | None = None,
    style: bool = True,
) -> Drawing:
    """Draw ``design`` (an ``admiralty-design/1`` document) once for every language: a
    :class:`~factions.ssd.canvas.Drawing` whose ``render()`` is :func:`design_svg`'s SVG
    in the active language. ``style`` False leaves out the ``<style>`` element (pages
    that link ``css/ssd.css``). Other arguments as :func:`design_svg`."""
    damage = damage or ShipDamage()
    name = str(design.get("name") or "?")
    if id_prefix is None:
        id_prefix = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") + "-"
    c = Canvas(id_prefix, style=style)
    title = caption or name

    def heading() -> str:
        kind = type_label(str(design.get("type_word") or ""))
        sub = ", ".join(str(p) for p in (kind, faction_name or design.get("faction")) if p)
        return f"{title} — {sub}" if sub else title

    usable = WIDTH - 2 * MARGIN
    c.later(
        None,
        lambda c, box, y=c.y: c.text(box, MARGIN, y + 24, heading(), "title", fit=usable, size=26),
    )
    c.y += 34
    c.later(
        None,
        lambda c, box, y=c.y: c.text(
            box, MARGIN, y + 12, stats_line(design), "stats", fit=usable, size=13
        ),
    )
    c.y += 20
    if design.get("provisional"):

        def provisional(c: Canvas, box: Element, y: float = c.y) -> None:
            note = gettext("Provisional design")
            if design.get("rationale"):
                note = gettext("Provisional design: %(why)s") % {"why": design["rationale"]}
            note = note if len(note) <= 130 else note[:129] + "…"
            c.text(box, MARGIN, y + 10, note, "provisional", fit=usable, size=11)

        c.later(None, provisional)
        c.y += 18
    # Only what each reading is about ("graser-2"): the full text is on the design page.
    readings = [str(r).split(":")[0] for r in design.get("readings") or []]
    if readings:

        def project(c: Canvas, box: Element, y: float = c.y) -> None:
            note = gettext("Project readings: %(list)s") % {"list": ", ".join(readings)}
            note = note if len(note) <= 130 else note[:129] + "…"
            c.text(box, MARGIN, y + 10, note, "provisional readings", fit=usable, size=11)

        c.later(None, project)
        c.y += 18
    c.y += 6
    _draw_hull(c, design, damage.hull_lost)
    _draw_armour(c, design, damage.armour_lost)
    _draw_crew(c, design, damage.crew_lost)
    _draw_systems(c, design, damage.systems_lost)
    _draw_bays(c, design, damage.systems_lost)
    return c.finish(heading)


def design_svg(
    design: dict,
    *,
    damage: ShipDamage | None = None,
    caption: str | None = None,
    id_prefix: str | None = None,
    faction_name: str | None = None,
) -> str:
    """Draw ``design`` (an ``admiralty-design/1`` document) as an SVG string.

    ``damage`` crosses out lost hull boxes (first row first), armour boxes (outer layer
    first), crew factors, and marks the systems it names destroyed. ``caption`` replaces
    the title (a ship's name). ``faction_name`` is the faction as the title shows it
    (the design's ``faction`` field is a slug, shown only when no name is given).
    Element ids start with ``id_prefix`` (default: the design name as a slug and ``-``)
    so several SSDs can share one page. Missing fields fall back
    to zero / empty so a partial
    design still draws. Sources: rules §4, §6, §11, D-6, D-25.
    Returns a standalone ``<svg>`` element (no XML declaration), 190 mm wide, in the
    active language.
    """
    return design_drawing(
        design, damage=damage, caption=caption, id_prefix=id_prefix, faction_name=faction_name
    ).render()


def ship_drawing(ship: Ship, *, style: bool = True) -> Drawing:
    """:func:`ship_svg`'s drawing, for every language (``render()`` in the active one);
    ``style`` as :func:`design_drawing`."""
    damage = ShipDamage(
        hull_lost=ship.hull_lost,
        armour_lost=ship.armour_lost,
        crew_lost=ship.crew_lost,
        systems_lost=frozenset(str(s) for s in ship.systems_lost or []),
    )
    caption = f"{ship.name} ({ship.ship_class.name})" if ship.name else None
    return design_drawing(
        ship.ship_class.design_document,
        damage=damage,
        caption=caption,
        id_prefix=f"ship-{ship.pk}-",
        faction_name=ship.ship_class.faction.name,
        style=style,
    )


def ship_svg(ship: Ship) -> str:
    """Draw ``ship``'s class SSD with its damage (``hull_lost``, ``armour_lost``,
    ``crew_lost``, ``systems_lost``) crossed out; titled with the ship's name."""
    return ship_drawing(ship).render()
