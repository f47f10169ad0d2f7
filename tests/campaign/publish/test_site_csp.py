"""The baked site works under a static host's strict ``style-src 'self'``: no ``<style>``
element and no ``style=""`` attribute in any page, inline SVG (SSDs, charts) included;
the SSDs get their rules from the linked ``css/ssd.css`` and their fitted font sizes
from SVG attributes."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from campaign.publish import site_build
from campaign.sample.loader import sample_load
from factions.models import Ship
from factions.ssd.draw import ship_svg
from tests.conftest import ROOT


class _Styles(HTMLParser):
    """Every ``<style>`` element and ``style`` attribute of a page, and its stylesheets."""

    def __init__(self) -> None:
        super().__init__()
        self.inline: list[str] = []
        self.sheets: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "style":
            self.inline.append("<style>")
        self.inline += [f"<{tag} style={value!r}>" for name, value in attrs if name == "style"]
        attrs = dict(attrs)
        if tag == "link" and attrs.get("rel") == "stylesheet":
            self.sheets.append(attrs["href"].rsplit("static/", 1)[-1])

    handle_startendtag = handle_starttag


@pytest.fixture
def sample_site(db, settings, tmp_path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    sample_load()
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False)
    return out


def test_no_page_of_the_sample_site_carries_an_inline_style(sample_site):
    pages = sorted(sample_site.rglob("*.html"))
    found, tags = {}, set()
    for page in pages:
        parser = _Styles()
        parser.feed(page.read_text(encoding="utf-8"))
        tags |= parser.tags
        if parser.inline:
            found[page.relative_to(sample_site).as_posix()] = parser.inline[:3]
        if "<svg" in page.read_text(encoding="utf-8") and parser.sheets:
            assert "css/ssd.css" in parser.sheets, page
    # The scan saw what used to carry styles: SSDs (text) and charts (rect) inline.
    assert {"svg", "text", "rect", "link"} <= tags
    assert len(pages) > 50
    assert found == {}
    ship = next((sample_site / "en" / "ships").rglob("*.html")).read_text(encoding="utf-8")
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="ssd"' in ship
    assert re.search(r'<text x="20\.0" y="[\d.]+" class="title" font-size="[\d.]+">', ship)


def test_a_shrunk_ssd_title_gets_its_size_as_an_attribute_and_no_css_overrides_it(db):
    sample_load()

    ship = Ship.objects.filter(hull_lost__gt=0).order_by("pk").first()
    ship.name = "A very long ship name that cannot fit on the diagram's title line at all"
    svg = ship_svg(ship)
    title = re.search(r'<text [^>]*class="title"[^>]*>', svg).group(0)
    size = float(re.search(r'font-size="([\d.]+)"', title).group(1))
    assert 10 < size < 26 and "style=" not in svg.split("</style>", 1)[1]
    # A CSS font-size on these classes would win over the attribute: ssd.css has none.
    css = (ROOT / "static" / "css" / "ssd.css").read_text()
    for cls in ("title", "stats", "provisional"):
        rule = re.search(rf"\.ssd \.{cls}\{{([^}}]*)\}}", css)
        assert rule is None or "font-size" not in rule.group(1), cls
