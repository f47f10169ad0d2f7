"""The frame of an SVG chart drawn with ElementTree (the site's charts, the standings'):
no style, no script, so a strict CSP (``style-src 'self'``) shows it; sizes and colours
are presentation attributes."""

from __future__ import annotations

import xml.etree.ElementTree as ET


def chart_svg(width: int, height: int, title: str) -> ET.Element:
    """An empty chart of ``width`` × ``height`` units with its title (tooltip and heading)."""
    svg = ET.Element(
        "svg",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width} {height}",
        width=str(width),
        height=str(height),
        role="img",
        attrib={"font-family": "sans-serif", "font-size": "12"},
    )
    ET.SubElement(svg, "title").text = title
    ET.SubElement(svg, "text", x=str(width // 2), y="24", attrib={"text-anchor": "middle",
                  "font-size": "16"}).text = title  # fmt: skip
    return svg
