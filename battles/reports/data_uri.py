"""Drawings as ``data:`` URLs for the printed report: the one kind of ``data:`` URL the
PDF's fetcher accepts (``battles.reports.pdf``), made by the ``svg_data_uri`` template
filter (``battles/templatetags/report_print.py``)."""

from __future__ import annotations

import base64

#: The only ``data:`` URLs the PDF's fetcher accepts (``battles.reports.pdf``).
SVG_DATA_PREFIX = "data:image/svg+xml;base64,"


def svg_data_uri(svg: str) -> str:
    """An SVG drawing (the project's own: an SSD, the battle's map) as a ``data:`` URL.

    In the PDF an ``<img>`` of it costs less than the same drawing inline: WeasyPrint
    parses it with ElementTree instead of its HTML parser, and leaves its hundreds of
    nodes out of the page's style cascade (about 7 % of the Miranda render,
    bench.reports)."""
    return SVG_DATA_PREFIX + base64.b64encode(str(svg).encode("utf-8")).decode("ascii")
