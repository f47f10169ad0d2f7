"""The French PDF's losses table: each header stays inside its column ("Endommagés" and
"Retirés" ran together); a header wider than its column breaks at a syllable."""

from __future__ import annotations

import pytest
from django.utils import translation

from battles.reports.context import pdf_page_html
from battles.reports.pdf import pdf_document
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db


def _boxes(box, found):
    """Every text box of the laid-out page, with its position: (text, x, width)."""
    text = getattr(box, "text", None)
    if text:
        found.append((text, box.position_x, box.width))
    for child in getattr(box, "children", []) or []:
        _boxes(child, found)
    return found


def _cells(box, found, in_losses=False):
    """The losses table's header cells: (x, width, the text boxes inside)."""
    element = getattr(box, "element", None)
    classes = (element.get("class") or "") if element is not None else ""
    in_losses = in_losses or "losses" in classes.split()
    if in_losses and getattr(box, "element_tag", None) == "th":
        found.append((box.position_x, box.width + box.padding_left + box.padding_right,
                      _boxes(box, [])))  # fmt: skip
        return found
    for child in getattr(box, "children", []) or []:
        _cells(child, found, in_losses)
    return found


def test_the_losses_headers_fit_their_columns_in_french(cast):
    battle = make_battle(cast.campaign)
    with translation.override("fr"):
        document = pdf_document(pdf_page_html(battle))
    cells = [c for page in document.pages for c in _cells(page._page_box, [])]
    # A header's words, joined again across a break at a syllable (U+2010 hyphen).
    headers = ["".join(t for t, _tx, _tw in texts).replace("\u2010", "") for _x, _w, texts in cells]
    assert {"Endommagés", "Retirés"} <= set(headers), headers
    for x, width, texts in cells:
        for text, tx, tw in texts:
            # each header's words end inside the cell's box (padding included)
            assert tx + tw <= x + width + 0.01, (text, tx, tw, x, width)
