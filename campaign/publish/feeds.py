"""The baked site's Atom feed of published reports and its sitemap.

The feed is Django's ``Atom1Feed`` (django.utils.feedgenerator); entries carry only public
fields (name, place, winner, the stored outcome), never a draft's text.

Absolute URLs need to know where the site is hosted: ``base_url`` (``build_site
--base-url``, else ``settings.SITE_BASE_URL``), checked by :func:`base_url_checked`.
Without one nothing pretends to know it: the feed's links are relative to the feed file
(RFC 4287 §2 resolves them against the feed's own address, which a reader knows) with
``urn:uuid`` ids, and no sitemap is written (the sitemaps protocol requires absolute
URLs); the build reports a warning saying so.
"""

from __future__ import annotations

import datetime
import hashlib
import uuid
from urllib.parse import urlsplit
from xml.sax.saxutils import escape

from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from battles.models import Battle
from campaign.publish.output import SiteBuildError

FEED_ENTRIES = 50
#: uuid5 namespace of the feed ids written without a base URL (fixed: ids must not change).
_ID_NAMESPACE = uuid.UUID("5d1f3c9e-2b0a-4c57-9a39-6f1e8d2a7b40")

NO_BASE_URL_WARNING = (
    "no base URL (set SITE_BASE_URL or pass --base-url https://…/): sitemap.xml not "
    "written, the feeds' links are relative to the feed"
)


def base_url_checked(base_url: str | None) -> str | None:
    """``base_url`` with one trailing slash, or None when it is empty or None.

    Raises :class:`SiteBuildError` unless it is an absolute ``http``/``https`` URL with a
    host and no query or fragment (``https://club.example/league/``)."""
    if not base_url or not base_url.strip():
        return None
    url = base_url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise SiteBuildError(
            f"base URL {base_url!r}: expected an absolute http(s) URL such as"
            " https://club.example/league/"
        )
    return url.rstrip("/") + "/"


def _url(base_url: str, path: str) -> str:
    return base_url.rstrip("/") + "/" + path.lstrip("/")


def _uuid(*parts: object) -> str:
    return f"urn:uuid:{uuid.uuid5(_ID_NAMESPACE, '/'.join(map(str, parts)))}"


def write_feed(staging, lang: str, published: list[Battle], base_url: str | None) -> None:
    """``<lang>/feed.xml``: the latest :data:`FEED_ENTRIES` published reports. Links are
    absolute under ``base_url`` (ids: the same URLs), else relative to the feed file
    (ids: ``urn:uuid`` from the campaign's and battle's primary keys)."""
    if base_url:
        link, feed_url, feed_id = (
            _url(base_url, f"{lang}/index.html"),
            _url(base_url, f"{lang}/feed.xml"),
            None,
        )
    else:
        link, feed_url, feed_id = "index.html", "feed.xml", _uuid("feed", lang)
    feed = Atom1Feed(
        title=_("Admiralty: after-action reports"),
        link=link,
        description=_("The latest published after-action reports."),
        language=lang,
        feed_url=feed_url,
        feed_guid=feed_id,
    )
    entries = sorted(
        published, key=lambda b: (b.report_published_at or b.updated_at, b.pk), reverse=True
    )[:FEED_ENTRIES]
    for battle in entries:
        parts = [battle.campaign.name]
        if battle.location:
            parts.append(battle.location)
        if battle.winner:
            parts.append(_("Victory: %(name)s") % {"name": battle.winner.name})
        if base_url:
            entry_link = entry_id = _url(base_url, f"{lang}/{battle.site_path}")
        else:
            entry_link = battle.site_path
            entry_id = _uuid("battle", lang, battle.campaign_id, battle.pk)
        feed.add_item(
            title=battle.name,
            link=entry_link,
            description=" · ".join(parts),
            unique_id=entry_id,
            updateddate=battle.report_published_at or battle.updated_at,
            pubdate=battle.report_published_at or battle.updated_at,
        )
    if not entries:
        # Else Django dates an empty feed now(): the file would change on every build.
        feed.latest_post_date = lambda: datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    data = feed.writeString("utf-8").encode("utf-8")
    staging.write(f"{lang}/feed.xml", data, hashlib.sha256(data).hexdigest()[:32])


def write_sitemap(staging, pages: list[str], base_url: str | None) -> bool:
    """``sitemap.xml`` listing every HTML page (https://www.sitemaps.org/protocol.html).
    Without ``base_url`` nothing is written (a sitemap holds absolute URLs only; a
    previous build's file goes with the other files this build did not produce).
    Returns whether it was written."""
    if not base_url:
        return False
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    lines.append('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    for page in sorted(p for p in pages if p.endswith(".html")):
        lines.append(f"  <url><loc>{escape(_url(base_url, page))}</loc></url>")
    lines.append("</urlset>\n")
    data = "\n".join(lines).encode("utf-8")
    staging.write("sitemap.xml", data, hashlib.sha256(data).hexdigest()[:32])
    return True
