"""Content-Security-Policy helpers (django-csp; policy in ``campaign.settings``).

No inline script is allowed anywhere. The ship system diagrams are SVG drawn by
``factions.ssd.draw`` with their own ``<style>`` element (the same SVG serves the PDF and the
standalone ``ssd.svg``); a page that embeds one gives that element the request's CSP
nonce with :func:`nonce_styles`, so the policy needs no ``'unsafe-inline'`` for style
elements. Source: django-csp "Nonce usage" (https://django-csp.readthedocs.io/).

A file served as it was rendered (a report's HTML under ``/media/``) cannot carry a
per-request nonce: its response allows the SHA-256 of each of its own ``<style>``
elements (:func:`style_hashes`; CSP level 2 "hash-source").
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def nonce_styles(markup: str | None, request: Any) -> str | None:
    """``markup`` (trusted SVG/HTML built by our code) with the request's CSP nonce on each
    ``<style>`` element; unchanged without a request or nonce (PDF, site, tests)."""
    lazy = getattr(request, "csp_nonce", None) if request is not None else None
    # bool() of django-csp's lazy nonce says "already used", not "exists": test for None.
    if not markup or lazy is None or "<style>" not in str(markup):
        return markup
    tagged = str(markup).replace("<style>", f'<style nonce="{escape(str(lazy))}">')
    return mark_safe(tagged) if isinstance(markup, SafeString) else tagged  # noqa: S308


_STYLE_ELEMENT = re.compile(r"<style(?: [^>]*)?>.*?</style>", re.S)


def strip_styles(markup: str | None) -> str | None:
    """``markup`` (trusted SVG/HTML built by our code) without its ``<style>`` elements:
    for fragments that htmx swaps into a page, where no nonce of theirs can match the
    page's. The page links ``css/ssd.css``, which holds the same rules."""
    if not markup or "<style" not in str(markup):
        return markup
    stripped = _STYLE_ELEMENT.sub("", str(markup))
    return mark_safe(stripped) if isinstance(markup, SafeString) else stripped  # noqa: S308


_STYLE_CONTENT = re.compile(r"<style(?:\s[^>]*)?>(.*?)</style>", re.S | re.I)


def style_hashes(html: str) -> list[str]:
    """The CSP hash sources (``'sha256-<base64>'``) of the text of each ``<style>``
    element of ``html``, in order, without repeats; what a ``style-src`` directive must
    list for the browser to apply them."""
    found: list[str] = []
    for match in _STYLE_CONTENT.finditer(html):
        digest = hashlib.sha256(match.group(1).encode("utf-8")).digest()
        source = f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
        if source not in found:
            found.append(source)
    return found
