"""The notification pages.

- ``/account/notifications/`` (POST, logged in; the form sits on ``/account/``): the
  user's own kinds by e-mail and language, saved through htmx (the form's fragment comes
  back) or a plain post (back to ``/account/``).
- ``/campaigns/<slug>/notifications/`` (the campaign's organisers and staff; its other
  members 403, anyone else 404): the webhook's address, kinds and switch, a *Send a test*
  button, and the campaign's last deliveries with their status and error.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.core.refusals import Kind as RefusalKind
from campaign.core.refusals import Refused
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser
from campaign.notify.models import WEBHOOK_KINDS, CampaignWebhook, Delivery, Kind
from campaign.notify.preferences import preferences_of, preferences_set
from campaign.notify.webhooks import campaign_webhook_save, campaign_webhook_test

#: Deliveries listed on the campaign's page (the newest).
DELIVERIES_SHOWN = 50


def preferences_context(user, *, error: str = "", saved: bool = False) -> dict:
    """The ``notify/_preferences.html`` fragment's context for ``user``: one row a kind
    (value, label, on), the language and the choices."""
    prefs = preferences_of(user)
    return {
        "notify_kinds": [(k.value, k.label, prefs.email[k.value]) for k in Kind],
        "notify_language": prefs.language,
        "notify_error": error,
        "notify_saved": saved,
    }


@login_required
@require_POST
def account_notifications(request: HttpRequest) -> HttpResponse:
    """Save the user's own preferences: a ticked ``email_<kind>`` box is on, an unticked
    one off; ``language`` "" (each campaign's), ``fr`` or ``en``. An unknown language is
    refused (400) naming the field; nothing is changed then."""
    email = {k.value: bool(request.POST.get(f"email_{k.value}")) for k in Kind}
    error, status = "", 200
    try:
        preferences_set(user=request.user, email=email, language=request.POST.get("language", ""))
    except Refused as exc:
        error, status = str(exc), 400
    if request.headers.get("HX-Request"):
        context = preferences_context(request.user, error=error, saved=not error)
        return render(request, "notify/_preferences.html", context, status=status)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Your notification preferences are saved."))
    return redirect("account")


def _organised(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    return campaign


def _page(request: HttpRequest, campaign: Campaign, *, form: dict | None = None, status=200):
    hook = CampaignWebhook.objects.filter(campaign=campaign).first()
    if form is None:
        form = {
            "url": hook.url if hook else "",
            "kinds": hook.kinds if hook else list(WEBHOOK_KINDS),
            "enabled": hook.enabled if hook else True,
        }
    deliveries = Delivery.objects.filter(campaign=campaign).select_related("user")[
        :DELIVERIES_SHOWN
    ]
    return render(
        request,
        "notify/campaign.html",
        {
            "campaign": campaign,
            "hook": hook,
            "form": form,
            "kinds": [(k, Kind(k).label) for k in WEBHOOK_KINDS],
            "deliveries": deliveries,
        },
        status=status,
    )


@login_required
def campaign_notifications(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's webhook settings and last deliveries (GET); save the webhook (POST:
    ``url``, empty removes it; ``kinds``; ``enabled``). A refused address shows the form
    again (400) with the message naming the field; nothing is saved then."""
    campaign = _organised(request, slug)
    if request.method != "POST":
        return _page(request, campaign)
    form = {
        "url": request.POST.get("url", ""),
        "kinds": request.POST.getlist("kinds"),
        "enabled": bool(request.POST.get("enabled")),
    }
    try:
        campaign_webhook_save(campaign=campaign, user=request.user, **form)
    except Refused as exc:
        if exc.kind != RefusalKind.INVALID:
            raise
        form["error"] = str(exc)
        form["error_field"] = exc.errors[0][0] if exc.errors else ""
        return _page(request, campaign, form=form, status=400)
    messages.success(request, _("The webhook is saved."))
    return redirect("campaign-notifications", slug=campaign.slug)


@login_required
@require_POST
def campaign_webhook_test_send(request: HttpRequest, slug: str) -> HttpResponse:
    """Queue a test message to the campaign's webhook; its result shows in the list."""
    campaign = _organised(request, slug)
    try:
        campaign_webhook_test(campaign=campaign, user=request.user)
    except Refused as exc:
        if exc.kind != RefusalKind.CONFLICT:
            raise
        messages.error(request, str(exc))
    else:
        messages.success(request, _("A test message was sent: see its result below."))
    return redirect("campaign-notifications", slug=campaign.slug)


urlpatterns = [
    path("account/notifications/", account_notifications, name="account-notifications"),
    path(
        "campaigns/<slug:slug>/notifications/",
        campaign_notifications,
        name="campaign-notifications",
    ),
    path(
        "campaigns/<slug:slug>/notifications/test/",
        campaign_webhook_test_send,
        name="campaign-webhook-test",
    ),
]
