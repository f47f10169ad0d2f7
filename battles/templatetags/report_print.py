"""Template helpers of the printed report (``templates/reports/battle.html`` with
``print``): a drawing as an image the PDF decodes by itself."""

from __future__ import annotations

import base64

from django import template

register = template.Library()

#: The only ``data:`` URLs the PDF's fetcher accepts (``battles.reports.pdf``).
SVG_DATA_PREFIX = "data:image/svg+xml;base64,"


@register.filter
def svg_data_uri(svg: str) -> str:
    """An SVG drawing (the project's own: an SSD, the battle's map) as a ``data:`` URL.

    In the PDF an ``<img>`` of it costs less than the same drawing inline: WeasyPrint
    parses it with ElementTree instead of its HTML parser, and leaves its hundreds of
    nodes out of the page's style cascade (about 7 % of the Miranda render,
    bench.reports)."""
    return SVG_DATA_PREFIX + base64.b64encode(str(svg).encode("utf-8")).decode("ascii")
