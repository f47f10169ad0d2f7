"""The campaign-turn API (django-ninja routers mounted at ``/api/``; repairs and construction in
``campaign.turns.api.orders``): every action of the turn
pages. Thin handlers: scope through the ``access`` helpers (non-members of the campaign and
other campaigns' objects: 404), call the services in ``turns``; their
``TurnActionError`` answers 400 and ``TurnPermissionError`` 403 (``campaign/api/__init__.py``).
Every endpoint needs a logged-in session (401 otherwise).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from campaign.core.stored_text import stored_text
from campaign.league.api_auth import api_auth
from campaign.league.models import Campaign
from campaign.league.roles import is_organiser, require_faction_scope
from campaign.turns import closing, treasury
from campaign.turns.access import turn_summary_for
from campaign.turns.errors import TurnActionError
from campaign.turns.models import CampaignTurn, LedgerEntry

router = Router(tags=["turns"], auth=api_auth)


class TurnOut(Schema):
    number: int
    status: str
    opened_at: datetime
    closed_at: datetime | None
    deadline: datetime | None
    time_zone: str
    summary: dict


class PlanOut(Schema):
    repairs: list[dict]
    constructions: list[dict]
    squadrons_lost: list[dict]
    income: list[dict]


class TurnStateOut(Schema):
    campaign: str
    current_turn: int
    open: TurnOut | None
    last_closed: TurnOut | None
    preview: PlanOut | None = None


class OpenIn(Schema):
    deadline: datetime | None = None


class LedgerOut(Schema):
    id: int
    faction: str
    turn: int
    kind: str
    resources: int
    technology: int
    reason: str
    #: ``reason`` in the request's language (``campaign.core.stored_text``); ``reason`` as stored.
    reason_display: str
    user: str | None
    created_at: datetime


class TreasuryOut(Schema):
    faction: str
    resources: int
    technology: int


class TreasuriesOut(Schema):
    treasuries: list[TreasuryOut]
    ledger: list[LedgerOut]


class AdjustIn(Schema):
    faction: str
    resources: int = 0
    technology: int = 0
    reason: str


def _campaign(request: HttpRequest, slug: str) -> tuple[Campaign, set[int] | None]:
    campaign = get_object_or_404(Campaign, slug=slug)
    return campaign, require_faction_scope(request.user, campaign)


def _turn(t: CampaignTurn | None, campaign: Campaign, user: Any = None) -> dict | None:
    if t is None:
        return None
    return {
        "number": t.number,
        "status": t.status,
        "opened_at": t.opened_at,
        "closed_at": t.closed_at,
        "deadline": t.deadline,
        "time_zone": campaign.time_zone,
        "summary": turn_summary_for(user, t.summary, campaign=campaign),
    }


def _plan(plan: closing.TurnPlan) -> dict:
    return {
        "repairs": [
            {
                "order": o.pk,
                "ship": o.ship_id,
                "hull": g.hull,
                "armour": g.armour,
                "crew": g.crew,
                "systems": g.systems,
                "done": d,
            }
            for o, g, d in plan.repairs
        ],
        "constructions": [
            {"id": c.pk, "label": str(c), "completes": done} for c, done in plan.constructions
        ],
        "squadrons_lost": [
            {"id": g.pk, "name": g.name, "craft": g.strength} for g in plan.squadrons_lost
        ],
        "income": [{"faction": n, "resources": r, "technology": t} for _pk, n, r, t in plan.income],
    }


def _state(request: HttpRequest, campaign: Campaign) -> dict:
    current = closing.open_turn(campaign)
    last = campaign.turns.filter(status=CampaignTurn.Status.CLOSED).order_by("-number").first()
    preview = None
    if current is not None and is_organiser(request.user, campaign):
        preview = _plan(closing.turn_plan(campaign=campaign))
    return {
        "campaign": campaign.slug,
        "current_turn": campaign.current_turn,
        "open": _turn(current, campaign, request.user),
        "last_closed": _turn(last, campaign, request.user),
        "preview": preview,
    }


@router.get("/campaigns/{slug}/turn", response=TurnStateOut)
def turn_state(request: HttpRequest, slug: str):
    """The open turn, its deadline (UTC; ``time_zone`` to show it), the last closed turn
    with its summary, and for organisers what closing will do."""
    campaign, _seen = _campaign(request, slug)
    return _state(request, campaign)


@router.post("/campaigns/{slug}/turn/open", response=TurnStateOut)
def turn_open(request: HttpRequest, slug: str, payload: OpenIn | None = None):
    """Open the next turn (organisers); ``deadline`` an ISO time with its offset."""
    campaign, _seen = _campaign(request, slug)
    closing.campaign_turn_open(
        campaign=campaign, user=request.user, deadline=payload.deadline if payload else None
    )
    campaign.refresh_from_db()
    return _state(request, campaign)


@router.post("/campaigns/{slug}/turn/deadline", response=TurnStateOut)
def turn_deadline(request: HttpRequest, slug: str, payload: OpenIn):
    """Set (or clear with null) the open turn's deadline (organisers)."""
    campaign, _seen = _campaign(request, slug)
    current = closing.open_turn(campaign)
    if current is None:
        raise TurnActionError(_("%(campaign)s has no open turn") % {"campaign": campaign.name})
    closing.campaign_turn_deadline(turn=current, user=request.user, deadline=payload.deadline)
    return _state(request, campaign)


