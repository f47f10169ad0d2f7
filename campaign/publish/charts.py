"""Charts of the published site, drawn with pygal as inline SVG.

No JavaScript (``js=[]``, and pygal's inline config script removed) and no external
reference, so the charts work from ``file://``
and never load anything; pygal builds the SVG with ElementTree, which escapes every label
(https://www.pygal.org/en/stable/documentation/configuration/rendering.html).
"""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET
from typing import Any

import pygal
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from pygal.style import CleanStyle

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL | re.IGNORECASE)


def _render(chart: Any) -> SafeString:
    # pygal always embeds a <script> with its tooltip config (even with js=[]); a baked
    # page needs none, so it goes. ElementTree escapes "<" in text, so the first literal
    # "</script>" closes the element.
    svg = _SCRIPT.sub("", chart.render(is_unicode=True))
    if "<script" in svg.lower():
        raise ValueError("chart SVG still holds a script")
    # pygal names each chart with a random uuid: name it after its content instead, so
    # an unchanged page stays byte-identical and an incremental build skips it.
    found = _UUID.search(svg)
    if found:
        stable = hashlib.sha256(svg.replace(found.group(0), "").encode()).hexdigest()
        svg = svg.replace(
            found.group(0),
            f"{stable[:8]}-{stable[8:12]}-{stable[12:16]}-{stable[16:20]}-{stable[20:32]}",
        )
    return mark_safe(svg)  # noqa: S308 - built by pygal/ElementTree from escaped labels


def _count_ticks(top: int) -> list[int]:
    """Whole-number ticks from 0 to ``top`` (at most about ten of them)."""
    step = max(1, -(-top // 10))
    return list(range(0, max(top, 1) + step, step))


def standings_chart(standings: list[dict[str, Any]]) -> SafeString | None:
    """Battles won and lost per faction, as a horizontal bar chart (SVG), or None.

    ``standings`` rows have ``faction`` (with ``.name``), ``won`` and ``lost`` (battles).
    """
    if not standings:
        return None
    chart = pygal.HorizontalBar(
        js=[],
        disable_xml_declaration=True,
        width=640,
        height=120 + 40 * len(standings),
        style=CleanStyle,
        legend_at_bottom=True,
        print_values=True,
    )
    chart.title = _("Battles won and lost")
    chart.x_labels = [row["faction"].name for row in standings]
    chart.y_labels = _count_ticks(max(max(r["won"], r["lost"]) for r in standings))
    chart.add(_("Won"), [row["won"] for row in standings])
    chart.add(_("Lost"), [row["lost"] for row in standings])
    return _render(chart)


#: pygal's CleanStyle series colours, so both charts of the site look alike.
_COLOURS = ("rgb(12,55,149)", "rgb(117,38,65)", "rgb(228,127,0)")


def losses_chart(losses: list[tuple[str, dict[str, int]]]) -> SafeString | None:
    """Units destroyed, captured and damaged per side of a battle (SVG), or None.

    ``losses`` is ``report_context(battle)["losses"]``: ``(faction name, counts)`` pairs.
    A stacked bar per side, drawn with ElementTree (which escapes every label): one on
    every battle page, and pygal took 10 ms a chart (200 s of a 20 000-page build, issue
    12 profile) where this takes about 0.2 ms.
    """
    if not losses:
        return None
    series = [("destroyed", _("Destroyed")), ("captured", _("Captured")), ("damaged", _("Damaged"))]
    width, height, left, top, bottom = 640, 300, 48, 44, 70
    plot_h = height - top - bottom
    ticks = _count_ticks(max(sum(c[k] for k, _l in series) for _n, c in losses))
    scale = plot_h / max(ticks[-1], 1)
    svg = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width} {height}",
        width=str(width),
        height=str(height),
        role="img",
        attrib={"font-family": "sans-serif", "font-size": "12"},
    )
    title = _("Units lost per side")
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "text", x=str(width // 2), y="24", attrib={"text-anchor": "middle",
                  "font-size": "16"}).text = title  # fmt: skip
    plot_w = width - left - 16
    for tick in ticks:
        y = top + plot_h - tick * scale
        ET.SubElement(svg, "line", x1=str(left), x2=str(left + plot_w), y1=f"{y:.1f}",
                      y2=f"{y:.1f}", stroke="rgba(0,0,0,0.15)")  # fmt: skip
        ET.SubElement(svg, "text", x=str(left - 6), y=f"{y + 4:.1f}",
                      attrib={"text-anchor": "end"}).text = str(tick)  # fmt: skip
    slot = plot_w / len(losses)
    bar = min(slot * 0.6, 160)
    for i, (name, counts) in enumerate(losses):
        x = left + slot * i + (slot - bar) / 2
        y = top + plot_h
        for (key, label), colour in zip(series, _COLOURS, strict=True):
            if counts[key]:
                h = counts[key] * scale
                y -= h
                rect = ET.SubElement(svg, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{bar:.1f}",
                                     height=f"{h:.1f}", fill=colour)  # fmt: skip
                ET.SubElement(rect, "title").text = f"{name}: {label} {counts[key]}"
        ET.SubElement(svg, "text", x=f"{x + bar / 2:.1f}", y=str(top + plot_h + 18),
                      attrib={"text-anchor": "middle"}).text = name  # fmt: skip
    legend_x = left
    for (_key, label), colour in zip(series, _COLOURS, strict=True):
        ET.SubElement(svg, "rect", x=str(legend_x), y=str(height - 26), width="12",
                      height="12", fill=colour)  # fmt: skip
        ET.SubElement(svg, "text", x=str(legend_x + 18), y=str(height - 16)).text = label
        legend_x += 30 + 8 * len(label)
    return mark_safe(ET.tostring(svg, encoding="unicode"))  # noqa: S308 - ElementTree escapes
