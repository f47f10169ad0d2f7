"""Fleet movement orders from the turn page (``campaign.turns.moves``): order and cancel. Thin:
scoped through the ``access`` helpers; another faction's fleet or order is a 404."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.turns import moves
from campaign.turns.errors import TurnActionError
from campaign.turns.models import FleetMove
from campaign.turns.web.turn import _act, _campaign_for, _int, _members_only
from factions.models import Fleet, Territory


@require_POST
@_members_only
def fleet_move(request: HttpRequest, slug: str) -> HttpResponse:
    """Order a fleet (``fleet`` id) to a territory (``destination`` id) at the turn's end."""
    campaign, seen = _campaign_for(request, slug)
    fleet = get_object_or_404(Fleet.objects.select_related("faction"), pk=_int_or_404(request))
    if seen is not None and fleet.faction_id not in seen:
        raise Http404("not your faction's fleet")

    def run() -> None:
        destination = Territory.objects.filter(pk=_int(request, "destination")).first()
        if destination is None:
            raise TurnActionError(_("destination: choose a territory"))
        moves.fleet_move_order(
            campaign=campaign, fleet=fleet, destination=destination, user=request.user
        )

    return _act(request, campaign, run, _("Movement ordered."))


def _int_or_404(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("fleet", ""))
    except ValueError as exc:
        raise Http404("no such fleet") from exc


@require_POST
@_members_only
def fleet_move_cancel(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Cancel a queued movement order (its faction's player or an organiser)."""
    campaign, seen = _campaign_for(request, slug)
    move = get_object_or_404(
        FleetMove.objects.select_related("fleet__faction"), pk=pk, campaign=campaign
    )
    if seen is not None and move.fleet.faction_id not in seen:
        raise Http404("not your faction's order")
    return _act(
        request,
        campaign,
        lambda: moves.fleet_move_cancel(move=move, user=request.user),
        _("Movement cancelled."),
    )
