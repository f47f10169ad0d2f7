"""Notification endpoints: the account page's and the campaign notification page's actions
for scripts. Thin handlers over ``campaign.notify.preferences`` and
``campaign.notify.webhooks``; every one needs a user (401 without).

- ``GET|PUT /api/account/notifications``: the caller's own preferences, ``{"email":
  {kind: bool}, "language": ""|"fr"|"en"}`` (a kind left out of a PUT is left as it is);
- ``GET|PUT /api/campaigns/{slug}/webhook``: ``{"url", "kinds", "enabled"}`` (``url`` ""
  removes it), ``POST …/webhook/test``, ``GET /api/campaigns/{slug}/deliveries`` (the
  newest 50): the campaign's organisers and staff (other members 403, anyone else 404).

Refusals are the root API's (``Refused``): 422 naming the field for a refused address.
"""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Router, Schema, Status

from campaign.core.api_pages import array_page
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser
from campaign.notify.models import CampaignWebhook, Delivery
from campaign.notify.preferences import preferences_of, preferences_set
from campaign.notify.webhooks import campaign_webhook_save, campaign_webhook_test

router = Router(tags=["notifications"], auth=api_auth)


class PreferencesIn(Schema):
    email: dict[str, bool] = {}
    language: str = ""


class PreferencesOut(Schema):
    email: dict[str, bool]
    language: str


class WebhookIn(Schema):
    url: str
    kinds: list[str] = []
    enabled: bool = True


class WebhookOut(Schema):
    url: str
    kinds: list[str]
    enabled: bool
    last_status: str
    last_error: str
    last_at: datetime | None


class DeliveryOut(Schema):
    id: int
    kind: str
    channel: str
    recipient: str | None
    address: str
    subject: str
    status: str
    attempts: int
    last_error: str
    created_at: datetime
    sent_at: datetime | None


def _organised(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    return campaign


def _hook(hook: CampaignWebhook | None) -> dict:
    if hook is None:
        return {
            "url": "", "kinds": [], "enabled": False,
            "last_status": "", "last_error": "", "last_at": None,
        }  # fmt: skip
    return {
        "url": hook.url,
        "kinds": hook.kinds,
        "enabled": hook.enabled,
        "last_status": hook.last_status,
        "last_error": hook.last_error,
        "last_at": hook.last_at,
    }


@router.get("/account/notifications", response=PreferencesOut)
def notification_preferences(request: HttpRequest):
    """The caller's own notification preferences (every kind, on unless turned off)."""
    prefs = preferences_of(request.user)
    return {"email": prefs.email, "language": prefs.language}


@router.put("/account/notifications", response=PreferencesOut)
def notification_preferences_set(request: HttpRequest, payload: PreferencesIn):
    """Set the caller's own preferences; an unknown kind or language is 422 naming it."""
    prefs = preferences_set(user=request.user, email=payload.email, language=payload.language)
    return {"email": prefs.email, "language": prefs.language}


@router.get("/campaigns/{slug}/webhook", response=WebhookOut)
def webhook_get(request: HttpRequest, slug: str):
    """The campaign's webhook (``url`` "" when it has none)."""
    campaign = _organised(request, slug)
    return _hook(CampaignWebhook.objects.filter(campaign=campaign).first())


@router.put("/campaigns/{slug}/webhook", response=WebhookOut)
def webhook_set(request: HttpRequest, slug: str, payload: WebhookIn):
    """Set the campaign's webhook (``url`` "" removes it). A loopback, private or
    link-local address, or a name resolving to one, is 422 naming ``url``."""
    campaign = _organised(request, slug)
    hook = campaign_webhook_save(
        campaign=campaign,
        user=request.user,
        url=payload.url,
        kinds=payload.kinds,
        enabled=payload.enabled,
    )
    return _hook(hook)


@router.post("/campaigns/{slug}/webhook/test", response={202: DeliveryOut})
def webhook_test(request: HttpRequest, slug: str):
    """Queue a test message to the campaign's webhook (409 when it has none turned on)."""
    campaign = _organised(request, slug)
    return Status(202, _delivery(campaign_webhook_test(campaign=campaign, user=request.user)))


def _delivery(d: Delivery) -> dict:
    return {
        "id": d.pk,
        "kind": d.kind,
        "channel": d.channel,
        "recipient": d.user.get_username() if d.user_id else None,
        # A member's e-mail address is theirs: the organisers see the user name only.
        "address": d.address if d.channel == Delivery.Channel.WEBHOOK else "",
        "subject": d.subject,
        "status": d.status,
        "attempts": d.attempts,
        "last_error": d.last_error,
        "created_at": d.created_at,
        "sent_at": d.sent_at,
    }


@router.get("/campaigns/{slug}/deliveries", response=list[DeliveryOut])
@array_page(prepare=lambda request, rows: [_delivery(d) for d in rows])
def delivery_list(request: HttpRequest, response: HttpResponse, slug: str):
    """The campaign's deliveries, newest first, with their status, attempts and last
    error; ``limit``/``offset`` (``X-Total-Count``: how many)."""
    campaign = _organised(request, slug)
    return (
        Delivery.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("-created_at", "-pk")
    )
