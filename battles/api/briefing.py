"""A draft battle's briefing in the API: what ``GET /api/battles/{id}`` answers a player of
one of its sides (the battle page shows them the same briefing, ``battles.briefing``).

The shape (``BattleBriefingOut``): the battle's ``id``, ``name``, ``slug``, ``campaign``
(slug), ``campaign_turn``, ``status`` and ``briefing``: ``place`` (the territory's name, ""
when none), ``scenario_html`` (sanitised HTML), ``sides`` (the sides the reader plays: their
faction's and fleet's names and objectives as sanitised HTML) and ``opponents`` (the other
sides' faction names only). Another side's objectives, fleets and ships are never in it.
"""

from __future__ import annotations

from ninja import Schema

from battles.briefing import Briefing
from battles.models import Battle


class SideBriefingOut(Schema):
    faction: str
    fleet: str
    primary_html: str
    secondary_html: str


class BriefingOut(Schema):
    place: str
    scenario_html: str
    sides: list[SideBriefingOut]
    opponents: list[str]


class BattleBriefingOut(Schema):
    id: int
    name: str
    slug: str
    campaign: str
    campaign_turn: int | None
    status: str
    briefing: BriefingOut


def briefing_out(battle: Battle, briefing: Briefing) -> dict:
    """``battle`` (its ``campaign`` loaded) and the reader's ``briefing`` as
    :class:`BattleBriefingOut` reads them."""
    return {
        "id": battle.pk,
        "name": battle.name,
        "slug": battle.slug,
        "campaign": battle.campaign.slug,
        "campaign_turn": battle.campaign_turn,
        "status": battle.status,
        "briefing": {
            "place": briefing.place,
            "scenario_html": str(briefing.scenario_html),
            "sides": [
                {
                    "faction": s.faction,
                    "fleet": s.fleet,
                    "primary_html": str(s.primary_html),
                    "secondary_html": str(s.secondary_html),
                }
                for s in briefing.sides
            ],
            "opponents": briefing.opponents,
        },
    }
