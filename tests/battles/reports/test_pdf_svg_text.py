"""SVG texts drawn a run at a time in the PDF (battles/reports/pdf_svg_text.py, for speed):
the same words in the same places as WeasyPrint's glyph-by-glyph drawing, one text
object per text instead of one per character, and WeasyPrint's own drawing for texts
that place single glyphs."""

from __future__ import annotations

import io
import re

import pytest
import weasyprint.svg as wsvg
from pypdf import PdfReader

from battles.reports import pdf_svg_text
from battles.reports.data_uri import svg_data_uri
from battles.reports.pdf import pdf_document

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100mm" height="40mm" viewBox="0 0 400 160">'
    "<style>.c{text-anchor:middle;font-size:12px}</style>"
    '<text x="10" y="30" font-family="DejaVu Sans" font-size="20">Coque (3 cases)</text>'
    '<text x="200" y="90" class="c" font-family="DejaVu Sans">pont de commandement</text>'
    "</svg>"
)
LETTERS = len("Coque (3 cases)") + len("pont de commandement")


@pytest.fixture
def glyph_by_glyph(monkeypatch):
    """WeasyPrint's own SVG text drawing, for comparison."""
    original = pdf_svg_text._weasyprint_text
    monkeypatch.setattr(wsvg, "text", original)
    for tag, function in list(wsvg.TAGS.items()):
        if function is pdf_svg_text.text:
            monkeypatch.setitem(wsvg.TAGS, tag, original)


def _render(svg: str) -> tuple[bytes, str, list[tuple[str, float]]]:
    """(uncompressed PDF, its text, [(text, x in PDF points) of each shown string])."""
    data = pdf_document(f'<img src="{svg_data_uri(svg)}">').write_pdf(uncompressed_pdf=True)
    page = PdfReader(io.BytesIO(data)).pages[0]
    shown: list[tuple[str, float]] = []

    def visit(text, cm, tm, font_dict, font_size):
        if text.strip():
            shown.append((text, (cm[0] * tm[4] + cm[2] * tm[5] + cm[4])))

    page.extract_text(visitor_text=visit)
    return data, page.extract_text(), shown


def _text_matrices(data: bytes) -> int:
    """Text matrices set in the PDF beyond those of the page without the texts (its
    margin boxes: the page number)."""
    empty = re.sub(r"<text.*</text>", "", SVG)
    count = len(re.findall(rb" Tm\b", _render(empty)[0]))
    return len(re.findall(rb" Tm\b", data)) - count


def test_installed_for_the_pinned_weasyprint():
    assert wsvg.TAGS["text"] is pdf_svg_text.text
    assert wsvg.TAGS["tspan"] is pdf_svg_text.text
    assert wsvg.text is pdf_svg_text.text  # draw_node tells text nodes by this name


def test_each_text_is_one_run():
    data, text, _ = _render(SVG)
    assert "Coque (3 cases)" in text
    assert "pont de commandement" in text
    assert _text_matrices(data) == 2


def test_weasyprint_draws_the_same_words_glyph_by_glyph(glyph_by_glyph):
    data, text, _ = _render(SVG)
    # Control: one text matrix a glyph, and no space glyph drawn (a lone space is
    # skipped), so a reader copying from the PDF got "Coque(3cases)".
    assert _text_matrices(data) == LETTERS - 4  # 4 spaces
    assert "Coque(3cases)" in text


def _start(shown: list[tuple[str, float]]) -> float:
    """x (PDF points) where the start-anchored text begins (its leftmost shown string;
    the centred one is drawn in a form XObject whose matrix the visitor does not see)."""
    return min(x for s, x in shown if s.strip() and s.strip()[0] in "Coque(3cases)")


def test_a_run_starts_where_weasyprint_starts_it(request):
    ours = _start(_render(SVG)[2])
    request.getfixturevalue("glyph_by_glyph")
    theirs = _start(_render(SVG)[2])
    assert ours == pytest.approx(theirs, abs=0.01)
    assert ours > 0


def test_a_text_that_places_single_glyphs_is_left_to_weasyprint():
    svg = SVG.replace('font-size="20">', 'font-size="20" dx="0 2 2 2">', 1)
    data, text, _ = _render(svg)
    assert "pont de commandement" in text
    # Glyph by glyph (13 letters, the 2 spaces skipped), the other text in one run.
    assert _text_matrices(data) == len("Coque (3 cases)") - 2 + 1
