"""The baked site's Atom feed of published reports and its sitemap.

The feed is Django's ``Atom1Feed`` (django.utils.feedgenerator); entries carry only public
fields (name, place, winner, the stored outcome), never a draft's text.
"""

from __future__ import annotations

import datetime
import hashlib
from xml.sax.saxutils import escape

from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from battles.models import Battle

FEED_ENTRIES = 50


def _url(base_url: str, path: str) -> str:
    return base_url.rstrip("/") + "/" + path.lstrip("/")


def write_feed(staging, lang: str, published: list[Battle], base_url: str) -> None:
    """``<lang>/feed.xml``: the latest :data:`FEED_ENTRIES` published reports."""
    feed = Atom1Feed(
        title=_("Admiralty: after-action reports"),
        link=_url(base_url, f"{lang}/index.html"),
        description=_("The latest published after-action reports."),
        language=lang,
        feed_url=_url(base_url, f"{lang}/feed.xml"),
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
        feed.add_item(
            title=battle.name,
            link=_url(base_url, f"{lang}/{battle.site_path}"),
            description=" · ".join(parts),
            unique_id=_url(base_url, f"{lang}/{battle.site_path}"),
            updateddate=battle.report_published_at or battle.updated_at,
            pubdate=battle.report_published_at or battle.updated_at,
        )
    if not entries:
        # Else Django dates an empty feed now(): the file would change on every build.
        feed.latest_post_date = lambda: datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    data = feed.writeString("utf-8").encode("utf-8")
    staging.write(f"{lang}/feed.xml", data, hashlib.sha256(data).hexdigest()[:32])


def write_sitemap(staging, pages: list[str], base_url: str) -> None:
    """``sitemap.xml`` listing every HTML page (https://www.sitemaps.org/protocol.html)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>']
    lines.append('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    for page in sorted(p for p in pages if p.endswith(".html")):
        lines.append(f"  <url><loc>{escape(_url(base_url, page))}</loc></url>")
    lines.append("</urlset>\n")
    data = "\n".join(lines).encode("utf-8")
    staging.write("sitemap.xml", data, hashlib.sha256(data).hexdigest()[:32])
