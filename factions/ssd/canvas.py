"""The SVG canvas the ship system diagrams (:mod:`factions.ssd.draw`) are drawn on: an
``ElementTree`` drawing that grows downwards, with the SSD's style sheet embedded.

Units: drawing units of 0.25 mm (:data:`UNITS_PER_MM`); the SVG is :data:`WIDTH` units
(190 mm) wide so it prints on A4 with margins. Every text is escaped by
``xml.etree.ElementTree``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET  # noqa: S405 - we only build and serialise, never parse
from pathlib import Path
from typing import Any

SVG_NS = "http://www.w3.org/2000/svg"
WIDTH = 760  # drawing units; 4 units per mm -> 190 mm
MARGIN = 20
UNITS_PER_MM = 4

#: The SSD's rules (static/css/ssd.css, also linked by the app's pages): embedded in each SVG
#: so that a standalone ``ssd.svg`` and the PDF draw the same.
STYLE = (Path(__file__).resolve().parents[2] / "static" / "css" / "ssd.css").read_text(
    encoding="utf-8"
)


class Canvas:
    """A growing SVG drawing; ``y`` is the next free line (drawing units)."""

    def __init__(self, id_prefix: str = "") -> None:
        self.id_prefix = id_prefix  # element ids stay unique when several SSDs share a page
        self.root = ET.Element(
            "svg", {"xmlns": SVG_NS, "class": "ssd", "version": "1.1", "role": "img"}
        )
        ET.SubElement(self.root, "style").text = STYLE
        self.y: float = MARGIN

    def el(self, parent: ET.Element | None, tag: str, **attrs: Any) -> ET.Element:
        clean = {k.rstrip("_").replace("__", "-"): str(v) for k, v in attrs.items()}
        if "id" in clean:
            clean["id"] = self.id_prefix + clean["id"]
        return ET.SubElement(self.root if parent is None else parent, tag, clean)

    def text(
        self,
        parent: ET.Element | None,
        x: float,
        y: float,
        s: str,
        cls: str,
        *,
        fit: float | None = None,
        size: float = 0,
    ) -> None:
        """A text; with ``fit`` (width in units) it is shrunk from ``size`` px to fit."""
        attrs: dict[str, Any] = {"x": f"{x:.1f}", "y": f"{y:.1f}", "class_": cls}
        if fit is not None and size:
            # ~0.6 em per character in DejaVu Sans: shrink long titles instead of clipping.
            # A presentation attribute, not style="": a strict CSP (style-src 'self') refuses
            # inline style attributes; ssd.css sets no font-size for these classes.
            attrs["font__size"] = f"{min(size, fit / (0.62 * max(1, len(s)))):.1f}"
        self.el(parent, "text", **attrs).text = s

    def label(self, parent: ET.Element, x: float, y: float, s: str, width: int) -> None:
        """A centred label cut to ``width`` characters; the full text goes in a tooltip."""
        short = s if len(s) <= width else s[: width - 1] + "…"
        el = self.el(parent, "text", x=f"{x:.1f}", y=f"{y:.1f}", class_="label")
        el.text = short
        if short != s:
            ET.SubElement(el, "title").text = s

    def cross(self, parent: ET.Element, x: float, y: float, w: float, h: float) -> None:
        self.el(
            parent,
            "path",
            d=(
                f"M{x:.1f},{y:.1f} L{x + w:.1f},{y + h:.1f} "
                f"M{x + w:.1f},{y:.1f} L{x:.1f},{y + h:.1f}"
            ),
            class_="cross",
        )

    def finish(self, title: str) -> str:
        height = self.y + MARGIN
        self.root.set("viewBox", f"0 0 {WIDTH} {height:g}")
        self.root.set("width", f"{WIDTH / UNITS_PER_MM:g}mm")
        self.root.set("height", f"{height / UNITS_PER_MM:g}mm")
        t = ET.Element("title")
        t.text = title
        self.root.insert(0, t)
        return ET.tostring(self.root, encoding="unicode")
