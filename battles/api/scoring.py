"""Standings and scoring endpoints (mounted at ``/api/``): ``GET /campaigns/{slug}/standings``
(anyone, read as the standings page: hidden fleets' tonnage and strength only for who may
see them, players' lines for the campaign's members), ``GET|PUT
/campaigns/{slug}/scoring-rules`` (reading: anyone; writing: its organisers, every award
re-priced) and ``PUT /battles/{id}/objectives`` (organisers: objectives met per side,
``{"<faction slug>": n}``). Thin handlers over ``battles.scoring``; refusals are answered
by the root API (401 without a user, 403 for a member without the right, 404 for anyone
else, 422 naming each bad field).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Body, Router, Schema

from battles.access import actionable_battles
from battles.scoring.objectives import side_objectives_set
from battles.scoring.rules import RULE_FIELDS, rules_for, rules_in_words, scoring_rules_update
from battles.scoring.table import scoreboard
from campaign.core.api_errors import ErrorOut
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign

router = Router(tags=["standings"])


class RulesOut(Schema):
    victory: int
    draw: int
    defeat: int
    per_objective: int
    per_holding: int
    destroyed_points: int
    destroyed_per: int
    in_words: list[str]


class FactionScoreOut(Schema):
    faction: str
    name: str
    vp: int
    battles_vp: int
    objectives_vp: int
    destroyed_vp: int
    holdings_vp: int
    mass_destroyed: int
    mass_lost: int


class PlayerScoreOut(Schema):
    name: str
    faction: str | None
    vp: int


class SeriesOut(Schema):
    faction: str
    values: list[int]


class StandingsOut(Schema):
    rules: RulesOut
    factions: list[FactionScoreOut]
    players: list[PlayerScoreOut]
    turns: list[int]
    vp_series: list[SeriesOut]
    strength_turns: list[int]
    points_series: list[SeriesOut]
    mass_series: list[SeriesOut]


class SideObjectivesOut(Schema):
    faction: str
    objectives_met: int


def _rules_out(rules: Any) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in RULE_FIELDS} | {
        "in_words": rules_in_words(rules)
    }


@router.get("/campaigns/{slug}/standings", response=StandingsOut)
def standings(request: HttpRequest, slug: str) -> dict[str, Any]:
    """The campaign's standings by victory points, tonnage and the series per turn."""
    campaign = get_object_or_404(Campaign, slug=slug)
    board = scoreboard(campaign, user=request.user)
    slugs = {r.faction.name: r.faction.slug for r in board.factions}

    def series(rows: list[tuple[str, list[int]]]) -> list[dict[str, Any]]:
        return [{"faction": slugs[name], "values": values} for name, values in rows]

    return {
        "rules": _rules_out(board.rules),
        "factions": [
            {"faction": r.faction.slug, "name": r.faction.name} | {
                k: getattr(r, k) for k in ("vp", "battles_vp", "objectives_vp", "destroyed_vp",
                                          "holdings_vp", "mass_destroyed", "mass_lost")
            }
            for r in board.factions
        ],
        "players": [
            {"name": p.name, "faction": p.faction.slug if p.faction else None, "vp": p.vp}
            for p in board.players
        ],
        "turns": board.turns,
        "vp_series": series(board.vp_series),
        "strength_turns": board.strength_turns,
        "points_series": series(board.points_series),
        "mass_series": series(board.mass_series),
    }  # fmt: skip


@router.get("/campaigns/{slug}/scoring-rules", response=RulesOut)
def scoring_rules(request: HttpRequest, slug: str) -> dict[str, Any]:
    """The campaign's scoring rules, and in words."""
    return _rules_out(rules_for(get_object_or_404(Campaign, slug=slug)))


@router.put(
    "/campaigns/{slug}/scoring-rules",
    response={200: RulesOut, 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    auth=api_auth,
)
def scoring_rules_edit(
    request: HttpRequest, slug: str, payload: Body[dict[str, Any]]
) -> dict[str, Any]:
    """Set some or all of the rules (``{"victory": 3, …}``; whole numbers, ``destroyed_per``
    at least 1); every award is re-priced. Organisers only."""
    campaign = get_object_or_404(Campaign, slug=slug)
    return _rules_out(scoring_rules_update(campaign=campaign, user=request.user, values=payload))


@router.put(
    "/battles/{battle_id}/objectives",
    response={200: list[SideObjectivesOut], 403: ErrorOut, 404: ErrorOut, 422: ErrorOut},
    auth=api_auth,
)
def battle_objectives(
    request: HttpRequest, battle_id: int, payload: Body[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Set the objectives met of the battle's sides (``{"<faction slug>": n}``, 0–100);
    a concluded battle's awards are written again. Organisers only."""
    battle = get_object_or_404(
        actionable_battles(request.user).select_related("campaign"), pk=battle_id
    )
    sides = side_objectives_set(battle=battle, user=request.user, values=payload)
    return [{"faction": s.faction.slug, "objectives_met": s.objectives_met} for s in sides]
