"""WeasyPrint for the after-action report PDF, with a fetcher that reads only our static
files. Imported only where a PDF is rendered: importing WeasyPrint costs about 2 s, which
the URL configuration (and so every ``manage.py`` command) must not pay (issue 12).
"""

from __future__ import annotations

import mimetypes
import urllib.parse
from typing import Any

from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .reports import STATIC_SCHEME, static_file

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
    (checked after resolving, see :func:`static_file`); raises :class:`FetchRefused` for
    any other scheme (``file:``, ``http:``, ``https:``, ``data:``…) and
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
        """Return the static file ``url`` names; raise FetchRefused otherwise."""
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


def pdf_from_html(html: str) -> bytes:
    """PDF bytes of a page from ``battles.reports.pdf_page_html``, fetching only the
    project's static files. Raises whatever WeasyPrint raises on a broken page."""
    return HTML(string=html, url_fetcher=StaticOnlyURLFetcher()).write_pdf()
