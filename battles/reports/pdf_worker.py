"""What a process of the PDF pool runs (``battles.reports.pdfs``). Imports no model, at
any depth: a spawned worker unpickles these functions before :func:`init` has set Django
up (``battles.reports.pdf`` draws from HTML and static files only).

WeasyPrint (``battles.reports.pdf``) is imported by the functions, not by this module:
``battles.reports.pdfs`` imports this module, and the site builder imports that one, so a
module-level import cost every ``manage.py`` command about 0.8 s of CPU (bench/startup.py).
"""

from __future__ import annotations


def init() -> None:
    """The pool's initializer: the settings and Django's logging configuration in the new
    process, then WeasyPrint loaded once for all the pages it will render.

    Not ``django.setup()``: a page becomes a PDF from its HTML and the static files alone
    (``STATICFILES_DIRS``), no model, app or translation is read, and populating the apps
    cost each process about a second of CPU before its first page (bench/startup.py).
    The PDFs are the same bytes either way (tests/battles/reports/test_report_pdfs.py)."""
    from django.conf import settings
    from django.utils.log import configure_logging

    configure_logging(settings.LOGGING_CONFIG, settings.LOGGING)
    import battles.reports.pdf  # noqa: F401  (WeasyPrint, loaded lazily for start-up speed)


def pdf_bytes(html: str) -> bytes:
    """The PDF of one page of ``battles.reports.context.pdf_page_html`` (no database access)."""
    # WeasyPrint, loaded lazily for start-up speed (the module docstring).
    from battles.reports.pdf import pdf_from_html

    return pdf_from_html(html)
