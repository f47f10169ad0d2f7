"""Construction at shipyards: ships from the faction's catalogue designs and light-unit
squadrons (the seed's Norwegian gunboats), paid in resources and technology, done after a
number of turn ends set by mass (``campaign.turns.rates``), joining a chosen fleet of the faction.

Prices come from the construction rules, never from a stated figure: a ship costs its
design's Fleet Book points (``factions.designs.validation.design_points`` + the squadrons of its
bays); a design whose stated ``points`` disagree is built at the computed price and flagged
(``factions.designs.points``); one whose design does not validate cannot be built.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.core.messages import message, message_of, text_of
from campaign.league.models import Campaign
from campaign.league.roles import can_act_for_faction
from campaign.turns import rates as rates_mod
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.models import Construction, LedgerEntry
from campaign.turns.repairs import next_turn_end
from campaign.turns.treasury import treasury_check
from factions.designs import construction, validation
from factions.designs.points import PointsCheck, points_check
from factions.models import Faction, Fleet, LightUnitGroup, ShipClass, Territory


@dataclass
class BuildQuote:
    """What a construction would cost and take, before it is confirmed."""

    faction: Faction
    yard: Territory
    fleet: Fleet
    ship_class: ShipClass | None
    light_kind: str
    light_variant: str
    label: str
    cost: int
    tech_cost: int
    turns: int
    eta_turn: int
    check: PointsCheck | None = None


def build_blockers(factions: list[Faction]) -> dict[int, str]:
    """Why each of ``factions`` that cannot order a construction cannot, by faction id
    (a faction absent from the result can): none of its territories has a shipyard
    (``Territory.shipyard_capacity``), or it has no fleet for the new unit to join. Two
    queries; the message is in the active language."""
    ids = [f.pk for f in factions]
    with_yard = set(
        Territory.objects.filter(faction_id__in=ids, shipyard_capacity__gt=0).values_list(
            "faction_id", flat=True
        )
    )
    with_fleet = set(Fleet.objects.filter(faction_id__in=ids).values_list("faction_id", flat=True))
    blockers = {}
    for f in factions:
        if f.pk not in with_yard:
            blockers[f.pk] = _(
                "%(faction)s cannot build: none of its territories has a shipyard."
            ) % {"faction": f.name}
        elif f.pk not in with_fleet:
            blockers[f.pk] = _(
                "%(faction)s cannot build: it has no fleet for a new unit to join."
            ) % {"faction": f.name}
    return blockers


def _require_orders_for(user, campaign: Campaign, faction: Faction) -> None:
    """The one permission check of a construction, its quote and its cancelling."""
    if not can_act_for_faction(user, campaign, faction):
        raise TurnPermissionError(
            _("faction: you do not give orders for %(faction)s") % {"faction": faction.name}
        )


def construction_quote(*, campaign: Campaign, user, faction: Faction, **spec) -> BuildQuote:
    """What :func:`construction_order` would place, written nowhere: the same permission
    check (:class:`TurnPermissionError` unless ``user`` organises the campaign or plays
    ``faction``), then :func:`construction_price` (``spec`` as there). Never calls a
    write, so a dry run cannot place an order or touch the treasury."""
    _require_orders_for(user, campaign, faction)
    return construction_price(campaign=campaign, faction=faction, **spec)


def construction_price(
    *,
    campaign: Campaign,
    faction: Faction,
    yard: Territory,
    fleet: Fleet,
    ship_class: ShipClass | None = None,
    light_kind: str = "",
    light_variant: str = "",
) -> BuildQuote:
    """Check and price a construction: a ``ship_class`` of the faction, or a squadron of
    six ``light_kind`` craft (``gunboat`` needs ``light_variant``: ``heavy-transport`` 72,
    ``emp`` 54, seed). Reads only, checks no permission (callers do). Raises
    :class:`TurnActionError` naming the yard, fleet or field."""
    if not campaign.factions.filter(pk=faction.pk).exists():
        raise TurnActionError(
            _("faction: %(faction)s does not play in %(campaign)s")
            % {"faction": faction.name, "campaign": campaign.name}
        )
    if yard.faction_id != faction.pk:
        raise TurnActionError(
            _("yard: %(yard)s is not a territory of %(faction)s")
            % {"yard": yard.name, "faction": faction.name}
        )
    if not yard.shipyard_capacity:
        raise TurnActionError(_("yard: %(yard)s has no shipyard") % {"yard": yard.name})
    if fleet.faction_id != faction.pk:
        raise TurnActionError(
            _("fleet: %(fleet)s is not a fleet of %(faction)s")
            % {"fleet": fleet.name, "faction": faction.name}
        )
    rates = rates_mod.turn_rates(campaign.turn_settings)
    check = None
    if ship_class is not None:
        if light_kind:
            raise TurnActionError(_("light_kind: build a ship class or a squadron, not both"))
        if ship_class.faction_id != faction.pk:
            raise TurnActionError(
                _("ship_class: %(ship_class)s is not a design of %(faction)s")
                % {"ship_class": ship_class.name, "faction": faction.name}
            )
        check = points_check(ship_class)
        if check.computed is None:
            raise TurnActionError(
                _(
                    "ship_class: %(ship_class)s cannot be built, its design does not follow "
                    "the construction rules (%(error)s)"
                )
                % {"ship_class": ship_class.name, "error": check.error}
            )
        cost = check.computed + validation.embarked_points(ship_class.design)
        tech, turns, label = (
            rates["ship_tech_cost"],
            rates_mod.construction_turns(ship_class.mass, rates),
            ship_class.name,
        )
    else:
        if (
            light_kind not in LightUnitGroup.Kind.values
            or light_kind == LightUnitGroup.Kind.BATTERY
        ):
            raise TurnActionError(
                _("light_kind: '%(kind)s' is not a squadron kind") % {"kind": light_kind}
            )
        try:
            cost = construction.squadron_points(light_kind, size=6, variant=light_variant or None)
        except ValueError as exc:
            raise TurnActionError(_("light_variant: %(error)s") % {"error": exc}) from exc
        tech = rates["gunboat_tech_cost"] if light_kind == LightUnitGroup.Kind.GUNBOAT else 0
        turns = rates["squadron_turns"] or 1
        label = f"{LightUnitGroup.Kind(light_kind).label} {light_variant}".strip()
    return BuildQuote(
        faction=faction,
        yard=yard,
        fleet=fleet,
        ship_class=ship_class,
        light_kind=light_kind,
        light_variant=light_variant,
        label=str(label),
        cost=cost,
        tech_cost=tech,
        turns=turns,
        eta_turn=next_turn_end(campaign) + turns - 1,
        check=check,
    )


def construction_order(*, campaign: Campaign, user, name: str = "", **spec) -> Construction:
    """Order and pay a construction (``spec`` as :func:`construction_price`); returns it.

    Raises :class:`TurnPermissionError` unless ``user`` organises the campaign or plays the
    faction; :class:`TurnActionError` as the price, or when the treasury cannot pay. One
    transaction: the construction and its ledger debit.
    """
    faction = spec["faction"]
    _require_orders_for(user, campaign, faction)
    with transaction.atomic():
        quote = construction_price(campaign=campaign, **spec)
        treasury_check(
            campaign=campaign, faction=faction, resources=quote.cost, technology=quote.tech_cost
        )
        by = user if getattr(user, "is_authenticated", False) else None
        built = Construction.objects.create(
            campaign=campaign,
            faction=faction,
            yard=quote.yard,
            fleet=quote.fleet,
            ship_class=quote.ship_class,
            light_kind=quote.light_kind,
            light_variant=quote.light_variant,
            name=(name or "").strip()[:200],
            turns_total=quote.turns,
            turns_left=quote.turns,
            cost=quote.cost,
            tech_cost=quote.tech_cost,
            ordered_turn=campaign.current_turn,
            ordered_by=by,
        )
        reason = message(
            "ledger.construction", name=built.name or quote.label, yard=quote.yard.name
        )
        LedgerEntry.objects.create(
            campaign=campaign,
            faction=faction,
            turn=campaign.current_turn,
            kind=LedgerEntry.Kind.CONSTRUCTION,
            resources=-quote.cost,
            technology=-quote.tech_cost,
            reason=text_of(reason, 300),
            reason_message=reason,
            user=by,
            construction=built,
        )
        return built


def construction_refund(construction: Construction) -> tuple[int, int]:
    """What cancelling ``construction`` gives back: ``(resources, technology)``.

    Resources for the turns not yet worked, rounded down (``cost × turns_left ÷
    turns_total``); the technology only while no turn end has worked on it. A project
    reading: the construction rules of the seed say nothing of cancelling.
    """
    c = construction
    if c.status != Construction.Status.QUEUED or not c.turns_total:
        return 0, 0
    resources = c.cost * c.turns_left // c.turns_total
    technology = c.tech_cost if c.turns_left == c.turns_total else 0
    return resources, technology


def construction_cancel(*, construction: Construction, user, reason: str = "") -> Construction:
    """Cancel a construction still in the yard and refund it (:func:`construction_refund`);
    returns it, with one ``refund`` ledger entry when anything is given back.

    Raises :class:`TurnPermissionError` unless ``user`` organises the campaign or plays the
    faction, :class:`TurnActionError` when it is done or cancelled already. One transaction,
    the row locked: two cancellations at once refund once.
    """
    campaign, faction = construction.campaign, construction.faction
    _require_orders_for(user, campaign, faction)
    with transaction.atomic():
        c = Construction.objects.select_for_update().get(pk=construction.pk)
        if c.status != Construction.Status.QUEUED:
            raise TurnActionError(
                _("construction %(name)s is %(status)s: it cannot be cancelled")
                % {"name": c, "status": c.get_status_display()}
            )
        resources, technology = construction_refund(c)
        c.status = Construction.Status.CANCELLED
        c.save(update_fields=["status"])
        if resources or technology:
            by = user if getattr(user, "is_authenticated", False) else None
            why = reason or message("ledger.construction_cancelled", name=str(c), yard=c.yard.name)
            LedgerEntry.objects.create(
                campaign=campaign,
                faction=faction,
                turn=campaign.current_turn,
                kind=LedgerEntry.Kind.REFUND,
                resources=resources,
                technology=technology,
                reason=text_of(why, 300),
                reason_message=message_of(why),
                user=by,
                construction=c,
            )
        return c
