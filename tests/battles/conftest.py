"""Fixtures of the report and task tests: a scratch media folder, a PDF rendering counter."""

import pytest

from battles import reports


@pytest.fixture
def media(settings, tmp_path):
    """``MEDIA_ROOT`` in a fresh folder (reports are written under it)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


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
