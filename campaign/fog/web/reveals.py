"""The organisers' reveal page (``/campaigns/<slug>/map/reveals/``): the hidden fleets on
the campaign's map, the reveals made (live and revoked, who and when), a form to reveal a
fleet to a faction and a button to revoke. Thin: scoped through
``campaign.league.roles.require_organiser`` (anonymous users go to log in; non-members 404,
the campaign's other members 403), then ``campaign.fog.reveals``. A refused reveal
answers the page again (422, 409) with the message beside the field it names.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.core.refusals import Kind, Refused
from campaign.fog import reveals
from campaign.fog.models import Reveal
from campaign.league.models import Campaign
from campaign.league.roles import require_organiser
from campaign.starmap.models import FleetPosition


def _organised(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign)
    return campaign


def _id(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name, "")
    # An id longer than a bigint would be a DataError on PostgreSQL: refuse it here.
    return int(raw) if raw.isdigit() and len(raw) < 19 else None


def _page(request: HttpRequest, campaign: Campaign, form: dict | None = None, status: int = 200):
    fleets = [
        p.fleet
        for p in FleetPosition.objects.filter(campaign=campaign, fleet__hidden=True)
        .select_related("fleet__faction")
        .order_by("fleet__name", "fleet__pk")
    ]
    rows = (
        Reveal.objects.filter(campaign=campaign)
        .select_related("fleet", "faction", "revealed_by", "revoked_by")
        .order_by("revoked_at", "-revealed_at", "-pk")
    )
    return render(
        request,
        "fog/reveals.html",
        {
            "campaign": campaign,
            "fleets": fleets,
            "factions": list(campaign.factions.order_by("name")),
            "reveals": list(rows),
            "form": form or {},
        },
        status=status,
    )


def reveals_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The hidden fleets on the map, the reveals and the reveal form."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    return _page(request, _organised(request, slug))


@require_POST
def reveal_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Reveal the chosen fleet (``fleet`` id) to the chosen faction (``faction`` id)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = _organised(request, slug)
    form = {"fleet": request.POST.get("fleet", ""), "faction": request.POST.get("faction", "")}
    fleet_id, faction_id = _id(request, "fleet"), _id(request, "faction")
    position = (
        FleetPosition.objects.filter(campaign=campaign, fleet_id=fleet_id)
        .select_related("fleet")
        .first()
    )
    faction = campaign.factions.filter(pk=faction_id).first() if faction_id else None
    try:
        if position is None:
            raise Refused(
                _("fleet: choose a fleet on the map"), kind=Kind.INVALID, errors=[("fleet", "")]
            )
        if faction is None:
            raise Refused(
                _("faction: choose a faction of this campaign"),
                kind=Kind.INVALID,
                errors=[("faction", "")],
            )
        reveals.reveal_fleet(
            campaign=campaign, fleet=position.fleet, faction=faction, user=request.user
        )
    except Refused as exc:
        if exc.kind in (Kind.FORBIDDEN, Kind.NOT_FOUND):
            raise
        field = exc.errors[0][0] if exc.errors else ""
        return _page(request, campaign, {**form, "error": str(exc), "field": field}, exc.status)
    messages.success(request, _("Fleet revealed."))
    return redirect("fog-reveals", slug=campaign.slug)


@require_POST
def reveal_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Revoke a live reveal (the "I confirm" box ticked)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = _organised(request, slug)
    reveal = get_object_or_404(Reveal.objects.select_related("campaign"), pk=pk, campaign=campaign)
    if not request.POST.get("confirm"):
        messages.error(request, _("Tick “I confirm” to go on; nothing was done."))
    else:
        try:
            reveals.reveal_revoke(reveal=reveal, user=request.user)
        except Refused as exc:
            if exc.kind in (Kind.FORBIDDEN, Kind.NOT_FOUND):
                raise
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Reveal revoked."))
    return redirect("fog-reveals", slug=campaign.slug)
