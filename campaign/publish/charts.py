"""Charts of the published site, drawn with ElementTree as inline SVG.

No JavaScript, no external reference and no style (neither a ``<style>`` element nor a
``style=""`` attribute, so a static host's CSP can say ``style-src 'self'``): colours and
sizes are SVG presentation attributes. The charts work from ``file://`` and never load
anything; ElementTree escapes every label. (pygal, used before, always embeds a
``<style>`` element, a ``<script>`` and ``style="opacity: 0"`` tooltips.)
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from campaign.core.svg_chart import chart_svg


def _count_ticks(top: int) -> list[int]:
    """Whole-number ticks from 0 to ``top`` (at most about ten of them)."""
    step = max(1, -(-top // 10))
    return list(range(0, max(top, 1) + step, step))


def standings_chart(standings: list[dict[str, Any]]) -> SafeString | None:
    """Battles won and lost per faction, as a horizontal bar chart (SVG), or None.

    ``standings`` rows have ``faction`` (with ``.name``), ``won`` and ``lost`` (battles).
    A row per faction, a bar for won and one for lost, each with its count at its end.
    """
    if not standings:
        return None
    series = [("won", _("Won")), ("lost", _("Lost"))]
    width, height, left, top, bottom = 640, 120 + 40 * len(standings), 170, 44, 60
    plot_w, plot_h = width - left - 32, height - top - bottom
    ticks = _count_ticks(max(max(r["won"], r["lost"]) for r in standings))
    scale = plot_w / max(ticks[-1], 1)
    svg = chart_svg(width, height, _("Battles won and lost"))
    for tick in ticks:
        x = left + tick * scale
        ET.SubElement(svg, "line", x1=f"{x:.1f}", x2=f"{x:.1f}", y1=str(top),
                      y2=str(top + plot_h), stroke="rgba(0,0,0,0.15)")  # fmt: skip
        ET.SubElement(svg, "text", x=f"{x:.1f}", y=str(top + plot_h + 16),
                      attrib={"text-anchor": "middle"}).text = str(tick)  # fmt: skip
    band = plot_h / len(standings)
    bar = min(band * 0.35, 24)
    for i, row in enumerate(standings):
        name = row["faction"].name
        y = top + band * i + (band - 2 * bar) / 2
        label = ET.SubElement(svg, "text", x=str(left - 8), y=f"{y + bar + 4:.1f}",
                              attrib={"text-anchor": "end"})  # fmt: skip
        label.text = name if len(name) <= 24 else name[:23] + "…"
        for (key, series_label), colour in zip(series, _COLOURS, strict=False):
            w = row[key] * scale
            rect = ET.SubElement(svg, "rect", x=str(left), y=f"{y:.1f}", width=f"{w:.1f}",
                                 height=f"{bar:.1f}", fill=colour)  # fmt: skip
            ET.SubElement(rect, "title").text = f"{name}: {series_label} {row[key]}"
            ET.SubElement(svg, "text", x=f"{left + w + 4:.1f}",
                          y=f"{y + bar / 2 + 4:.1f}").text = str(row[key])  # fmt: skip
            y += bar
    _legend(svg, [label for _k, label in series], left, height - 26)
    return mark_safe(ET.tostring(svg, encoding="unicode"))  # noqa: S308 - ElementTree escapes


def _legend(svg: ET.Element, labels: list[str], x: float, y: float) -> None:
    """A swatch of each series' colour (:data:`_COLOURS`, in order) and its label."""
    for label, colour in zip(labels, _COLOURS, strict=False):
        ET.SubElement(svg, "rect", x=str(x), y=str(y), width="12", height="12", fill=colour)
        ET.SubElement(svg, "text", x=str(x + 18), y=str(y + 10)).text = label
        x += 30 + 8 * len(label)


#: Series colours (pygal's CleanStyle, which the site used first).
_COLOURS = ("rgb(12,55,149)", "rgb(117,38,65)", "rgb(228,127,0)")


def losses_chart(losses: list[tuple[str, dict[str, int]]]) -> SafeString | None:
    """Units destroyed, captured and damaged per side of a battle (SVG), or None.

    ``losses`` is ``report_context(battle)["losses"]``: ``(faction name, counts)`` pairs.
    A stacked bar per side, drawn with ElementTree (which escapes every label): one on
    every battle page, and pygal took 10 ms a chart (200 s of a 20 000-page build,
    profiled) where this takes about 0.2 ms. Drawn once per language and losses: many
    battles lose the same (4 100 distinct losses among a generated league's 10 000).
    """
    if not losses:
        return None
    drawn = tuple((name, c["destroyed"], c["captured"], c["damaged"]) for name, c in losses)
    return _losses_chart(get_language(), drawn)


@functools.lru_cache(maxsize=8192)  # about 2 KB a chart
def _losses_chart(lang: str, losses: tuple[tuple[str, int, int, int], ...]) -> SafeString:
    # ``lang``: the labels' language (the active one), part of the cache key.
    series = [("destroyed", _("Destroyed")), ("captured", _("Captured")), ("damaged", _("Damaged"))]
    width, height, left, top, bottom = 640, 300, 48, 44, 70
    plot_h = height - top - bottom
    ticks = _count_ticks(max(sum(counts) for _n, *counts in losses))
    scale = plot_h / max(ticks[-1], 1)
    svg = chart_svg(width, height, _("Units lost per side"))
    plot_w = width - left - 16
    for tick in ticks:
        y = top + plot_h - tick * scale
        ET.SubElement(svg, "line", x1=str(left), x2=str(left + plot_w), y1=f"{y:.1f}",
                      y2=f"{y:.1f}", stroke="rgba(0,0,0,0.15)")  # fmt: skip
        ET.SubElement(svg, "text", x=str(left - 6), y=f"{y + 4:.1f}",
                      attrib={"text-anchor": "end"}).text = str(tick)  # fmt: skip
    slot = plot_w / len(losses)
    bar = min(slot * 0.6, 160)
    for i, (name, *counts) in enumerate(losses):
        x = left + slot * i + (slot - bar) / 2
        y = top + plot_h
        for (_key, label), colour, count in zip(series, _COLOURS, counts, strict=True):
            if count:
                h = count * scale
                y -= h
                rect = ET.SubElement(svg, "rect", x=f"{x:.1f}", y=f"{y:.1f}", width=f"{bar:.1f}",
                                     height=f"{h:.1f}", fill=colour)  # fmt: skip
                ET.SubElement(rect, "title").text = f"{name}: {label} {count}"
        ET.SubElement(svg, "text", x=f"{x + bar / 2:.1f}", y=str(top + plot_h + 18),
                      attrib={"text-anchor": "middle"}).text = name  # fmt: skip
    _legend(svg, [label for _k, label in series], left, height - 26)
    return mark_safe(ET.tostring(svg, encoding="unicode"))  # noqa: S308 - ElementTree escapes
