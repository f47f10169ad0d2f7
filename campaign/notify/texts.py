"""Each kind's subject and body, in the reader's language, and the link to its page.

Names (campaign, battle, faction) are shown as stored; a deadline is shown in the
campaign's time zone (``Campaign.time_zone``) with the zone's name, as the turn page shows
it. A text names only what its reader may already see: the battle of a side they play or a
concluded one, a turn of their campaign (``campaign.notify.events`` chooses the readers).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaign.notify.models import TEST_KIND, Kind


@dataclass(frozen=True)
class Text:
    """A message: ``subject`` (one line), ``body`` (plain text, the link last)."""

    subject: str
    body: str


def absolute(path: str) -> str:
    """``path`` on the app's address (``settings.APP_BASE_URL``): the links a message
    carries must work from a mail reader or a chat channel."""
    return settings.APP_BASE_URL.rstrip("/") + path


def deadline_text(deadline: datetime | None, zone: str) -> str:
    """``deadline`` as ``2026-12-03 18:00 Europe/Paris`` (the campaign's time zone), or
    "" for none."""
    if deadline is None:
        return ""
    local = timezone.localtime(deadline, ZoneInfo(zone))
    return f"{local:%Y-%m-%d %H:%M} {zone}"


def _sentences(kind: str, p: dict[str, object]) -> tuple[str, str]:
    if kind == Kind.TURN_OPENED:
        subject = _("%(campaign)s: turn %(n)s is open") % p
        body = (
            _("Turn %(n)s of %(campaign)s is open until %(deadline)s.") % p
            if p.get("deadline")
            else _("Turn %(n)s of %(campaign)s is open.") % p
        )
    elif kind == Kind.DEADLINE_NEAR:
        subject = _("%(campaign)s: turn %(n)s closes within 24 hours") % p
        body = _("Turn %(n)s of %(campaign)s closes at %(deadline)s.") % p
    elif kind == Kind.ORDERS_DUE:
        subject = _("%(battle)s: your orders for turn %(n)s") % p
        body = (
            _(
                "Turn %(n)s of the battle %(battle)s waits for your side's orders until "
                "%(deadline)s."
            )
            % p
            if p.get("deadline")
            else _("Turn %(n)s of the battle %(battle)s waits for your side's orders.") % p
        )
    elif kind == Kind.TURN_PLAYED:
        subject = _("%(battle)s: turn %(n)s played") % p
        body = _("Turn %(n)s of the battle %(battle)s has been played.") % p
    elif kind == Kind.ENTRY_AWAITING:
        subject = _("%(battle)s: a record entry awaits your confirmation") % p
        body = _("%(side)s recorded the battle %(battle)s: confirm or reject the entry.") % p
    elif kind == Kind.BATTLE_CONCLUDED:
        subject = _("%(battle)s is concluded") % p
        body = _("The battle %(battle)s of %(campaign)s is concluded.") % p
    elif kind == Kind.REPORT_PUBLISHED:
        subject = _("%(battle)s: the report is published") % p
        body = _("The after-action report of the battle %(battle)s is published.") % p
    elif kind == TEST_KIND:
        subject = _("%(campaign)s: a test notification") % p
        body = _("This is a test of the webhook of %(campaign)s.") % p
    else:
        raise ValueError(f"unknown notification kind {kind!r}")
    return subject, body


def compose(kind: str, language: str, link: str, **params: object) -> Text:
    """The message of ``kind`` in ``language`` with its ``params`` (``campaign``,
    ``battle``, ``side``: names; ``n``: a turn number; ``deadline``: from
    :func:`deadline_text`) and ``link`` (an absolute address) on its last line. Raises
    ``ValueError`` for an unknown kind."""
    with translation.override(language):
        subject, body = _sentences(kind, params)
    return Text(subject=subject[:300], body=f"{body}\n\n{link}" if link else body)
