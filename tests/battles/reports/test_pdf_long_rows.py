"""A unit's row taller than a page (a long note) breaks across pages: its side's heading
stays with the table's start, and the table's header row repeats on the next page."""

from __future__ import annotations

import subprocess

import pytest

from battles.reports.context import pdf_page_html
from battles.reports.pdf import pdf_document
from tests.battles.reports.report_fixtures import make_battle

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

HEADING = "Collectif G+ — Test Ganesha force"
LONG_NOTE = "\n".join(
    f"Log line {i}: the carrier's damage control reported again." for i in range(160)
)


def _pages(data: bytes, tmp_path) -> list[str]:
    """The PDF's text page by page (poppler's pdftotext; pages split on form feeds)."""
    path = tmp_path / "report.pdf"
    path.write_bytes(data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True, text=True
    ).stdout
    return text.split("\f")


def test_a_row_taller_than_a_page_breaks_under_its_heading_and_the_header_repeats(tmp_path):
    battle = make_battle()
    participant = battle.sides.get(order=1).participants.get(ship__name="Vishnu Prime")
    participant.notes = LONG_NOTE
    participant.save()
    pages = _pages(pdf_document(pdf_page_html(battle)).write_pdf(), tmp_path)
    first = next(i for i, page in enumerate(pages) if HEADING in page)
    heading_page = pages[first]
    # The heading, the header row and the long row's start share a page …
    assert "Hull lost" in heading_page.split(HEADING, 1)[1]
    assert "Vishnu Prime" in heading_page.split(HEADING, 1)[1]
    assert "Log line 0:" in heading_page
    # … the row goes on over the next page, under the header row printed again.
    following = pages[first + 1]
    assert "Log line 159:" not in heading_page
    assert "Hull lost" in following
    assert following.index("Hull lost") < following.index("Log line")
