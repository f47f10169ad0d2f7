"""Who is told of an event, and the deliveries that tell them.

:func:`notify_event` writes one :class:`~campaign.notify.models.Delivery` per e-mail and one
for the campaign's webhook, inside the caller's transaction (a rolled-back event tells
nobody), and queues each with ``notify.deliver`` once the transaction commits. Readers:

- :func:`campaign_members`: every member of the campaign (a turn opened, its deadline near,
  a report published: what every member sees);
- :func:`faction_players`: the players of given factions (a battle's sides: its turns, its
  conclusion; the side that must confirm a record entry). A draft battle is known to its
  sides' players (its briefing, ``battles.briefing``) and its organisers, never to a rival
  of neither side, so no one else is told of it.

Each user is e-mailed only if they have an address, are active, and have not turned the kind
off (``NotificationPreference``; no row: on). Their language is their profile's, else the
campaign's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from campaign.league.models import Campaign, Membership
from campaign.notify.models import (
    WEBHOOK_KINDS,
    CampaignWebhook,
    Delivery,
    NotificationPreference,
    NotificationProfile,
)
from campaign.notify.tasks import deliver
from campaign.notify.texts import compose

logger = logging.getLogger(__name__)


def campaign_members(campaign: Campaign, *, roles: Iterable[str] | None = None) -> list[Any]:
    """The distinct users holding a role in ``campaign`` (``roles``: only those)."""
    rows = Membership.objects.filter(campaign=campaign)
    if roles is not None:
        rows = rows.filter(role__in=list(roles))
    return list(get_user_model().objects.filter(pk__in=rows.values("user_id")).order_by("pk"))


def faction_players(campaign: Campaign, faction_ids: Iterable[int]) -> list[Any]:
    """The distinct users who play one of ``faction_ids`` in ``campaign``."""
    rows = Membership.objects.filter(
        campaign=campaign, role=Membership.Role.PLAYER, faction_id__in=list(faction_ids)
    )
    return list(get_user_model().objects.filter(pk__in=rows.values("user_id")).order_by("pk"))


def _queue(delivery_ids: list[int]) -> None:
    def send() -> None:
        for pk in delivery_ids:
            try:
                deliver.delay(pk)
            except Exception:  # the row stays queued, shown to the organisers and admin
                logger.exception("notification %s could not be queued", pk)

    transaction.on_commit(send, robust=True)


def _save(rows: list[Delivery], *, once: bool) -> list[Delivery]:
    """Write ``rows``: at once (one query), or for a reminder (``once``) each in its own
    savepoint, leaving out any the unique constraint refuses (told already, by a run at
    the same time)."""
    if not once:
        return Delivery.objects.bulk_create(rows)
    saved = []
    for row in rows:
        try:
            with transaction.atomic():  # a refused row must not end the caller's transaction
                row.save()
        except IntegrityError:
            continue
        saved.append(row)
    return saved


def notify_event(
    *,
    kind: str,
    campaign: Campaign,
    users: Iterable[Any],
    link: str,
    params: dict[str, object],
    turn: Any = None,
    webhook: bool = True,
    user_params: Callable[[Any], dict[str, object]] | None = None,
) -> list[Delivery]:
    """Write and queue the deliveries telling ``users`` (e-mail, if their preference
    allows) and the campaign's webhook (if ``webhook``, it is enabled and asked for
    ``kind``, one of :data:`WEBHOOK_KINDS`) of an event of ``kind``; ``link`` is the
    page's absolute address; ``params`` the text's (``campaign.notify.texts.compose``),
    ``user_params(user)`` adds a reader's own. ``turn``: the campaign turn of a reminder,
    sent once per turn and recipient (a second call writes nothing for those already
    told). Returns the deliveries written, each sent once the transaction commits."""
    people = [u for u in users if u.is_active and u.email]
    if turn is not None:  # a reminder: those told already are not told again
        told = set(
            Delivery.objects.filter(turn=turn, kind=kind, user__isnull=False).values_list(
                "user_id", flat=True
            )
        )
        people = [u for u in people if u.pk not in told]
    off = set(
        NotificationPreference.objects.filter(user__in=people, kind=kind, email=False).values_list(
            "user_id", flat=True
        )
    )
    languages = dict(
        NotificationProfile.objects.filter(user__in=people)
        .exclude(language="")
        .values_list("user_id", "language")
    )
    rows: list[Delivery] = []
    for user in people:
        if user.pk in off:
            continue
        language = languages.get(user.pk, campaign.language)
        extra = user_params(user) if user_params else {}
        text = compose(kind, language, link, campaign=campaign.name, **params, **extra)
        rows.append(
            Delivery(
                campaign=campaign,
                kind=kind,
                channel=Delivery.Channel.EMAIL,
                user=user,
                turn=turn,
                address=user.email,
                language=language,
                subject=text.subject,
                body=text.body,
                link=link,
            )
        )
    hook = CampaignWebhook.objects.filter(campaign=campaign, enabled=True).first()
    if (
        webhook
        and hook is not None
        and kind in WEBHOOK_KINDS
        and kind in hook.kinds
        and not (
            turn is not None
            and Delivery.objects.filter(turn=turn, kind=kind, webhook=hook).exists()
        )
    ):
        text = compose(kind, campaign.language, link, campaign=campaign.name, **params)
        rows.append(
            Delivery(
                campaign=campaign,
                kind=kind,
                channel=Delivery.Channel.WEBHOOK,
                webhook=hook,
                turn=turn,
                address=webhook_host(hook.url),
                language=campaign.language,
                subject=text.subject,
                body=text.body,
                link=link,
            )
        )
    written = _save(rows, once=turn is not None)
    if written:
        _queue([d.pk for d in written])
    return written


def webhook_host(url: str) -> str:
    """The webhook's host only, shown and recorded: its path holds the channel's secret
    token."""
    return url.split("//", 1)[-1].split("/", 1)[0][:254]


def delivery_queue(delivery: Delivery) -> None:
    """Queue ``delivery`` once the transaction commits (a test message, a retry asked
    for)."""
    _queue([delivery.pk])
