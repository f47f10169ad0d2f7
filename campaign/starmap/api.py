"""The star map's API (django-ninja router mounted at ``/api/``): the map as the user sees
it (from ``map_view``), move orders and their cancelling.

Same rules as the turn API: members of the campaign only (others 404; anonymous 401), a
fleet or order the user does not see is 404, a chronicler ordering is 403, bad input 400
naming the field (``TurnActionError``), nothing written.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Query, Router, Schema, Status
from ninja.errors import HttpError

from campaign.core import limits
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign
from campaign.league.roles import require_faction_scope, require_member
from campaign.starmap import movement
from campaign.starmap.models import MapMove, StarSystem
from campaign.starmap.view import map_view
from campaign.turns.errors import TurnActionError
from factions.models import Fleet

router = Router(tags=["star map"], auth=api_auth)


class TerritoryOut(Schema):
    id: int
    name: str
    kind: str
    faction: str
    has_shipyard: bool


class SystemOut(Schema):
    id: int
    name: str
    slug: str
    x: int
    y: int
    holder: str | None
    territories: list[TerritoryOut]


class LinkOut(Schema):
    id: int
    a: str
    b: str
    travel_turns: int


class FleetOut(Schema):
    id: int
    name: str
    slug: str
    faction: str
    ships: int
    system: str | None
    link: int | None
    heading: str | None
    arrival_turn: int | None
    destination: str | None


class ContactOut(Schema):
    """A hidden enemy fleet seen (fog of war), unnamed: its label, size in blips, where
    (system slug or link id), how seen (``sensors`` or ``reveal``) and, for a last-known
    position, the turn at whose close it was seen."""

    label: str
    blips: int
    system: str | None
    link: int | None
    how: str
    turn: int | None = None


class MapOut(Schema):
    turn: int | None
    systems: list[SystemOut]
    links: list[LinkOut]
    fleets: list[FleetOut]
    contacts: list[ContactOut] = []
    sightings: list[ContactOut] = []


class MoveIn(Schema):
    fleet: str
    destination: str


class MoveOut(Schema):
    id: int
    turn: int
    fleet: str
    origin: str
    destination: str
    route: list[str]
    travel_turns: int
    status: str


def _move_out(m: MapMove) -> dict:
    slugs = dict(StarSystem.objects.filter(pk__in=m.route).values_list("pk", "slug"))
    return {
        "id": m.pk,
        "turn": m.turn,
        "fleet": m.fleet.slug,
        "origin": m.origin.slug,
        "destination": m.destination.slug,
        "route": [slugs[pk] for pk in m.route],
        "travel_turns": m.travel_turns,
        "status": m.status,
    }


@router.get("/campaigns/{slug}/map", response=MapOut)
def map_read(
    request: HttpRequest,
    slug: str,
    turn: int | None = Query(None, ge=1, le=limits.NUMBER_MAX),  # noqa: B008 - ninja's way
):
    """The campaign's map as the user sees it (``turn``: at that turn's close, now for
    the open turn; a turn the campaign never had is 422 naming ``turn``): systems
    (map units 0–1 000) with their holder and territories, links with their travel time
    in turns, and the fleets the user sees, by system slug (or link id, heading and
    arrival turn); the hidden enemy fleets in the user's sensor reach as unnamed
    ``contacts`` and the last-known positions of the others (``sightings``)
    (``campaign.fog``)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    require_member(request.user, campaign)
    if turn is not None and not campaign.turns.filter(number=turn).exists():
        raise HttpError(422, _("turn: %(campaign)s has no turn %(n)s") % {
            "campaign": campaign.name, "n": turn})  # fmt: skip
    view = map_view(campaign, request.user, turn=turn)
    slugs = {s.id: s.slug for s in view.systems}
    return {
        "turn": view.turn,
        "systems": [
            {
                "id": s.id,
                "name": s.name,
                "slug": s.slug,
                "x": s.x,
                "y": s.y,
                "holder": s.holder_name or None,
                "territories": [
                    {
                        "id": t.id,
                        "name": t.name,
                        "kind": t.kind,
                        "faction": t.faction_name,
                        "has_shipyard": t.has_shipyard,
                    }
                    for t in s.territories
                ],
            }
            for s in view.systems
        ],
        "links": [
            {"id": lk.id, "a": slugs[lk.a_id], "b": slugs[lk.b_id], "travel_turns": lk.travel_turns}
            for lk in view.links
        ],
        "fleets": [
            {
                "id": f.id,
                "name": f.name,
                "slug": f.slug,
                "faction": f.faction_name,
                "ships": f.ships,
                "system": slugs.get(f.system_id),
                "link": f.link_id,
                "heading": slugs.get(f.heading_id),
                "arrival_turn": f.arrival_turn,
                "destination": slugs.get(f.destination_id),
            }
            for f in view.fleets
        ],
        "contacts": [
            {
                "label": c.label,
                "blips": c.blips,
                "system": slugs.get(c.system_id),
                "link": c.link_id,
                "how": c.how,
            }
            for c in view.contacts
        ],
        "sightings": [
            {
                "label": c.label,
                "blips": c.blips,
                "system": slugs.get(c.system_id),
                "link": c.link_id,
                "how": c.how,
                "turn": c.turn,
            }
            for c in view.sightings
        ],
    }


@router.post("/campaigns/{slug}/map/moves", response={201: MoveOut})
def map_move_create(request: HttpRequest, slug: str, payload: MoveIn):
    """Order ``fleet`` (slug) to the system ``destination`` (slug) along the quickest links
    (at most ``move_reach_turns`` turns); carried out from the open turn's close on."""
    campaign = get_object_or_404(Campaign, slug=slug)
    seen = require_faction_scope(request.user, campaign)
    fleet = get_object_or_404(  # another campaign's fleet: 404, never named
        Fleet.objects.select_related("faction").filter(faction__in=campaign.factions.all()),
        slug=payload.fleet,
    )
    if seen is not None and fleet.faction_id not in seen:
        raise Http404("not your faction's fleet")
    destination = StarSystem.objects.filter(campaign=campaign, slug=payload.destination).first()
    if destination is None:
        raise TurnActionError(
            _("destination: no system '%(system)s' on this map") % {"system": payload.destination}
        )
    move = movement.map_move_order(
        campaign=campaign, fleet=fleet, destination=destination, user=request.user
    )
    return Status(201, _move_out(move))


@router.post("/campaigns/{slug}/map/moves/{move_id}/cancel", response=MoveOut)
def map_move_cancel(request: HttpRequest, slug: str, move_id: int):
    """Cancel a queued move order."""
    campaign = get_object_or_404(Campaign, slug=slug)
    seen = require_faction_scope(request.user, campaign)
    move = get_object_or_404(
        MapMove.objects.select_related("fleet__faction", "origin", "destination"),
        pk=move_id,
        campaign=campaign,
    )
    if seen is not None and move.fleet.faction_id not in seen:
        raise Http404("not your faction's order")
    return _move_out(movement.map_move_cancel(move=move, user=request.user))
