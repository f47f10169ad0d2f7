"""Commanders API (django-ninja router mounted at ``/api/``): read only.

``GET /api/commanders/{id}`` and ``GET /api/factions/{slug}/commanders``, scoped like the
pages (``factions.access.visible_commanders``: a hidden fleet's commanders are 404 for
whoever may not see the fleet). Thin: look up, scope, serialise.
"""

from __future__ import annotations

from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from battles.access import visible_battles
from campaign.core.api_pages import array_page
from factions.access import commander_place, visible_commanders
from factions.models import Commander, Faction

router = Router(tags=["factions"])


class CommanderSummaryOut(Schema):
    """A commander in a list; ``renown`` is the sum of their awards' points."""

    id: int
    name: str
    rank: str
    status: str
    renown: int


class CommanderPlaceOut(Schema):
    """Where a commander serves: ``kind`` ``fleet`` (admiral), ``squadron`` or ``ship``
    (captain), its id and name, and its fleet's slug."""

    kind: str
    id: int
    name: str
    fleet: str


class RenownAwardOut(Schema):
    """Renown a battle gave: ``kind`` ``victory``, ``kills``, ``survival`` (points) or
    ``killed``/``captured`` (0: the fate it dealt)."""

    battle: int
    battle_name: str
    kind: str
    points: int


class CommanderOut(CommanderSummaryOut):
    faction: str
    biography: str
    place: CommanderPlaceOut | None
    awards: list[RenownAwardOut]


def _place(request: HttpRequest, c: Commander) -> dict | None:
    place = commander_place(request.user, c)
    if place is None:
        return None
    kind = "fleet" if c.fleet_id else "squadron" if c.squadron_id else "ship"
    fleet = place if kind == "fleet" else place.fleet
    return {"kind": kind, "id": place.pk, "name": str(place), "fleet": fleet.slug}


@router.get("/commanders/{commander_id}", response=CommanderOut)
def commander_detail(request: HttpRequest, commander_id: int):
    """A commander the user may see, with their place and the awards of battles the user
    may see."""
    c = get_object_or_404(
        visible_commanders(request.user).select_related(
            "faction", "fleet", "squadron__fleet", "ship__fleet", "ship__ship_class"
        ),
        pk=commander_id,
    )
    awards = (
        c.awards.filter(battle__in=visible_battles(request.user))
        .order_by("battle__date", "battle__pk", "kind")
        .values("battle_id", "battle__name", "kind", "points")
    )
    return {
        "id": c.pk,
        "name": c.name,
        "rank": c.rank,
        "status": c.status,
        "renown": c.awards.aggregate(total=Sum("points"))["total"] or 0,
        "faction": c.faction.slug,
        "biography": c.biography,
        "place": _place(request, c),
        "awards": [
            {
                "battle": a["battle_id"],
                "battle_name": a["battle__name"],
                "kind": a["kind"],
                "points": a["points"],
            }
            for a in awards
        ],
    }


@router.get("/factions/{slug}/commanders", response=list[CommanderSummaryOut])
@array_page()
def faction_commanders(request: HttpRequest, response: HttpResponse, slug: str):
    """The faction's commanders the user may see, most renowned first; ``limit``/``offset``
    (``X-Total-Count``: how many)."""
    faction = get_object_or_404(Faction, slug=slug)
    return (
        visible_commanders(request.user)
        .filter(faction=faction)
        .with_renown()
        .order_by("-renown", "name", "pk")
    )
