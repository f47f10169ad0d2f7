"""SVG text drawn a run at a time in WeasyPrint 70 (the PDF's SSDs and map).

WeasyPrint 70 lays a ``<text>`` out once for its width, then again glyph by glyph (one
Pango layout and one PDF text object per character: ``weasyprint/svg/text.py``), so that
per-character ``x``/``dx``/``rotate`` lists and ``letter-spacing`` can place each glyph.
Our drawings (``factions/ssd/draw.py``, ``battles/log/battle_map.py``) use none of these: each
text has one ``x`` and one ``y``. For such a text, :func:`text` draws the layout already
made for the width, in one piece, with the same font, size, position, fill and anchor;
Pango also applies the font's kerning, as browsers do, and spaces are drawn, so a
reader copying from the PDF gets "Coque (3 cases)", not "Coque(3cases)". Any other text
goes to WeasyPrint's own function.

Measured on the Miranda PDF: its five SSDs hold 211 texts and 2 554 characters. Render
CPU, best (median) of 8 alternated in one process on a loaded machine: 0.93 s (1.10)
glyph by glyph, 0.82 s (0.92) a run at a time; 0.78 s (0.89) and 0.69 s (0.73) with the
cycle collector paused (``battles.reports.pdf``). Both together, load aside
(``python -m bench.reports --only miranda --counts``): 5.70 G instructions a render
before, 4.61 G after. The pages look the same (pdftoppm, before and after).
"""

from __future__ import annotations

from math import inf
from typing import Any

import weasyprint
import weasyprint.svg as wsvg
from weasyprint.draw.text import draw_emojis, draw_first_line
from weasyprint.matrix import Matrix
from weasyprint.svg.bounding_box import extend_bounding_box
from weasyprint.svg.text import TextBox
from weasyprint.svg.utils import normalize, size
from weasyprint.text.ffi import FROM_UNITS, pango
from weasyprint.text.line_break import create_layout, line_size

#: The version whose ``svg/text.py`` this module mirrors; with another, nothing is replaced.
WEASYPRINT_VERSION = "70.0"

#: WeasyPrint's own text function (``weasyprint.svg`` binds the name ``text`` to it).
_weasyprint_text = wsvg.text

# Attributes that place or stretch single glyphs: a text with any of them is drawn by
# WeasyPrint, glyph by glyph.
_PER_GLYPH = ("dx", "dy", "rotate", "textLength", "letter-spacing")


def _single(node: Any, name: str) -> bool:
    """Whether ``node``'s ``name`` attribute is absent or holds one value (a list is
    separated by spaces or commas)."""
    value = node.attrib.get(name)
    return value is None or not any(sep in value.strip() for sep in " ,\t\n")


def _style(svg: Any, node: Any, font_size: float) -> Any:
    """The text style WeasyPrint 70 builds (``svg/text.py``: initial values, the node's
    font family, style, weight and ``font_size``)."""
    from weasyprint.css.properties import INITIAL_VALUES
    from weasyprint.svg.text import Style

    style = Style()
    style.update(INITIAL_VALUES)
    style.font_config = svg.font_config
    style["font_family"] = [
        font.strip("\"'") for font in node.get("font-family", "sans-serif").split(",")
    ]
    style["font_style"] = node.get("font-style", "normal")
    weight = node.get("font-weight", 400)
    if node.get("direction") in ("ltr", "rtl"):
        style["direction"] = node.get("direction")
    if weight == "normal":
        weight = 400
    elif weight == "bold":
        weight = 700
    else:
        try:
            weight = int(weight)
        except ValueError:
            weight = 400
    style["font_weight"] = weight
    style["font_size"] = font_size
    return style


def text(svg: Any, node: Any, font_size: float) -> None:
    """Draw an SVG text node (``<text>``, ``<tspan>``…) on ``svg.stream``: in one run
    when it has at most one ``x`` and one ``y`` and nothing that places single glyphs,
    else through WeasyPrint's glyph-by-glyph function. Same signature and effects on
    ``svg`` (cursor, ``node.text_bounding_box``) as WeasyPrint's."""
    if (
        not node.text
        or any(name in node.attrib for name in _PER_GLYPH)
        or not (_single(node, "x") and _single(node, "y"))
        or node.get("dominant-baseline", node.get("alignment-baseline"))
        or node.get("display-anchor")
    ):
        return _weasyprint_text(svg, node, font_size)
    style = _style(svg, node, font_size)
    # One Pango layout, measured and drawn (split_first_line would release it and
    # drawing make it again: twice the cost).
    layout = create_layout(node.text, style, svg.context, inf, 0)
    first_line, resume = layout.get_first_line()
    if resume is not None:  # more than one line: leave it to WeasyPrint
        layout.deactivate()
        return _weasyprint_text(svg, node, font_size)
    width, height = line_size(first_line, style)
    baseline = pango.pango_layout_get_baseline(layout.layout) * FROM_UNITS
    x, y = svg.cursor_position
    if "x" in node.attrib:
        x = size(normalize(node.attrib["x"]).strip(), font_size, svg.inner_width)
        svg.cursor_d_position[0] = 0
    if "y" in node.attrib:
        y = size(normalize(node.attrib["y"]).strip(), font_size, svg.inner_height)
        svg.cursor_d_position[1] = 0
    x_position = x + svg.cursor_d_position[0]
    y_position = y + svg.cursor_d_position[1]
    svg.cursor_position = x + width, y
    node.text_bounding_box = extend_bounding_box(
        node.text_bounding_box,
        ((x_position, y_position - baseline), (x_position + width, y_position - baseline + height)),
    )

    svg.stream.push_state()
    fill, stroke = svg.set_graphical_state(node, font_size)
    svg.stream.begin_text()
    svg.fill_stroke(fill, stroke, text=True)
    text_box = TextBox(layout, style)
    text_box.baseline = baseline
    matrix = Matrix(a=1, d=-1, e=x_position, f=y_position)
    emojis = draw_first_line(svg.stream, text_box, "none", "none", matrix)
    layout.deactivate()
    svg.stream.end_text()
    svg.stream.pop_state()
    draw_emojis(svg.stream, style, x, y, emojis)
    return None


def install() -> bool:
    """Draw SVG texts with :func:`text` in this process (WeasyPrint
    :data:`WEASYPRINT_VERSION` only: another version keeps its own). Idempotent; returns
    whether :func:`text` is in use."""
    if weasyprint.__version__ != WEASYPRINT_VERSION:
        return False
    # ``draw_node`` tells text nodes by ``TAGS.get(tag) == text`` (the module's name):
    # both must change together.
    for tag, function in wsvg.TAGS.items():
        if function is _weasyprint_text:
            wsvg.TAGS[tag] = text
    wsvg.text = text
    return True