@router.post("/campaigns/{slug}/turn/close", response=TurnStateOut)
def turn_close(request: HttpRequest, slug: str):
    """Close the open turn (organisers); 400 when none is open (closing twice)."""
    campaign, _seen = _campaign(request, slug)
    closing.campaign_turn_close(campaign=campaign, user=request.user)
    return _state(request, campaign)


class ReopenIn(Schema):
    """The turn the request reopens: it must be the last closed turn, so that a second
    submit of the same request cannot reopen the turn before (409)."""

    turn: int


@router.post("/campaigns/{slug}/turn/reopen", response=TurnStateOut)
def turn_reopen(request: HttpRequest, slug: str, payload: ReopenIn):
    """Reopen turn ``payload.turn``, the last closed turn, restoring what closing it did
    (organisers); an open turn after it is removed. 409 when ``turn`` is not the last
    closed turn (nothing done)."""
    campaign, _seen = _campaign(request, slug)
    closing.campaign_turn_reopen(campaign=campaign, user=request.user, turn=payload.turn)
    campaign.refresh_from_db()
    return _state(request, campaign)


def _ledger_out(e: LedgerEntry) -> dict:
    return {
        "id": e.pk,
        "faction": e.faction.slug,
        "turn": e.turn,
        "kind": e.kind,
        "resources": e.resources,
        "technology": e.technology,
        "reason": e.reason,
        "reason_display": stored_text(e.reason, e.reason_message),
        "user": e.user.get_username() if e.user else None,
        "created_at": e.created_at,
    }


@router.get("/campaigns/{slug}/treasuries", response=TreasuriesOut)
def treasury_list(request: HttpRequest, slug: str):
    """Balances and ledger of the factions the user may see (organisers: all; players:
    their own)."""
    campaign, seen = _campaign(request, slug)
    factions = campaign.factions.order_by("name")
    if seen is not None:
        factions = factions.filter(pk__in=seen)
    factions = list(factions)
    balances = treasury.treasury_balances(campaign=campaign, faction_ids={f.pk for f in factions})
    entries = LedgerEntry.objects.filter(campaign=campaign, faction__in=factions).select_related(
        "faction", "user"
    )
    return {
        "treasuries": [
            {"faction": f.slug, **vars(balances.get(f.pk, treasury.Balance()))} for f in factions
        ],
        "ledger": [_ledger_out(e) for e in entries],
    }


@router.post("/campaigns/{slug}/treasury/adjust", response={201: LedgerOut})
def treasury_adjust(request: HttpRequest, slug: str, payload: AdjustIn):
    """An organiser's credit or debit of a faction's treasury, with its reason."""
    campaign, _seen = _campaign(request, slug)
    faction = campaign.factions.filter(slug=payload.faction).first()
    if faction is None:
        raise TurnActionError(
            _("faction: '%(faction)s' does not play in %(campaign)s")
            % {"faction": payload.faction, "campaign": campaign.name}
        )
    e = treasury.treasury_adjust(
        campaign=campaign,
        faction=faction,
        resources=payload.resources,
        technology=payload.technology,
        reason=payload.reason,
        user=request.user,
    )
    return Status(201, _ledger_out(e))
