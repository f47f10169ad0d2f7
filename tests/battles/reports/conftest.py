"""Fixtures of the report tests: a PDF rendering counter, the text of a PDF."""

import io

import pytest
from pypdf import PdfReader

from battles.reports import context as reports


@pytest.fixture
def pdf_renders(monkeypatch):
    """Count real PDF renderings: one entry (the page's length) per ``pdf_from_html`` call."""
    calls: list[int] = []
    original = reports.pdf_from_html

    def counting(html: str) -> bytes:
        calls.append(len(html))
        return original(html)

    monkeypatch.setattr(reports, "pdf_from_html", counting)
    return calls


def pdf_text(data: bytes) -> str:
    """The text of the PDF ``data``, page after page."""
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
