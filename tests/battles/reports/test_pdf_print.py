"""PDFs that look printed: shipped fonts, running headers and page numbers,
a table of contents and annexes for long reports, long URLs that wrap, no page holding
only the footer, and nothing fetched outside the project's static files."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from battles.reports.context import pdf_page_html
from battles.reports.pdf import StaticOnlyURLFetcher, pdf_document
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db

LONG_URL = "https://example.org/" + "very-long-path-segment/" * 12 + "x" * 60


def _render(battle):
    fetched: list[str] = []

    class Spy(StaticOnlyURLFetcher):
        def fetch(self, url, headers=None):
            fetched.append(url)
            return super().fetch(url, headers)

    document = pdf_document(pdf_page_html(battle), url_fetcher=Spy())
    return document, document.write_pdf(), fetched


def _overflow(document) -> float:
    """How far (CSS px) the widest box reaches past its page's right edge."""
    worst = 0.0
    for page in document.pages:
        for box in page._page_box.descendants():
            if getattr(box, "width", None) is not None and hasattr(box, "position_x"):
                worst = max(worst, box.position_x + box.margin_width() - page.width)
    return worst


def test_the_overflow_measure_sees_a_box_wider_than_the_page():
    from weasyprint import HTML

    html = f'<table><tr><td><span style="white-space: nowrap">{LONG_URL}</span></td></tr></table>'
    assert _overflow(HTML(string=html).render()) > 0  # control for the next test


def test_a_long_url_in_a_note_and_the_narrative_wraps_inside_the_page():
    battle = make_battle(narrative=f"See {LONG_URL} for the map.")
    participant = battle.sides.first().participants.first()
    participant.notes = f"Source: {LONG_URL}"
    participant.save()
    document, _, _ = _render(battle)
    assert _overflow(document) <= 0.5


def test_fonts_are_the_shipped_ones_fetched_through_the_static_fetcher():
    document, data, fetched = _render(make_battle())
    assert "admiralty-static:css/fonts.css" in fetched
    assert any(url.endswith("fonts/DejaVuSerif.ttf") for url in fetched)
    # The static files, and the SSD of the damaged ship drawn inside the page.
    assert all(
        url.startswith(("admiralty-static:", "data:image/svg+xml;base64,")) for url in fetched
    )
    reader = PdfReader(io.BytesIO(data))
    fonts = {
        str(font.get_object()["/BaseFont"]).split("+")[-1]
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    # WeasyPrint names an @font-face font after its family: "Admiralty-…" for the report's
    # text, "DejaVu-Sans…" for the SSD drawings (fonts.css maps that family to our files).
    assert {n for n in fonts if not n.startswith(("Admiralty-", "DejaVu-Sans"))} == set()
    assert any(url.endswith("fonts/DejaVuSans.ttf") for url in fetched)


def test_every_page_numbered_with_the_total_and_headed_after_the_first():
    battle = make_battle(narrative="\n\n".join(["A paragraph of the narrative. " * 40] * 12))
    _, data, _ = _render(battle)
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert f"{number} / {len(pages)}" in text
    assert all("Colonisation compromise" in text for text in pages[1:])  # running header


def test_the_last_page_holds_more_than_the_footer():
    _, data, _ = _render(make_battle())
    last = PdfReader(io.BytesIO(data)).pages[-1].extract_text()
    body = [line for line in last.splitlines() if "Admiralty ·" not in line and " / " not in line]
    assert len("".join(body)) > 40, last


def test_a_long_report_has_a_table_of_contents_with_page_numbers_and_a_roster_annex():
    battle = make_battle(narrative="\n\n".join(["Long narrative paragraph. " * 60] * 10))
    _, data, _ = _render(battle)
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]
    assert "Sommaire" in pages[0] or "Contents" in pages[0]
    assert any("roster" in text.lower() or "état des forces" in text.lower() for text in pages)
