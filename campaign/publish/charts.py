"""Charts of the published site, drawn with pygal as inline SVG.

No JavaScript (``js=[]``, and pygal's inline config script removed) and no external
reference, so the charts work from ``file://``
and never load anything; pygal builds the SVG with ElementTree, which escapes every label
(https://www.pygal.org/en/stable/documentation/configuration/rendering.html).
"""

from __future__ import annotations

import hashlib
import re
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


def losses_chart(losses: list[tuple[str, dict[str, int]]]) -> SafeString | None:
    """Units destroyed, captured and damaged per side of a battle (SVG), or None.

    ``losses`` is ``report_context(battle)["losses"]``: ``(faction name, counts)`` pairs.
    """
    if not losses:
        return None
    chart = pygal.StackedBar(
        js=[],
        disable_xml_declaration=True,
        width=640,
        height=300,
        style=CleanStyle,
        legend_at_bottom=True,
    )
    chart.title = _("Units lost per side")
    chart.x_labels = [name for name, _counts in losses]
    chart.y_labels = _count_ticks(
        max(c["destroyed"] + c["captured"] + c["damaged"] for _name, c in losses)
    )
    chart.add(_("Destroyed"), [counts["destroyed"] for _name, counts in losses])
    chart.add(_("Captured"), [counts["captured"] for _name, counts in losses])
    chart.add(_("Damaged"), [counts["damaged"] for _name, counts in losses])
    return _render(chart)
