"""WeasyPrint for the after-action report PDF, with a fetcher that reads only our static
files. Imported only where a PDF is rendered: importing WeasyPrint costs about 2 s, which
the URL configuration (and so every ``manage.py`` command) must not pay.
"""

from __future__ import annotations

import base64
import contextlib
import gc
import mimetypes
import threading
import urllib.parse
from collections.abc import Iterator
from typing import Any

from weasyprint import CSS, HTML, Document
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from battles.reports import pdf_svg_text
from battles.reports.data_uri import SVG_DATA_PREFIX
from campaign.core.markdown import STATIC_SCHEME, static_file

# The drawings' texts a run at a time, not glyph by glyph (WeasyPrint 70 only).
pdf_svg_text.install()

#: The report's stylesheets (static paths), given to WeasyPrint by :func:`pdf_document`
#: rather than linked from the page (``templates/reports/battle-print.html``).
PRINT_STYLESHEETS = ("css/fonts.css", "css/report.css")

# WeasyPrint joins a stylesheet's relative URLs (``url("../fonts/x.ttf")`` in
# ``admiralty-static:css/fonts.css``) with ``urllib.parse.urljoin``, which resolves paths
# only for the schemes listed here. The fetcher still serves nothing outside static/.
if STATIC_SCHEME not in urllib.parse.uses_relative:
    urllib.parse.uses_relative.append(STATIC_SCHEME)


class FetchRefused(ValueError):
    """Raised by :class:`StaticOnlyURLFetcher` for any URL it will not serve."""


class StaticOnlyURLFetcher(URLFetcher):
    """A WeasyPrint fetcher that serves only the project's static files.

    Accepts ``admiralty-static:<path>`` where ``<path>`` is inside ``STATICFILES_DIRS``
    (checked after resolving, see :func:`static_file`) and base64 SVG ``data:`` URLs
    (self-contained: what such a drawing links goes through this fetcher too); raises
    :class:`FetchRefused` for any other scheme (``file:``, ``http:``, other ``data:``…) and
    ``FileNotFoundError`` for a missing static file. Redirects are disabled. WeasyPrint
    catches these errors, logs a warning and renders without the resource
    (weasyprint/urls.py, ``fetch``).
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("timeout", 5)
        super().__init__(
            allowed_protocols={STATIC_SCHEME},
            allow_redirects=False,
            fail_on_errors=False,
            **kwargs,
        )

    def fetch(self, url: str, headers: dict | None = None) -> URLFetcherResponse:
        """Return the static file ``url`` names, or the SVG drawing a
        ``data:image/svg+xml;base64,`` URL holds (``svg_data_uri``: the report's own
        SSDs and map, inside the page); raise FetchRefused otherwise."""
        if url.startswith(SVG_DATA_PREFIX):
            body = base64.b64decode(url[len(SVG_DATA_PREFIX) :], validate=True)
            return URLFetcherResponse(url, body=body, headers={"Content-Type": "image/svg+xml"})
        scheme, _, rest = url.partition(":")
        if scheme.lower() != STATIC_SCHEME:
            raise FetchRefused(f"refused to fetch {url[:80]!r}: only project static files")
        path = static_file(rest)
        if path is None:
            raise FileNotFoundError(f"no static file for {url[:80]!r}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(
            url, body=path.read_bytes(), headers={"Content-Type": content_type}
        )


_sheets_lock = threading.Lock()
_sheets: dict[tuple, tuple[list[CSS], FontConfiguration]] = {}


def _stylesheets(fetcher: URLFetcher | None) -> tuple[list[CSS], FontConfiguration]:
    """:data:`PRINT_STYLESHEETS` parsed, and their ``@font-face`` fonts loaded, once per
    process and per version of the files (keyed by their modification times): about 7 %
    of a Miranda render (bench.reports). With a ``fetcher`` of the caller's (tests
    watching what is fetched), parsed afresh through it."""
    paths = [static_file(name) for name in PRINT_STYLESHEETS]
    if any(path is None for path in paths):
        raise FileNotFoundError(f"missing print stylesheet among {PRINT_STYLESHEETS}")
    key = tuple(path.stat().st_mtime_ns for path in paths)  # type: ignore[union-attr]
    if fetcher is None:
        with _sheets_lock:
            if key not in _sheets:
                _sheets.clear()
                _sheets[key] = _parse(StaticOnlyURLFetcher())
            return _sheets[key]
    return _parse(fetcher)


def _parse(fetcher: URLFetcher) -> tuple[list[CSS], FontConfiguration]:
    fonts = FontConfiguration()
    sheets = [
        CSS(url=f"{STATIC_SCHEME}:{name}", url_fetcher=fetcher, font_config=fonts)
        for name in PRINT_STYLESHEETS
    ]
    return sheets, fonts


def pdf_document(html: str, *, url_fetcher: URLFetcher | None = None) -> Document:
    """The laid-out WeasyPrint document of a page from ``battles.reports.context.pdf_page_html``
    with the report's stylesheets, fetching only the project's static files
    (:class:`StaticOnlyURLFetcher`, or ``url_fetcher``). Raises whatever WeasyPrint raises
    on a broken page."""
    fetcher = url_fetcher or StaticOnlyURLFetcher()
    sheets, fonts = _stylesheets(url_fetcher)
    return HTML(string=html, url_fetcher=fetcher).render(stylesheets=sheets, font_config=fonts)


_gc_lock = threading.Lock()
_gc_paused = 0  # renders under way in this process
_gc_was_enabled = True  # the collector's state when the first of them began


@contextlib.contextmanager
def _gc_paused_while_rendering() -> Iterator[None]:
    """Python's cycle collector off while WeasyPrint renders (on again after the last
    of concurrent renders in the process). A render allocates hundreds of thousands of
    boxes and styles, which set off about 180 collections, one of them over the whole
    heap (Django, WeasyPrint, fonts): with the collector off the Miranda PDF took
    0.78 s CPU instead of 0.93 s (best of 8, alternated in one process; the figures in
    :mod:`battles.reports.pdf_svg_text`). What a render leaves in cycles is freed at the next
    collection."""
    global _gc_paused, _gc_was_enabled
    with _gc_lock:
        if _gc_paused == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_paused += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_paused -= 1
            if _gc_paused == 0 and _gc_was_enabled:
                gc.enable()


def pdf_from_html(html: str) -> bytes:
    """PDF bytes of a page from ``battles.reports.context.pdf_page_html`` (:func:`pdf_document`)."""
    with _gc_paused_while_rendering():
        return pdf_document(html).write_pdf()
