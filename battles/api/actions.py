"""Battle actions in the API, the same as the pages offer: set up, preview,
re-seed, record entries and their confirmation, reopen, the timeline. Thin handlers:
scope through the ``access`` helpers, call ``battles.services``; a refused action
(``BattleActionError``, a ``RulesError``) becomes 400 with its message in
``campaign/api/__init__.py``, the one place errors are mapped.

Who: 401 without a user (``campaign.league.api_auth.api_auth``: a bearer API token, or the
session and its CSRF token); 404 for users
with no role in the battle's campaign and for battles they may not see; 403 for members
without the right. Organisers set up, preview, re-seed, reopen and read the timeline; a
player submits their side's record entry; the organiser or another side's player
confirms or rejects it.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import HttpError

from battles.access import actionable_battles
from battles.models import Battle, BattleAction, RecordEntry
from battles.services import (
    MAX_TURNS_LIMIT,
    SideSpec,
    battle_create,
    battle_reopen,
    battle_reseed,
    battle_resolve_preview,
    eligible_light_units,
    eligible_ships,
    record_confirm,
    record_reject,
    record_submit,
)
from campaign.core import limits
from campaign.core.stored_text import stored_text
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign
from campaign.league.roles import require_member, require_organiser
from campaign.starmap.models import StarSystem
from factions.models import Fleet, Territory

router = Router(tags=["battle actions"], auth=api_auth)


def _organiser_refusal(campaign: Campaign) -> str:
    return _("only organisers of campaign '%(campaign)s' may do this") % {"campaign": campaign.slug}


def _campaign_organiser(request: HttpRequest, slug: str) -> Campaign:
    campaign = get_object_or_404(Campaign, slug=slug)
    require_organiser(request.user, campaign, _organiser_refusal(campaign))
    return campaign


def _battle(request: HttpRequest, battle_id: int, *, organiser: bool) -> tuple[Battle, set]:
    battle = get_object_or_404(
        actionable_battles(request.user).select_related("campaign"), pk=battle_id
    )
    if organiser:
        return battle, require_organiser(
            request.user, battle.campaign, _organiser_refusal(battle.campaign)
        )
    return battle, require_member(request.user, battle.campaign)


# ---- set up ----------------------------------------------------------------------------


class CandidateShipOut(Schema):
    id: int
    name: str
    ship_class: str
    faction: str
    fleet: str
    squadron: str | None
    status: str
    hull_lost: int
    armour_lost: int
    crew_lost: int
    systems_lost: list[str]


class CandidateGroupOut(Schema):
    id: int
    name: str
    kind: str
    faction: str
    strength: int
    carrier_id: int | None
    based_at: str | None


class CandidatesOut(Schema):
    """What a battle of the campaign may field: ships with their current damage (not
    destroyed, captured or in an unconcluded battle) and light-unit groups (carried,
    based at stations and colonies, batteries)."""

    ships: list[CandidateShipOut]
    light_units: list[CandidateGroupOut]


@router.get("/campaigns/{slug}/battle-candidates", response=CandidatesOut)
def battle_candidates(
    request: HttpRequest, slug: str, system: str | None = Query(None, max_length=120)
) -> dict[str, Any]:
    """Ships and light units an organiser may set up in a battle of the campaign (only
    the ships of the fleets in star ``system``, a slug, when given)."""
    campaign = _campaign_organiser(request, slug)
    where = None
    if system:
        where = StarSystem.objects.filter(campaign=campaign, slug=system).first()
        if where is None:
            raise HttpError(
                400, _("system: %(value)r is not a system of this campaign") % {"value": system}
            )
    ships = [
        {
            "id": s.pk,
            "name": s.name or s.ship_class.name,
            "ship_class": s.ship_class.name,
            "faction": s.fleet.faction.slug,
            "fleet": s.fleet.slug,
            "squadron": s.squadron.name if s.squadron else None,
            "status": s.status,
            "hull_lost": s.hull_lost,
            "armour_lost": s.armour_lost,
            "crew_lost": s.crew_lost,
            "systems_lost": list(s.systems_lost or []),
        }
        for s in eligible_ships(campaign=campaign, system=where).select_related("fleet__faction")
    ]
    groups = [
        {
            "id": g.pk,
            "name": g.name,
            "kind": g.kind,
            "faction": g.faction.slug,
            "strength": g.strength,
            "carrier_id": g.carrier_id,
            "based_at": (g.territory.name if g.territory else g.location) or None,
        }
        for g in eligible_light_units(campaign=campaign).select_related("faction")
    ]
    return {"ships": ships, "light_units": groups}


class SideIn(Schema):
    faction: str = Field(description="faction slug")
    fleet: str | None = Field(default=None, description="fleet slug")
    primary_objective: str = Field(default="", max_length=5000)
    secondary_objectives: str = Field(default="", max_length=5000)
    ships: list[int] = []
    light_units: list[int] = []


class BattleCreateIn(Schema):
    name: str = Field(min_length=1, max_length=200)
    campaign_turn: int | None = Field(default=None, ge=1, le=limits.NUMBER_MAX)
    territory: str | None = Field(default=None, description="territory slug")
    system: str | None = Field(
        default=None, description="star system slug: only the ships of the fleets there"
    )
    scenario: str = Field(default="", max_length=100_000)
    sides: list[SideIn] = Field(min_length=2)


class BattleCreatedOut(Schema):
    id: int
    slug: str
    status: str
    url: str


@router.post("/campaigns/{slug}/battles", response={201: BattleCreatedOut})
def battle_create_view(request: HttpRequest, slug: str, payload: BattleCreateIn):
    """Set up a draft battle: sides, objectives, ships and light units (by id, see
    ``battle-candidates``)."""
    campaign = _campaign_organiser(request, slug)
    factions = {f.slug: f for f in campaign.factions.all()}
    sides = []
    for i, side in enumerate(payload.sides):
        faction = factions.get(side.faction)
        if faction is None:
            raise HttpError(
                400,
                _("sides[%(i)s].faction: %(value)r is not in the campaign")
                % {"i": i, "value": side.faction},
            )
        fleet = None
        if side.fleet:
            fleet = Fleet.objects.filter(slug=side.fleet, faction=faction).first()
            if fleet is None:
                raise HttpError(
                    400,
                    _("sides[%(i)s].fleet: %(value)r is not this faction's")
                    % {"i": i, "value": side.fleet},
                )
        sides.append(
            SideSpec(
                faction=faction,
                fleet=fleet,
                primary_objective=side.primary_objective,
                secondary_objectives=side.secondary_objectives,
                ships=side.ships,
                light_units=side.light_units,
            )
        )
    territory = None
    if payload.territory:
        territory = Territory.objects.filter(
            slug=payload.territory, faction__in=factions.values()
        ).first()
        if territory is None:
            raise HttpError(
                400,
                _("territory: %(value)r is not in the campaign") % {"value": payload.territory},
            )
    system = None
    if payload.system:
        system = StarSystem.objects.filter(campaign=campaign, slug=payload.system).first()
        if system is None:
            raise HttpError(
                400,
                _("system: %(value)r is not a system of this campaign") % {"value": payload.system},
            )
    battle = battle_create(
        campaign=campaign,
        name=payload.name,
        campaign_turn=payload.campaign_turn,
        territory=territory,
        system=system,
        scenario=payload.scenario,
        sides=sides,
        user=request.user,
    )
    return Status(
        201,
        {
            "id": battle.pk,
            "slug": battle.slug,
            "status": battle.status,
            "url": battle.get_absolute_url(),
        },
    )


# ---- auto-resolve preview and seed -----------------------------------------------------


class UnitResultOut(Schema):
    participant: int
    fate: str
    hull_lost: int
    armour_lost: int
    crew_lost: int
    systems_lost: list[str]
    craft_lost: int
    notes: str


class LogRowOut(Schema):
    game_turn: int
    phase: int
    kind: str
    summary: str


class PreviewOut(Schema):
    """What concluding would write: outcome, winner, every unit's losses, the log
    (without the dice rows)."""

    seed: int
    outcome: str
    outcome_display: str
    winner: str | None
    game_turns: int | None
    units: list[UnitResultOut]
    log: list[LogRowOut]


@router.get("/battles/{battle_id}/preview", response=PreviewOut)
def battle_preview_view(
    request: HttpRequest, battle_id: int, max_turns: int = Query(20, ge=1, le=MAX_TURNS_LIMIT)
):
    """Fight the draft battle with its stored seed, writing nothing (draw one first with
    ``POST /battles/{id}/reseed``)."""
    battle, _roles = _battle(request, battle_id, organiser=True)
    if battle.seed is None:
        raise HttpError(
            400,
            _("battle %(battle)s: no dice seed yet; POST /reseed first") % {"battle": battle.pk},
        )
    preview = battle_resolve_preview(battle=battle, seed=battle.seed, max_turns=max_turns)
    c = preview.conclusion
    return {
        "seed": preview.seed,
        "outcome": c.outcome,
        "outcome_display": stored_text(c.outcome, c.outcome_message),
        "winner": c.winner,
        "game_turns": c.game_turns,
        "units": [vars(r) for r in c.results],
        "log": [e for e in c.events if e["kind"] != "roll"],
    }


class ReasonIn(Schema):
    reason: str = Field(default="", max_length=2000)


class SeedOut(Schema):
    seed: int


@router.post("/battles/{battle_id}/reseed", response=SeedOut)
def battle_reseed_view(request: HttpRequest, battle_id: int, payload: ReasonIn):
    """Draw a new dice seed; a reason is required once a seed exists (kept in the
    timeline)."""
    battle, _roles = _battle(request, battle_id, organiser=True)
    return {"seed": battle_reseed(battle=battle, reason=payload.reason, user=request.user)}


class ReopenOut(Schema):
    id: int
    status: str
    version: int


@router.post("/battles/{battle_id}/reopen", response=ReopenOut)
def battle_reopen_view(request: HttpRequest, battle_id: int, payload: ReasonIn):
    """Undo a conclusion: every ship, light unit and intel row as before the battle."""
    battle, _roles = _battle(request, battle_id, organiser=True)
    return battle_reopen(battle=battle, user=request.user, reason=payload.reason)


# ---- record entries --------------------------------------------------------------------


class ResultIn(Schema):
    participant: int
    fate: str = "unharmed"
    hull_lost: int = Field(0, ge=0)
    armour_lost: int = Field(0, ge=0)
    crew_lost: int | None = Field(None, ge=0)
    systems_lost: list[str] = []
    craft_lost: int = Field(0, ge=0)
    notes: str = Field("", max_length=2000)


class RecordEntryIn(Schema):
    """One side's account (``side``: its faction slug; left out by an organiser: every
    side), checked against each ship's SSD."""

    side: str | None = None
    results: list[ResultIn] = []
    outcome: str = Field("", max_length=5000)
    winner: str | None = None
    game_turns: int | None = Field(None, ge=0, le=MAX_TURNS_LIMIT)
    narrative: str = Field("", max_length=100_000)


