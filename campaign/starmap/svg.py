"""The star map drawn as SVG from a :class:`~campaign.starmap.view.MapView` (the app's
map page and the published site's map per turn).

Drawn with ElementTree like ``campaign.publish.charts``: no script, no ``<style>`` and no
``style=""`` attribute (the CSP's ``style-src 'self'``), colours and sizes as presentation
attributes, every label escaped. Map units are the view's (0–1 000, y downwards) with a
60-unit margin; labels are 28 units high, so the whole map stays legible down to about
700 px wide — narrower (a phone at 390 px) the page scrolls it sideways at that size
(``.starmap-scroll`` in ``static/css/admiralty.css``) and lists systems and fleets below.

Systems are discs in their holder's colour (grey: none or contested), links lines with
their travel time in turns at the middle, fleets small diamonds in their faction's colour
beside their system or on their link, 60 % of the way towards the system they head for.
Every shape has a ``<title>`` (a tooltip, and what a screen reader reads).

The fog of war's contacts (hidden enemy fleets the reader's sensors see, unnamed:
``MapView.contacts``) are hollow amber rings below their system or at the middle of their
link; last-known positions (``MapView.sightings``) dashed grey rings. Their titles give
the contact's label and size in blips, never a fleet's name.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from campaign.starmap.view import ContactView, FleetView, MapView, SightingView

MARGIN = 60
SIZE = 1000
#: Faction colours, by faction id modulo their number (dark enough for white text).
PALETTE = (
    "rgb(12,55,149)",
    "rgb(160,30,40)",
    "rgb(20,110,60)",
    "rgb(190,100,0)",
    "rgb(100,40,140)",
    "rgb(0,120,140)",
    "rgb(120,80,40)",
    "rgb(170,40,120)",
)
NEUTRAL = "rgb(130,130,130)"


def faction_colour(faction_id: int | None) -> str:
    """The colour of a faction on the map (:data:`PALETTE`), grey for None."""
    return NEUTRAL if faction_id is None else PALETTE[faction_id % len(PALETTE)]


def _fleet_title(f: FleetView) -> str:
    ships = ngettext("%(n)s ship", "%(n)s ships", f.ships) % {"n": f.ships}
    return f"{f.name} ({f.faction_name}), {ships}"


def draw_map(view: MapView, *, title: str = "", current: int | None = None) -> SafeString:
    """The map as an ``<svg>`` element (safe HTML). ``title``: its heading and tooltip
    (default "Star map"); ``current``: a system id drawn with a ring (the page's focus).
    Sizes in map units; the element scales to its container (``width="100%"``)."""
    title = title or _("Star map")
    lo, span = -MARGIN, SIZE + 2 * MARGIN
    svg = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"{lo} {lo} {span} {span}",
        width="100%",
        role="img",
        attrib={"font-family": "sans-serif", "font-size": "28", "class": "starmap"},
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "rect", x=str(lo), y=str(lo), width=str(span), height=str(span),
                  fill="rgb(14,18,38)")  # fmt: skip
    where = {s.id: (s.x, s.y) for s in view.systems}
    for lk in view.links:
        (x1, y1), (x2, y2) = where[lk.a_id], where[lk.b_id]
        line = ET.SubElement(svg, "line", x1=str(x1), y1=str(y1), x2=str(x2), y2=str(y2),
                             stroke="rgb(150,160,200)", attrib={"stroke-width": "4"})  # fmt: skip
        turns = ngettext("%(n)s turn", "%(n)s turns", lk.travel_turns) % {"n": lk.travel_turns}
        ET.SubElement(line, "title").text = _("%(place)s: %(what)s") % {
            "place": f"{lk.a_name} – {lk.b_name}",
            "what": turns,
        }
        ET.SubElement(svg, "text", x=str((x1 + x2) // 2), y=str((y1 + y2) // 2 - 8),
                      fill="rgb(200,205,230)", attrib={"text-anchor": "middle",
                      "font-size": "24"}).text = str(lk.travel_turns)  # fmt: skip
    for s in view.systems:
        group = ET.SubElement(svg, "g")
        ET.SubElement(group, "title").text = (
            _("%(place)s: %(what)s") % {"place": s.name, "what": s.holder_name}
            if s.holder_name
            else s.name
        )
        if current == s.id:
            ET.SubElement(group, "circle", cx=str(s.x), cy=str(s.y), r="34", fill="none",
                          stroke="rgb(255,220,90)", attrib={"stroke-width": "6"})  # fmt: skip
        ET.SubElement(group, "circle", cx=str(s.x), cy=str(s.y), r="22",
                      fill=faction_colour(s.holder_id), stroke="white",
                      attrib={"stroke-width": "3"})  # fmt: skip
        ET.SubElement(group, "text", x=str(s.x), y=str(s.y + 56), fill="white",
                      attrib={"text-anchor": "middle"}).text = s.name  # fmt: skip
    by_system: dict[int, list[FleetView]] = {}
    links = {lk.id: lk for lk in view.links}
    for f in view.fleets:
        if f.system_id is not None:
            by_system.setdefault(f.system_id, []).append(f)
            continue
        link = links.get(f.link_id)
        if link is None or f.heading_id not in where:
            continue
        start = where[link.a_id if f.heading_id == link.b_id else link.b_id]
        end = where[f.heading_id]
        x = start[0] + (end[0] - start[0]) * 0.6
        y = start[1] + (end[1] - start[1]) * 0.6
        _diamond(svg, x, y, f)
    for system_id, fleets in by_system.items():
        x, y = where[system_id]
        for i, f in enumerate(fleets):
            _diamond(svg, x + 40 + 30 * (i % 4), y - 30 + 30 * (i // 4), f)
    marks: dict[int, int] = {}  # contacts drawn so far below each system
    for c in [*view.contacts, *view.sightings]:
        if c.system_id in where:
            i = marks[c.system_id] = marks.get(c.system_id, -1) + 1
            x, y = where[c.system_id]
            _ring(svg, x - 40 - 30 * (i % 4), y - 30 + 30 * (i // 4), c)
            continue
        link = view.link(c.link_id)
        if link is not None:
            (x1, y1), (x2, y2) = where[link.a_id], where[link.b_id]
            _ring(svg, (x1 + x2) / 2, (y1 + y2) / 2 + 24, c)
    return mark_safe(ET.tostring(svg, encoding="unicode"))  # noqa: S308 - ElementTree escapes


def _diamond(svg: ET.Element, x: float, y: float, f: FleetView) -> None:
    r = 13
    points = f"{x:.0f},{y - r:.0f} {x + r:.0f},{y:.0f} {x:.0f},{y + r:.0f} {x - r:.0f},{y:.0f}"
    shape = ET.SubElement(svg, "polygon", points=points, fill=faction_colour(f.faction_id),
                          stroke="white", attrib={"stroke-width": "2"})  # fmt: skip
    ET.SubElement(shape, "title").text = _fleet_title(f)


def _ring(svg: ET.Element, x: float, y: float, c: ContactView | SightingView) -> None:
    """A contact (amber ring) or a last-known position (dashed grey ring)."""
    blips = ngettext("%(n)s blip", "%(n)s blips", c.blips) % {"n": c.blips}
    attrib = {"stroke-width": "4"}
    if isinstance(c, SightingView):
        attrib["stroke-dasharray"] = "6 4"
        stroke = NEUTRAL
        title = _("%(label)s (%(blips)s), last seen at the close of turn %(turn)s") % {
            "label": c.label,
            "blips": blips,
            "turn": c.turn,
        }
    else:
        stroke = "rgb(255,190,60)"
        title = _("Contact %(label)s (%(blips)s)") % {"label": c.label, "blips": blips}
    shape = ET.SubElement(svg, "circle", cx=f"{x:.0f}", cy=f"{y:.0f}", r="11", fill="none",
                          stroke=stroke, attrib=attrib)  # fmt: skip
    ET.SubElement(shape, "title").text = title
