"""People's Markdown made safe for the reports' three renderings: Python-
Markdown with tables, footnotes and heading ids, sanitised by nh3 (ids kept, prefixed per
fragment so two fragments never clash), and the project's static files as the only assets
a PDF may fetch. Sources: Python-Markdown and nh3 documentation.
"""

from __future__ import annotations

import functools
import html as html_lib
import re
import threading
import unicodedata
from pathlib import Path
from urllib.parse import unquote, urlsplit

import markdown
import markdown.extensions
import nh3
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions.toc import remove_fnrefs, render_inner_html, strip_tags
from markdown.inlinepatterns import LINK_RE, LinkInlineProcessor
from markdown.treeprocessors import Treeprocessor

#: The only scheme the PDF fetcher serves: ``admiralty-static:css/report.css``.
STATIC_SCHEME = "admiralty-static"
PDF_ASSET_PREFIX = f"{STATIC_SCHEME}:"

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "img", "li", "ol", "p", "pre", "s", "small", "strong",
    "sub", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "img": {"src", "alt", "title"},
    "td": {"align"},
    "th": {"align"},
    **{tag: {"id"} for tag in ("h1", "h2", "h3", "h4", "h5", "h6", "li", "sup", "dt")},
}
#: Classes Python-Markdown's footnotes use (styled in report.css); any other is dropped.
ALLOWED_CLASSES = {"div": {"footnote"}, "a": {"footnote-ref", "footnote-backref"}}
LINK_SCHEMES = {"http", "https", "mailto"}
# Tags removed with their content (the rest of a disallowed tag's text is kept).
DROPPED_WITH_CONTENT = {"script", "style", "iframe", "object", "embed", "template"}
_IMG_WITHOUT_SRC = re.compile(r"<img(?![^>]*\ssrc=)[^>]*>")


# --- static files --------------------------------------------------------------------


def static_file(relative: str) -> Path | None:
    """Return the project static file ``relative`` names, or None.

    ``relative`` is a path inside ``STATICFILES_DIRS`` such as ``css/report.css``; a
    leading ``/static/`` or ``static/`` (``STATIC_URL``) is accepted. The resolved path must
    stay inside one of the static folders (no ``..`` escape, no symlink out) and be a file.
    """
    path = unquote(urlsplit(relative).path)
    static_url = "/" + settings.STATIC_URL.strip("/") + "/"
    if path.startswith(static_url):
        path = path[len(static_url) :]
    elif path.startswith(static_url[1:]):
        path = path[len(static_url) - 1 :]
    path = path.lstrip("/")
    if not path or "\x00" in path:
        return None
    for folder in settings.STATICFILES_DIRS:
        root = Path(folder).resolve()
        candidate = (root / path).resolve()
        if candidate.is_relative_to(root) and candidate.is_file():
            return candidate
    return None


# --- Markdown -> safe HTML -----------------------------------------------------------

#: The longest text a person may store in one Markdown field (characters): a narrative of
#: ~40 printed pages. ``battles.reports.desk`` refuses more with a message naming the field.
MAX_MARKDOWN_CHARS = 60_000


class _LinkProcessor(LinkInlineProcessor):
    """Python-Markdown's link parser, except that a quote glued to the destination is part
    of it, not a title: ``[a](f('b'))`` is a link to ``f('b')`` (CommonMark needs a space
    before a title). The stock parser made ``f(`` the link, ``b`` its title and left a
    stray ")" in the text."""

    def getLink(self, data: str, index: int) -> tuple[str, str | None, int, bool]:  # noqa: N802
        href, title, end, handled = super().getLink(data, index)
        m = self.RE_LINK.match(data, pos=index)
        if not handled or title is None or m is None or m.group(1):
            return href, title, end, handled
        start = m.end()
        raw = data[start : end - 1].rstrip()
        opening = raw.rfind(raw[-1], 0, len(raw) - 1) if raw else -1
        if opening <= 0 or raw[opening - 1].isspace():
            return href, title, end, handled  # a real title: [a](url "title")
        depth = 1
        for pos in range(start, len(data)):
            depth += {"(": 1, ")": -1}.get(data[pos], 0)
            if depth == 0:
                return self.unescape(data[start:pos]).strip(), None, pos + 1, True
        return href, title, end, handled


class _Links(markdown.extensions.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        md.inlinePatterns.register(_LinkProcessor(LINK_RE, md), "link", 160)


# Latin letters NFKD does not split into a base letter and a mark.
_LATIN_LETTERS = str.maketrans(
    {"đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "ø": "o", "Ø": "o", "ł": "l", "Ł": "l", "ħ": "h",
     "Ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th",
     "Þ": "th"}
)  # fmt: skip
#: The id of a heading with no letter or digit at all ("* * *", "⚔").
EMPTY_HEADING_SLUG = "section"


def heading_slug(text: str) -> str:
    """The id a heading's text gets (without the fragment's prefix): lower case, words joined
    by "-", Latin letters without their accents ("Đồng Hới" → ``dong-hoi``, "Épilogue" →
    ``epilogue``), other scripts kept as they are ("Битва" → ``битва``, "東京" → ``東京``),
    punctuation dropped; ``section`` when nothing is left. Marks are stripped from Latin
    letters only: stripping them everywhere would change kana and Devanagari words."""
    letters = []
    for char in unicodedata.normalize("NFC", text.translate(_LATIN_LETTERS)):
        if unicodedata.name(char, "").startswith("LATIN"):
            letters.extend(
                c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)
            )
        else:
            letters.append(char)
    slug = re.sub(r"[^\w\s-]", "", "".join(letters)).strip().lower()
    slug = re.sub(r"[-\s]+", "-", slug).strip("-")
    return slug or EMPTY_HEADING_SLUG