class RecordEntryOut(Schema):
    id: int
    side: str | None
    status: str
    battle_status: str

    @staticmethod
    def resolve_side(obj: RecordEntry) -> str | None:
        return obj.side.faction.slug if obj.side_id else None

    @staticmethod
    def resolve_battle_status(obj: RecordEntry) -> str:
        return Battle.objects.values_list("status", flat=True).get(pk=obj.battle_id)


@router.post("/battles/{battle_id}/record-entries", response={201: RecordEntryOut})
def record_entry_create(request: HttpRequest, battle_id: int, payload: RecordEntryIn):
    """Submit a side's record entry (a player of that side, or an organiser)."""
    battle, _roles = _battle(request, battle_id, organiser=False)
    side = None
    if payload.side is not None:
        side = battle.sides.filter(faction__slug=payload.side).first()
        if side is None:
            raise HttpError(
                400,
                _("side: %(value)r is not a side of battle %(battle)s")
                % {"value": payload.side, "battle": battle.pk},
            )
    # record_submit refuses (403) a side the user does not play.
    entry = record_submit(
        battle=battle,
        side=side,
        results=[r.model_dump(exclude_none=True) for r in payload.results],
        user=request.user,
        outcome=payload.outcome,
        winner=payload.winner,
        game_turns=payload.game_turns,
        narrative=payload.narrative,
    )
    return Status(201, entry)


