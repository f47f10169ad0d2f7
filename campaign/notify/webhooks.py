"""A campaign's webhook, set by its organisers: the address (checked,
``campaign.notify.addresses``), the kinds it is told of, on or off, and a test message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from campaign.core.refusals import Kind as RefusalKind
from campaign.core.refusals import Refused
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser
from campaign.notify.addresses import webhook_url_check
from campaign.notify.events import delivery_queue, webhook_host
from campaign.notify.models import TEST_KIND, WEBHOOK_KINDS, CampaignWebhook, Delivery
from campaign.notify.texts import absolute, compose


def campaign_webhook_save(
    *, campaign: Campaign, user: Any, url: str, kinds: Sequence[str], enabled: bool = True
) -> CampaignWebhook | None:
    """Set ``campaign``'s webhook (``url`` "" removes it: returns None). ``kinds``: some of
    ``WEBHOOK_KINDS``. Raises :class:`~campaign.core.refusals.Refused`: not found / forbidden
    for anyone but the campaign's organisers and staff; 422 naming ``url`` (an address
    refused, :func:`~campaign.notify.addresses.webhook_url_check`) or ``kinds``; nothing is
    written then."""
    require_organiser(user, campaign)
    unknown = [k for k in kinds if k not in WEBHOOK_KINDS]
    if unknown:
        message = _("kinds: %(kinds)s cannot be posted to a webhook (allowed: %(allowed)s)") % {
            "kinds": ", ".join(map(str, unknown)),
            "allowed": ", ".join(WEBHOOK_KINDS),
        }
        raise Refused(message, kind=RefusalKind.INVALID, errors=[("kinds", message)])
    if not (url or "").strip():
        CampaignWebhook.objects.filter(campaign=campaign).delete()
        return None
    url = webhook_url_check(url)
    with transaction.atomic():
        hook, _created = CampaignWebhook.objects.update_or_create(
            campaign=campaign,
            defaults={
                "url": url,
                "kinds": [k for k in WEBHOOK_KINDS if k in kinds],
                "enabled": bool(enabled),
                "updated_by": user if getattr(user, "is_authenticated", False) else None,
            },
        )
    return hook


def campaign_webhook_test(*, campaign: Campaign, user: Any) -> Delivery:
    """Queue a test message to ``campaign``'s webhook (sent after commit, recorded as a
    delivery of kind ``test``). Raises ``Refused`` as :func:`campaign_webhook_save`, and
    409 when the campaign has no webhook turned on."""
    require_organiser(user, campaign)
    hook = CampaignWebhook.objects.filter(campaign=campaign, enabled=True).first()
    if hook is None:
        raise Refused(
            _("%(campaign)s has no webhook turned on") % {"campaign": campaign.name},
            kind=RefusalKind.CONFLICT,
        )
    link = absolute(reverse("campaign-detail", kwargs={"slug": campaign.slug}))
    text = compose(TEST_KIND, campaign.language, link, campaign=campaign.name)
    with transaction.atomic():
        delivery = Delivery.objects.create(
            campaign=campaign,
            kind=TEST_KIND,
            channel=Delivery.Channel.WEBHOOK,
            webhook=hook,
            address=webhook_host(hook.url),
            language=campaign.language,
            subject=text.subject,
            body=text.body,
            link=link,
        )
        delivery_queue(delivery)
    return delivery