class _HeadingIds(Treeprocessor):
    """An id on every heading from its text: the same text gives the same id wherever the
    heading stands, so a link to it survives a heading added above (a counter of untitled
    headings did not); a repeated text takes ``-2``, ``-3``… An explicit ``{#id}`` is kept."""

    def run(self, root) -> None:  # noqa: ANN001 - an ElementTree element
        used = {el.attrib["id"] for el in root.iter() if "id" in el.attrib}
        for el in root.iter():
            if not isinstance(el.tag, str) or el.tag not in _HEADINGS or "id" in el.attrib:
                continue
            name = strip_tags(render_inner_html(remove_fnrefs(el), self.md))
            base = heading_slug(html_lib.unescape(name))
            slug, n = base, 1
            while slug in used:
                n += 1
                slug = f"{base}-{n}"
            used.add(slug)
            el.attrib["id"] = slug


_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


class _Headings(markdown.extensions.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        # After attr_list (8), which sets explicit ids; the same place as Python-Markdown's toc.
        md.treeprocessors.register(_HeadingIds(md), "heading_ids", 5)


_MD_EXTENSIONS = ["extra", "sane_lists", _Headings(), _Links()]
_MD_CONFIG = {"footnotes": {"BACKLINK_TITLE": "%d"}}
_ID_ATTRIBUTE = re.compile(r'\sid="([^"]*)"')
_local = threading.local()


def _markdown() -> markdown.Markdown:
    """One ``Markdown`` per thread, reset between texts: same output as a new instance
    per text, 1.9× faster (profiled on a 200-battle site build)."""
    md = getattr(_local, "md", None)
    if md is None:
        md = _local.md = markdown.Markdown(extensions=_MD_EXTENSIONS, extension_configs=_MD_CONFIG)
    return md.reset()


def _attribute_filter(asset_prefix: str, id_prefix: str, ids: frozenset[str]):
    def anchor(target: str) -> str:
        # A link names a heading as its reader writes it ("#Épilogue"); it reaches the
        # heading's id through the same slug. Ids of the text itself (footnotes, {#id}) stay.
        target = unquote(target)
        return target if target in ids else heading_slug(target)

    def keep(tag: str, attribute: str, value: str) -> str | None:
        if attribute == "id":
            return id_prefix + value
        if tag == "img" and attribute == "src":
            # Only the project's own static files, rewritten for the rendering at hand.
            if urlsplit(value).scheme or value.startswith("//"):
                return None
            found = static_file(value)
            if found is None:
                return None
            return asset_prefix + _static_relative(found)
        if tag == "a" and attribute == "href":
            # A narrative cannot know the site's layout: keep absolute links and anchors
            # (anchors prefixed like the ids they point at).
            if value.startswith("#"):
                return "#" + id_prefix + anchor(value[1:]) if len(value) > 1 else None
            scheme = urlsplit(value).scheme.lower()
            return value if scheme in LINK_SCHEMES else None
        return value

    return keep


def _static_relative(path: Path) -> str:
    for folder in settings.STATICFILES_DIRS:
        root = Path(folder).resolve()
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    raise ValueError(f"{path} is outside STATICFILES_DIRS")


def render_markdown(
    text: str, *, asset_prefix: str | None = None, id_prefix: str = "md-"
) -> SafeString:
    """Render people's Markdown as sanitised HTML, safe to put in any page or PDF.

    Python-Markdown with ``extra`` (tables, footnotes, definition lists, fenced code),
    ``sane_lists`` and an id on every heading (:func:`heading_slug`, ``-2`` for a
    repeated text), then nh3 with an allow-list
    (https://nh3.readthedocs.io). Ids survive, prefixed with ``id_prefix`` (one per
    fragment of a page: ``narrative-``, ``side-2-``…), and ``#anchor`` links get the same
    prefix (and the same slug, when they name a heading by its text), so footnotes and
    heading links resolve. ``asset_prefix`` is what a static
    file's path is prefixed with in ``<img src>`` (default ``/<STATIC_URL>``;
    ``admiralty-static:`` for the PDF; ``../static/`` in the baked site). Images that do
    not name an existing static file are dropped; links keep only ``http``, ``https``,
    ``mailto`` and ``#anchor`` targets; ``<script>``, event handlers (``onerror``…),
    ``style`` and ``javascript:`` URLs are removed.
    """
    if not text or not text.strip():
        return mark_safe("")  # most side analyses and scenarios are empty
    if asset_prefix is None:
        asset_prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    return _render(text, asset_prefix, id_prefix)


@functools.lru_cache(maxsize=256)
def _convert(text: str) -> str:
    # Markdown is most of the cost, and the same text comes under several id prefixes
    # (every side's "Hold the system." objective of a generated league).
    return _markdown().convert(text)


@functools.lru_cache(maxsize=256)
def _render(text: str, asset_prefix: str, id_prefix: str) -> SafeString:
    # Cached: a site build renders each report once per language; the result is a pure
    # function of the arguments.
    html = _convert(text)
    ids = frozenset(html_lib.unescape(i) for i in _ID_ATTRIBUTE.findall(html))
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        clean_content_tags=DROPPED_WITH_CONTENT,
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=_attribute_filter(asset_prefix, id_prefix, ids),
        allowed_classes=ALLOWED_CLASSES,
        url_schemes=LINK_SCHEMES | {STATIC_SCHEME},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(_IMG_WITHOUT_SRC.sub("", clean))  # noqa: S308 - sanitised by nh3 above


# --- the one context -----------------------------------------------------------------
