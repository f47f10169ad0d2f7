"""Markdown written by people (faction, fleet, territory descriptions) → safe HTML for pages.

Python-Markdown turns the text into HTML; nh3 (the ammonia sanitiser) then keeps an
allow-list of tags and attributes, so ``<script>``, event handlers (``onerror``…) and
``javascript:`` links come out inert. Images are dropped: descriptions on the web pages
never load anything from elsewhere. The reports helper's ``battles.reports.render_markdown``
does the same job for reports; pages use it when it exists so both share one allow-list.
"""

from __future__ import annotations

import markdown as md
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "code", "pre", "blockquote",
    "ul", "ol", "li", "h2", "h3", "h4", "h5", "h6",
    "table", "thead", "tbody", "tr", "th", "td", "a", "abbr", "sup", "sub",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "th": {"align"}, "td": {"align"}}
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}


def markdown_to_safe_html(text: str) -> SafeString:
    """Render Markdown ``text`` to sanitised HTML, marked safe for templates.

    Returns an empty string for empty input. Raw HTML in the text is sanitised, not
    trusted: only the tags of ``ALLOWED_TAGS`` survive, links keep ``http``, ``https`` and
    ``mailto`` schemes (or relative URLs) and get ``rel="noopener noreferrer"``.
    Sources: Python-Markdown and nh3 documentation (``nh3.clean``).
    """
    if not text:
        return mark_safe("")  # noqa: S308 - constant empty string
    html = md.markdown(text, extensions=["tables", "sane_lists"], output_format="html")
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags={"script", "style"},
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=ALLOWED_URL_SCHEMES,
    )
    return mark_safe(cleaned)  # noqa: S308 - sanitised by nh3 just above


def render_markdown(text: str) -> SafeString:
    """Sanitised HTML for ``text``: the reports sanitiser when present, else ours.

    ``battles.reports.render_markdown`` is written by the reports helper; using it keeps
    one allow-list for pages, reports and the baked site once it lands.
    """
    try:
        from battles.reports import render_markdown as reports_render_markdown
    except ImportError:
        return markdown_to_safe_html(text)
    return mark_safe(str(reports_render_markdown(text)))  # noqa: S308 - sanitised there
