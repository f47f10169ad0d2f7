"""What a process of the PDF pool runs (``battles.reports.pdfs``). Imports no model, at
any depth: a spawned worker unpickles these functions before :func:`init` has set Django
up (``battles.reports.pdf`` draws from HTML and static files only)."""

from __future__ import annotations

from battles.reports.pdf import pdf_from_html


def init() -> None:
    """The pool's initializer: set Django up (settings, apps) in the new process."""
    import django

    django.setup()


def pdf_bytes(html: str) -> bytes:
    """The PDF of one page of ``battles.reports.context.pdf_page_html`` (no database access)."""

    return pdf_from_html(html)
