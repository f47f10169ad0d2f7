"""Fleet movement endpoints of the campaign-turn API (``campaign.turns.moves``): list,
order, cancel.
Same rules as ``campaign.turns.api.orders``: thin handlers, non-members and other factions' fleets
404, service errors 400/403."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from campaign.core.api_pages import array_page
from campaign.league.api_auth import api_auth
from campaign.turns import moves
from campaign.turns.api.turn import _campaign
from campaign.turns.errors import TurnActionError
from campaign.turns.models import FleetMove
from factions.models import Fleet, Territory

router = Router(tags=["turns"], auth=api_auth)


class MoveIn(Schema):
    fleet: str
    destination: str
    destination_faction: str


class MoveOut(Schema):
    id: int
    turn: int
    fleet: str
    origin: str | None
    destination: str
    status: str


def _out(m: FleetMove) -> dict:
    return {
        "id": m.pk,
        "turn": m.turn,
        "fleet": m.fleet.slug,
        "origin": m.origin.slug if m.origin else None,
        "destination": m.destination.slug,
        "status": m.status,
    }


def _outs(request: HttpRequest, rows: list[FleetMove]) -> list[dict]:
    return [_out(m) for m in rows]


@router.get("/campaigns/{slug}/moves", response=list[MoveOut])
@array_page(prepare=_outs)
def move_list(request: HttpRequest, response: HttpResponse, slug: str):
    """Movement orders of the fleets of the factions the user may see in the campaign (a
    rival's queued orders are not among them)."""
    campaign, seen = _campaign(request, slug)
    qs = FleetMove.objects.filter(campaign=campaign).select_related(
        "fleet", "origin", "destination"
    )
    if seen is not None:
        qs = qs.filter(fleet__faction_id__in=seen)
    return qs  # a page at a time: limit/offset, X-Total-Count (campaign.core.api_pages)


@router.post("/campaigns/{slug}/moves", response={201: MoveOut})
def move_create(request: HttpRequest, slug: str, payload: MoveIn):
    """Order ``fleet`` (slug) to the territory ``destination`` (slug) of
    ``destination_faction`` (slug) at the end of the open turn; replaces the fleet's
    queued order."""
    campaign, seen = _campaign(request, slug)
    fleet = get_object_or_404(Fleet.objects.select_related("faction"), slug=payload.fleet)
    if seen is not None and fleet.faction_id not in seen:
        raise Http404("not your faction's fleet")
    destination = Territory.objects.filter(
        faction__slug=payload.destination_faction, slug=payload.destination
    ).first()
    if destination is None:
        raise TurnActionError(
            _("destination: no territory '%(territory)s' of '%(faction)s'")
            % {"territory": payload.destination, "faction": payload.destination_faction}
        )
    move = moves.fleet_move_order(
        campaign=campaign, fleet=fleet, destination=destination, user=request.user
    )
    return Status(201, _out(move))


@router.post("/campaigns/{slug}/moves/{move_id}/cancel", response=MoveOut)
def move_cancel(request: HttpRequest, slug: str, move_id: int):
    """Cancel a queued movement order."""
    campaign, seen = _campaign(request, slug)
    move = get_object_or_404(
        FleetMove.objects.select_related("fleet__faction", "origin", "destination"),
        pk=move_id,
        campaign=campaign,
    )
    if seen is not None and move.fleet.faction_id not in seen:
        raise Http404("not your faction's order")
    return _out(moves.fleet_move_cancel(move=move, user=request.user))
