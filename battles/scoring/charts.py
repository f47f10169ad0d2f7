"""The standings' charts per turn (victory points, fleet strength) as inline SVG, drawn
with ElementTree as the site's other charts (``campaign.publish.charts``): no script, no
style element or attribute (a static host's CSP may say ``style-src 'self'``), every label
escaped. The standings page and the published site draw the same charts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from battles.scoring.table import Scoreboard
from campaign.core.svg_chart import chart_svg

#: One colour per faction, in the standings' order (then again).
COLOURS = (
    "rgb(12,55,149)",
    "rgb(117,38,65)",
    "rgb(228,127,0)",
    "rgb(21,121,60)",
    "rgb(120,72,160)",
    "rgb(0,128,140)",
    "rgb(150,120,0)",
    "rgb(90,90,90)",
)


def _ticks(top: int) -> list[int]:
    """Ticks from 0 to the first step at or above ``top``, on a step of 1, 2 or 5 × 10ⁿ
    chosen so that there are at most six steps."""
    step = 1
    while -(-top // step) > 6:
        for m in (2, 5, 10):
            if -(-top // (step * m)) <= 6 or m == 10:
                step *= m
                break
    return list(range(0, max(-(-top // step), 1) * step + 1, step))


def line_chart(
    title: str, turns: list[int], series: list[tuple[str, list[int]]]
) -> SafeString | None:
    """A line per series over ``turns`` (the x axis, "turn n"); ``series`` is
    ``[(name, values)]``, one value per turn. Each point has a tooltip ``"name, turn n:
    value"`` and each line ends with its last value. None when there is no turn or no
    series."""
    if not turns or not series:
        return None
    width, left, top, right = 640, 56, 44, 70
    height = 300 + 20 * ((len(series) + 2) // 3)
    plot_w, plot_h = width - left - right, 300 - top - 50
    ticks = _ticks(max((max(v, default=0) for _n, v in series), default=0))
    y_scale = plot_h / max(ticks[-1], 1)
    x_step = plot_w / max(len(turns) - 1, 1)
    svg = chart_svg(width, height, title)
    base = top + plot_h
    for tick in ticks:
        y = base - tick * y_scale
        ET.SubElement(svg, "line", x1=str(left), x2=str(left + plot_w), y1=f"{y:.1f}",
                      y2=f"{y:.1f}", stroke="rgba(0,0,0,0.15)")  # fmt: skip
        label = ET.SubElement(svg, "text", x=str(left - 6), y=f"{y + 4:.1f}")
        label.set("text-anchor", "end")
        label.text = str(tick)
    for i, turn in enumerate(turns):
        x = left + (i * x_step if len(turns) > 1 else plot_w / 2)
        label = ET.SubElement(svg, "text", x=f"{x:.1f}", y=str(base + 18))
        label.set("text-anchor", "middle")
        label.text = str(turn)
    axis = ET.SubElement(svg, "text", x=str(left + plot_w // 2), y=str(base + 36))
    axis.set("text-anchor", "middle")
    axis.text = _("campaign turn")
    for n, (name, values) in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        group = ET.SubElement(svg, "g", fill=colour, stroke=colour)
        ET.SubElement(group, "title").text = name
        points = []
        for i, (turn, value) in enumerate(zip(turns, values, strict=True)):
            x = left + (i * x_step if len(turns) > 1 else plot_w / 2)
            y = base - value * y_scale
            points.append(f"{x:.1f},{y:.1f}")
            dot = ET.SubElement(group, "circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r="3.5")
            ET.SubElement(dot, "title").text = _("%(name)s, turn %(turn)s: %(value)s") % {
                "name": name,
                "turn": turn,
                "value": value,
            }
        if len(points) > 1:
            line = ET.SubElement(group, "polyline", points=" ".join(points), fill="none")
            line.set("stroke-width", "2")
        end = ET.SubElement(group, "text", x=f"{x + 8:.1f}", y=f"{y + 4:.1f}", stroke="none")
        end.text = str(values[-1])
    x, y = float(left), 300.0
    for n, (name, _values) in enumerate(series):
        if n and n % 3 == 0:
            x, y = float(left), y + 20
        colour = COLOURS[n % len(COLOURS)]
        ET.SubElement(
            svg, "rect", x=f"{x:.0f}", y=f"{y - 10:.0f}", width="12", height="12", fill=colour
        )
        legend = ET.SubElement(svg, "text", x=f"{x + 18:.0f}", y=f"{y:.0f}")
        legend.text = name if len(name) <= 24 else name[:23] + "…"
        x += 190
    return mark_safe(ET.tostring(svg, encoding="unicode"))  # noqa: S308 - ElementTree escapes


def standings_charts(board: Scoreboard) -> dict[str, SafeString | None]:
    """The charts of ``board``: ``vp`` (cumulative victory points per turn), ``points``
    and ``mass`` (fleet strength at each turn close, construction points and mass of the
    seen fleets' active ships); each None when there is nothing to draw. Labels in the
    active language."""
    return {
        "vp": line_chart(_("Victory points by turn"), board.turns, board.vp_series),
        "points": line_chart(
            _("Fleet strength at each turn close (points)"),
            board.strength_turns,
            board.points_series,
        ),
        "mass": line_chart(
            _("Fleet strength at each turn close (mass)"), board.strength_turns, board.mass_series
        ),
    }
