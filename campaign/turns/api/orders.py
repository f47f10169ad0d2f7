"""Repair and construction endpoints of the campaign-turn API
(``campaign.turns.api.turn`` has the turn,
the treasuries and the scoping helper; same rules: thin handlers, non-members 404, service
errors 400/403)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Schema, Status

from campaign.core.api_pages import array_page
from campaign.core.stored_text import stored_text
from campaign.league.api_auth import api_auth
from campaign.turns import building, repairs
from campaign.turns.api.turn import _campaign
from campaign.turns.errors import TurnActionError
from campaign.turns.models import Construction, RepairOrder
from factions.access import visible_ships
from factions.models import Fleet, ShipClass, Territory

router = Router(tags=["turns"], auth=api_auth)


class RepairIn(Schema):
    ship: int
    hull: int = 0
    armour: int = 0
    crew: int = 0
    systems: list[str] = []
    dry_run: bool = False


class RepairOut(Schema):
    id: int | None
    ship: int
    yard: str
    status: str
    hull: int
    armour: int
    crew: int
    systems: list[str]
    left: dict
    cost: int
    refunded: int = 0
    eta_turn: int | None
    eta_note: str = ""
    #: ``eta_note`` in the request's language (``campaign.core.stored_text``).
    eta_note_display: str = ""
    turns: int | None = None


class BuildIn(Schema):
    faction: str
    yard: str
    fleet: str
    ship_class: int | None = None
    light_kind: str = ""
    light_variant: str = ""
    name: str = ""
    dry_run: bool = False


class BuildOut(Schema):
    id: int | None
    faction: str
    yard: str
    fleet: str
    label: str
    status: str
    cost: int
    tech_cost: int
    turns_left: int
    eta_turn: int | None = None
    points_stated: int | None = None
    points_computed: int | None = None
    points_flagged: bool = False
    refunded: int = 0
    refunded_technology: int = 0


def _repair_out(o: RepairOrder) -> dict:
    return {
        "id": o.pk,
        "ship": o.ship_id,
        "yard": o.yard.slug,
        "status": o.status,
        "hull": o.hull,
        "armour": o.armour,
        "crew": o.crew,
        "systems": o.systems,
        "left": o.left,
        "cost": o.cost,
        "refunded": o.refunded,
        "eta_turn": o.eta_turn,
        "eta_note": o.eta_note,
        "eta_note_display": stored_text(o.eta_note, o.eta_note_message),
    }


def _repair_outs(request: HttpRequest, rows: list[RepairOrder]) -> list[dict]:
    return [_repair_out(o) for o in rows]


@router.get("/campaigns/{slug}/repairs", response=list[RepairOut])
@array_page(prepare=_repair_outs)
def repair_list(request: HttpRequest, response: HttpResponse, slug: str):
    """Repair orders of the factions the user may see in the campaign."""
    campaign, seen = _campaign(request, slug)
    qs = RepairOrder.objects.filter(campaign=campaign).select_related("yard")
    if seen is not None:
        qs = qs.filter(ship__fleet__faction_id__in=seen)
    return qs  # a page at a time: limit/offset, X-Total-Count (campaign.core.api_pages)


@router.post("/campaigns/{slug}/repairs", response={200: RepairOut, 201: RepairOut})
def repair_create(request: HttpRequest, slug: str, payload: RepairIn):
    """Order repairs for a ship (its player or an organiser); ``dry_run`` returns the
    quote (cost, turns, ETA) without writing. 400 names the ship, yard or field."""
    campaign, seen = _campaign(request, slug)
    ship = get_object_or_404(
        visible_ships(request.user).select_related(
            "ship_class", "fleet__faction", "fleet__territory"
        ),
        pk=payload.ship,
        fleet__faction__in=campaign.factions.all(),
    )
    spec = {
        "hull": payload.hull,
        "armour": payload.armour,
        "crew": payload.crew,
        "systems": payload.systems,
    }
    if payload.dry_run:
        q = repairs.repair_quote(campaign=campaign, ship=ship, user=request.user, **spec)
        left = {"hull": q.hull, "armour": q.armour, "crew": q.crew, "systems": q.systems}
        return Status(
            200,
            {
                "id": None,
                "ship": ship.pk,
                "yard": q.yard.slug,
                "status": "quote",
                **left,
                "left": left,
                "cost": q.cost,
                "eta_turn": q.eta_turn,
                "turns": q.turns,
            },
        )
    order = repairs.repair_order(campaign=campaign, ship=ship, user=request.user, **spec)
    return Status(201, _repair_out(order))


@router.post("/campaigns/{slug}/repairs/{order_id}/cancel", response=RepairOut)
def repair_cancel(request: HttpRequest, slug: str, order_id: int):
    """Cancel an order, refunding the work not done."""
    campaign, seen = _campaign(request, slug)
    order = get_object_or_404(
        RepairOrder.objects.select_related("ship__fleet__faction", "yard"),
        pk=order_id,
        campaign=campaign,
    )
    if seen is not None and order.ship.fleet.faction_id not in seen:
        raise Http404("not your faction's order")
    return _repair_out(repairs.repair_cancel(order=order, user=request.user))


def _build_out(c: Construction) -> dict:
    return {
        "id": c.pk,
        "faction": c.faction.slug,
        "yard": c.yard.slug,
        "fleet": c.fleet.slug,
        "label": str(c),
        "status": c.status,
        "cost": c.cost,
        "tech_cost": c.tech_cost,
        "turns_left": c.turns_left,
    }


def _build_outs(request: HttpRequest, rows: list[Construction]) -> list[dict]:
    return [_build_out(c) for c in rows]


@router.get("/campaigns/{slug}/constructions", response=list[BuildOut])
@array_page(prepare=_build_outs)
def construction_list(request: HttpRequest, response: HttpResponse, slug: str):
    """Constructions of the factions the user may see in the campaign."""
    campaign, seen = _campaign(request, slug)
    qs = Construction.objects.filter(campaign=campaign).select_related(
        "faction", "yard", "fleet", "ship_class"
    )
    if seen is not None:
        qs = qs.filter(faction_id__in=seen)
    return qs  # a page at a time: limit/offset, X-Total-Count (campaign.core.api_pages)


@router.post("/campaigns/{slug}/constructions", response={200: BuildOut, 201: BuildOut})
def construction_create(request: HttpRequest, slug: str, payload: BuildIn):
    """Build a ship class (``ship_class`` id) or a squadron (``light_kind`` +
    ``light_variant``) at a yard (territory slug) for a fleet (slug); ``dry_run`` returns
    the quote. A design whose stated points disagree with its construction is flagged."""
    campaign, seen = _campaign(request, slug)
    faction = campaign.factions.filter(slug=payload.faction).first()
    if faction is None:
        raise TurnActionError(
            _("faction: '%(faction)s' does not play in %(campaign)s")
            % {"faction": payload.faction, "campaign": campaign.name}
        )
    yard = Territory.objects.filter(faction=faction, slug=payload.yard).first()
    if yard is None:
        raise TurnActionError(
            _("yard: %(faction)s has no territory '%(yard)s'")
            % {"faction": faction.name, "yard": payload.yard}
        )
    fleet = Fleet.objects.filter(slug=payload.fleet).first()
    if fleet is None:
        raise TurnActionError(_("fleet: no fleet '%(fleet)s'") % {"fleet": payload.fleet})
    spec = {
        "faction": faction,
        "yard": yard,
        "fleet": fleet,
        "light_kind": payload.light_kind,
        "light_variant": payload.light_variant,
    }
    if payload.ship_class is not None:
        spec["ship_class"] = ShipClass.objects.filter(pk=payload.ship_class).first()
        if spec["ship_class"] is None:
            raise TurnActionError(
                _("ship_class: no class %(ship_class)s") % {"ship_class": payload.ship_class}
            )
    if payload.dry_run:
        q = building.construction_quote(campaign=campaign, user=request.user, **spec)
        return Status(
            200,
            {
                "id": None,
                "faction": faction.slug,
                "yard": yard.slug,
                "fleet": fleet.slug,
                "label": q.label,
                "status": "quote",
                "cost": q.cost,
                "tech_cost": q.tech_cost,
                "turns_left": q.turns,
                "eta_turn": q.eta_turn,
                "points_stated": q.check.stated if q.check else None,
                "points_computed": q.check.computed if q.check else None,
                "points_flagged": bool(q.check and not q.check.ok),
            },
        )
    built = building.construction_order(
        campaign=campaign, user=request.user, name=payload.name, **spec
    )
    return Status(201, _build_out(built))


@router.post("/campaigns/{slug}/constructions/{build_id}/cancel", response=BuildOut)
def construction_cancel(request: HttpRequest, slug: str, build_id: int):
    """Cancel a construction still in the yard: ``refunded`` resources for the turns not
    worked, ``refunded_technology`` while no turn worked on it. Another faction's: 404."""
    campaign, seen = _campaign(request, slug)
    build = get_object_or_404(
        Construction.objects.select_related("faction", "yard", "fleet"),
        pk=build_id,
        campaign=campaign,
    )
    if seen is not None and build.faction_id not in seen:
        raise Http404("not your faction's construction")
    refund = building.construction_refund(build)
    done = building.construction_cancel(construction=build, user=request.user)
    return {**_build_out(done), "refunded": refund[0], "refunded_technology": refund[1]}