@router.post("/battles/{battle_id}/record-entries/{entry_id}/{decision}", response=RecordEntryOut)
def record_entry_decide(request: HttpRequest, battle_id: int, entry_id: int, decision: str):
    """``decision``: ``confirm`` or ``reject`` (the organiser, or a player of another side
    than the entry's). The last confirmation concludes the battle."""
    if decision not in ("confirm", "reject"):
        raise Http404
    battle, _roles = _battle(request, battle_id, organiser=False)
    entry = get_object_or_404(RecordEntry, pk=entry_id, battle=battle)
    # The services refuse (403) anyone but the organisers and the other side.
    if decision == "confirm":
        return record_confirm(entry=entry, user=request.user)
    return record_reject(entry=entry, user=request.user)


# ---- timeline ----------------------------------------------------------------------------


class ActionOut(Schema):
    """One timeline entry; ``label``: its kind as shown, in the request's language
    (``BattleAction.label``)."""

    at: str
    user: str | None
    kind: str
    label: str
    summary: str
    #: ``summary`` in the request's language (``campaign.core.stored_text``); ``summary`` as stored.
    summary_display: str
    data: dict


@router.get("/battles/{battle_id}/timeline", response=list[ActionOut])
def battle_timeline(request: HttpRequest, battle_id: int):
    """Who did what, when, to the battle (organisers)."""
    battle, _roles = _battle(request, battle_id, organiser=True)
    return [
        {
            "at": a.at.isoformat(),
            "user": a.user.get_username() if a.user else None,
            "kind": a.kind,
            "label": a.label(),
            "summary": a.summary,
            "summary_display": stored_text(a.summary, a.summary_message),
            "data": a.data,
        }
        for a in BattleAction.objects.filter(battle=battle).select_related("user")
    ]
