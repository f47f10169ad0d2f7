"""Repair orders: a damaged ship at a friendly shipyard is mended over the coming turn ends.

Rules (rates in ``campaign.turns.rates``):

- only a ship of a faction playing in the campaign, neither destroyed nor captured, whose
  fleet is at a territory of its own faction with a shipyard (``shipyard_capacity`` > 0);
  out of port only damage control's field repairs apply (rules §12), which
  the battle engine does in phase 11: nothing is restored between battles;
- at most what the ship lost (hull boxes, armour boxes, crew factors, each system id in
  ``systems_lost``), one open order per ship, and no more queued work at the yard than
  ``capacity × yard_queue_turns`` units;
- the cost (``campaign.turns.rates.repair_unit_costs``) is debited when ordered; cancelling refunds
  the work not done at the prices of the order.

**A ship under repair cannot join a battle** (:func:`ships_under_repair` is the list the
battle set-up excludes): a ship in dock is not a ship in the line, and a half-done order
need not be suspended and resumed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from campaign.core.bulk_rows import rows_update
from campaign.core.messages import StoredMessage, message, message_of, text_of
from campaign.league.models import Campaign
from campaign.league.roles import can_act_for_faction
from campaign.turns import rates as rates_mod
from campaign.turns.errors import TurnActionError, TurnPermissionError, field_label
from campaign.turns.models import CampaignTurn, LedgerEntry, RepairOrder
from campaign.turns.schedule import Left, yard_first_turn, yard_turns
from campaign.turns.treasury import treasury_check
from factions.models import Ship, Territory

ACTIVE = RepairOrder.Status.QUEUED


def ship_label(ship: Ship) -> str:
    """How errors name a ship: ``"ship Nimrod (#12)"``."""
    if ship.name:
        return _("ship %(name)s (#%(id)s)") % {"name": ship.name, "id": ship.pk}
    return _("ship %(ship)s") % {"ship": ship}


def ship_yard(ship: Ship) -> Territory:
    """The friendly shipyard ``ship`` is at; :class:`TurnActionError` naming the ship if
    it is away from one."""
    fleet = ship.fleet
    where = fleet.territory
    if where is None:
        raise TurnActionError(
            _(
                "%(ship)s: fleet %(fleet)s is in transit; out of port only damage "
                "control's field repairs apply (rules §12)"
            )
            % {"ship": ship_label(ship), "fleet": fleet.name}
        )
    if where.faction_id != fleet.faction_id:
        raise TurnActionError(
            _(
                "%(ship)s: %(territory)s is not a territory of %(faction)s; "
                "repairs need a friendly shipyard"
            )
            % {"ship": ship_label(ship), "territory": where.name, "faction": fleet.faction.name}
        )
    if not where.shipyard_capacity:
        raise TurnActionError(
            _(
                "%(ship)s: %(territory)s has no shipyard; out of port only damage "
                "control's field repairs apply (rules §12)"
            )
            % {"ship": ship_label(ship), "territory": where.name}
        )
    return where


def ships_under_repair(*, campaign: Campaign | None = None) -> QuerySet[Ship]:
    """Ships with an open repair order (in ``campaign``, or any): the battle set-up's
    eligible ships exclude them (module docstring: a ship under repair cannot join)."""
    orders = RepairOrder.objects.filter(status=ACTIVE)
    if campaign is not None:
        orders = orders.filter(campaign=campaign)
    return Ship.objects.filter(pk__in=orders.values("ship_id"))


def fleet_repairs(fleet) -> list[RepairOrder]:
    """Open repair orders on ``fleet``'s ships, for the fleet page and the site. As public
    as the fleet's damage state: the caller has scoped ``fleet`` through
    ``visible_fleets`` (a hidden fleet's repairs stay with those who see it); costs
    and treasuries are only on the turn page."""
    return list(
        RepairOrder.objects.filter(ship__fleet=fleet, status=ACTIVE)
        .select_related("ship__ship_class", "yard", "campaign")
        .order_by("eta_turn", "pk")
    )


def next_turn_end(campaign: Campaign) -> int:
    """Number of the turn whose end comes next: the open turn, else the one after the last
    closed turn (``Campaign.current_turn`` before any turn exists). ETAs count from it."""

    last = CampaignTurn.objects.filter(campaign=campaign).order_by("-number").first()
    if last is None:
        return campaign.current_turn
    return last.number if last.status == CampaignTurn.Status.OPEN else last.number + 1


def order_left(order: RepairOrder) -> Left:
    """What ``order`` still has to restore."""
    left = order.left
    return Left(left["hull"], left["armour"], left["crew"], left["systems"])


@dataclass
class RepairQuote:
    """What an order would cost and take, before it is confirmed."""

    ship: Ship
    yard: Territory
    hull: int
    armour: int
    crew: int
    systems: list[str] = field(default_factory=list)
    unit_costs: dict = field(default_factory=dict)
    cost: int = 0
    work: int = 0
    turns: int | None = None  # turn ends until done, with the yard's queue ahead of it
    eta_turn: int | None = None


def _price(unit_costs: dict, hull: int, armour: int, crew: int, systems: list[str]) -> int:
    return (
        hull * unit_costs["hull"]
        + armour * unit_costs["armour"]
        + crew * unit_costs["crew"]
        + sum(unit_costs["systems"].get(s, 0) for s in systems)
    )


def _yard_queue(yard: Territory, campaign: Campaign) -> list[RepairOrder]:
    return list(
        RepairOrder.objects.filter(yard=yard, campaign=campaign, status=ACTIVE)
        .select_related("ship__ship_class")
        .order_by("position", "pk")
    )


def repair_blocker(campaign: Campaign, ship: Ship) -> str | None:
    """Why no repair order can be placed for ``ship`` in ``campaign`` now, as a sentence
    for its page (a capital first, the reader's language), or None when one can: destroyed
    or captured, nothing lost, an order already queued (with its yard and end turn), or
    away from a friendly shipyard (:func:`ship_yard`'s reason). The ship page shows it
    instead of a link to a form that could only be refused."""
    if ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
        reason = _("%(ship)s is %(status)s: it cannot be repaired") % {
            "ship": ship_label(ship),
            "status": ship.get_status_display(),
        }
        return capfirst(reason)
    if not (ship.hull_lost or ship.armour_lost or ship.crew_lost or ship.systems_lost):
        return _("Nothing to repair: the ship has lost no box, crew factor or system.")
    order = (
        RepairOrder.objects.filter(ship=ship, campaign=campaign, status=ACTIVE)
        .select_related("yard")
        .first()
    )
    if order is not None:
        if order.eta_turn:
            return _(
                "Repairs already ordered at %(yard)s, done at turn %(turn)s; cancel them on "
                "the turn page to order others."
            ) % {"yard": order.yard.name, "turn": order.eta_turn}
        return _(
            "Repairs already ordered at %(yard)s; cancel them on the turn page to order others."
        ) % {"yard": order.yard.name}
    try:
        ship_yard(ship)
    except TurnActionError as exc:
        return capfirst(str(exc))
    return None


def _require_orders_for(user, campaign: Campaign, ship: Ship) -> None:
    """The one permission check of a repair order, its quote and its cancelling."""
    if not can_act_for_faction(user, campaign, ship.fleet.faction):
        raise TurnPermissionError(
            _("%(ship)s: you do not give orders for %(faction)s")
            % {"ship": ship_label(ship), "faction": ship.fleet.faction.name}
        )


def repair_quote(
    *,
    campaign: Campaign,
    ship: Ship,
    user,
    hull: int = 0,
    armour: int = 0,
    crew: int = 0,
    systems: list[str] | None = None,
) -> RepairQuote:
    """What :func:`repair_order` would place, written nowhere: the same permission check
    (:class:`TurnPermissionError` unless ``user`` organises the campaign or plays the
    ship's faction in it), then :func:`repair_price`. Never calls a write, so a dry run
    cannot place an order or touch the treasury."""
    _require_orders_for(user, campaign, ship)
    return repair_price(
        campaign=campaign, ship=ship, hull=hull, armour=armour, crew=crew, systems=systems
    )


def repair_price(
    *,
    campaign: Campaign,
    ship: Ship,
    hull: int = 0,
    armour: int = 0,
    crew: int = 0,
    systems: list[str] | None = None,
) -> RepairQuote:
    """Check an order and price it (cost in resources, work units, turns to finish); reads
    only, checks no permission (callers do: :func:`repair_quote`, :func:`repair_order`).

    ``hull``/``armour``/``crew``: boxes and crew factors to restore; ``systems``: ids from
    ``ship.systems_lost``. Raises :class:`TurnActionError` naming the ship, yard or field.
    """
    systems = list(systems or [])
    faction = ship.fleet.faction
    if not campaign.factions.filter(pk=faction.pk).exists():
        raise TurnActionError(
            _("%(ship)s: %(faction)s does not play in %(campaign)s")
            % {"ship": ship_label(ship), "faction": faction.name, "campaign": campaign.name}
        )
    if ship.status in (Ship.Status.DESTROYED, Ship.Status.CAPTURED):
        raise TurnActionError(
            _("%(ship)s is %(status)s: it cannot be repaired")
            % {"ship": ship_label(ship), "status": ship.get_status_display()}
        )
    yard = ship_yard(ship)
    if RepairOrder.objects.filter(ship=ship, status=ACTIVE).exists():
        raise TurnActionError(
            _("%(ship)s already has a repair order: cancel it first") % {"ship": ship_label(ship)}
        )
    for name, value, most in (
        ("hull", hull, ship.hull_lost),
        ("armour", armour, ship.armour_lost),
        ("crew", crew, ship.crew_lost),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise TurnActionError(
                _("%(field)s: %(value)r is not a whole number ≥ 0")
                % {"field": field_label(name), "value": value}
            )
        if value > most:
            raise TurnActionError(
                _("%(field)s: %(value)s for %(ship)s, which lost %(most)s")
                % {
                    "field": field_label(name),
                    "value": value,
                    "ship": ship_label(ship),
                    "most": most,
                }
            )
    unknown = sorted(set(systems) - set(ship.systems_lost or []))
    if unknown or len(set(systems)) != len(systems):
        raise TurnActionError(
            _("systems: %(systems)s not lost by %(ship)s (lost: %(lost)s)")
            % {
                "systems": unknown or systems,
                "ship": ship_label(ship),
                "lost": ", ".join(ship.systems_lost or []) or _("none"),
            }
        )
    if not (hull or armour or crew or systems):
        raise TurnActionError(
            _("%(ship)s: nothing to repair was ordered") % {"ship": ship_label(ship)}
        )
    rates = rates_mod.turn_rates(campaign.turn_settings)
    try:
        unit_costs = rates_mod.repair_unit_costs(ship.ship_class.design, rates)
    except ValueError as exc:
        raise TurnActionError(
            _("%(ship)s: class %(ship_class)s cannot be priced: %(error)s")
            % {"ship": ship_label(ship), "ship_class": ship.ship_class.name, "error": exc}
        ) from exc
    left = Left(hull, armour, crew, systems)
    work = left.units(rates["system_work"])
    queue = _yard_queue(yard, campaign)
    queued = sum(order_left(o).units(rates["system_work"]) for o in queue)
    room = yard.shipyard_capacity * rates["yard_queue_turns"]
    if queued + work > room:
        raise TurnActionError(
            _(
                "yard %(yard)s: %(work)s work units ordered, %(queued)s already queued, the "
                "yard holds %(room)s (%(capacity)s a turn × %(turns)s turns)"
            )
            % {
                "yard": yard.name,
                "work": work,
                "queued": queued,
                "room": room,
                "capacity": yard.shipyard_capacity,
                "turns": rates["yard_queue_turns"],
            }
        )
    turns = yard_turns(
        [(o.pk, order_left(o)) for o in queue] + [(0, left)],
        yard.shipyard_capacity,
        rates["system_work"],
    )[0]
    return RepairQuote(
        ship=ship,
        yard=yard,
        hull=hull,
        armour=armour,
        crew=crew,
        systems=systems,
        unit_costs=unit_costs,
        cost=_price(unit_costs, hull, armour, crew, systems),
        work=work,
        turns=turns,
        eta_turn=next_turn_end(campaign) + turns - 1 if turns else None,
    )


def repair_order(
    *,
    campaign: Campaign,
    ship: Ship,
    user,
    hull: int = 0,
    armour: int = 0,
    crew: int = 0,
    systems: list[str] | None = None,
) -> RepairOrder:
    """Place and pay a repair order (priced as :func:`repair_price`); returns it.

    Raises :class:`TurnPermissionError` unless ``user`` organises the campaign or plays
    the ship's faction in it (a management command acts as ``SYSTEM``);
    :class:`TurnActionError` as :func:`repair_price`, or when the faction cannot pay. One
    transaction: the order, its ledger debit, the yard's ETAs.
    """
    _require_orders_for(user, campaign, ship)
    with transaction.atomic():
        quote = repair_price(
            campaign=campaign, ship=ship, hull=hull, armour=armour, crew=crew, systems=systems
        )
        treasury_check(campaign=campaign, faction=ship.fleet.faction, resources=quote.cost)
        last = (
            RepairOrder.objects.filter(yard=quote.yard, campaign=campaign)
            .order_by("-position")
            .first()
        )
        order = RepairOrder.objects.create(
            campaign=campaign,
            ship=ship,
            yard=quote.yard,
            position=(last.position + 1) if last else 1,
            hull=quote.hull,
            armour=quote.armour,
            crew=quote.crew,
            systems=quote.systems,
            unit_costs=quote.unit_costs,
            cost=quote.cost,
            eta_turn=quote.eta_turn,
            ordered_turn=campaign.current_turn,
            ordered_by=user if getattr(user, "is_authenticated", False) else None,
        )
        reason = message("ledger.repair", ship=str(ship), yard=quote.yard.name)
        LedgerEntry.objects.create(
            campaign=campaign,
            faction=ship.fleet.faction,
            turn=campaign.current_turn,
            kind=LedgerEntry.Kind.REPAIR,
            resources=-quote.cost,
            reason=text_of(reason, 300),
            reason_message=reason,
            user=order.ordered_by,
            repair_order=order,
        )
        return order


def repair_refund_amount(order: RepairOrder) -> int:
    """Resources for the work of ``order`` not done, at the order's unit prices."""
    left = order.left
    return _price(order.unit_costs, left["hull"], left["armour"], left["crew"], left["systems"])


def repair_cancel(*, order: RepairOrder, user, reason: str = "") -> RepairOrder:
    """Cancel an open order and refund what was not done; returns it.

    Raises :class:`TurnPermissionError` (not the ship's player nor an organiser) or
    :class:`TurnActionError` (the order is done or cancelled already). The yard's other
    orders get their new ETA with the reason.
    """
    campaign = order.campaign
    ship = order.ship
    _require_orders_for(user, campaign, ship)
    with transaction.atomic():
        order = RepairOrder.objects.select_for_update().get(pk=order.pk)
        if order.status != ACTIVE:
            raise TurnActionError(
                _("repair order %(order)s of %(ship)s is %(status)s")
                % {
                    "order": order.pk,
                    "ship": ship_label(ship),
                    "status": order.get_status_display(),
                }
            )
        why = reason or message("ledger.repair_cancelled", ship=str(ship))
        return _cancel(order, user=user, why=why)


def _cancel(order: RepairOrder, *, user, why: str | StoredMessage) -> RepairOrder:
    """``why``: a person's own words or a message (``campaign.core.messages``)."""
    refund = repair_refund_amount(order)
    order.status = RepairOrder.Status.CANCELLED
    order.refunded = refund
    order.eta_turn = None
    order.save(update_fields=["status", "refunded", "eta_turn"])
    if refund:
        LedgerEntry.objects.create(
            campaign=order.campaign,
            faction=order.ship.fleet.faction,
            turn=order.campaign.current_turn,
            kind=LedgerEntry.Kind.REFUND,
            resources=refund,
            reason=text_of(why, 300),
            reason_message=message_of(why),
            user=user if getattr(user, "is_authenticated", False) else None,
            repair_order=order,
        )
    yard_reschedule(yard=order.yard, campaign=order.campaign, why=why)
    return order


def yard_reschedule(
    *, yard: Territory, campaign: Campaign, why: str | StoredMessage
) -> list[RepairOrder]:
    """Recompute the ETA of the yard's open orders; an order whose ETA moves keeps ``why``
    (a person's words or a message) in ``eta_note`` and ``eta_note_message`` for the fleet
    page. Returns the changed orders (written by one joined update)."""
    rates = rates_mod.turn_rates(campaign.turn_settings)
    changed = _etas_moved(_yard_queue(yard, campaign), yard, rates, next_turn_end(campaign), why)
    rows_update(RepairOrder.objects, changed, ["eta_turn", "eta_note", "eta_note_message"])
    return changed


def yards_reschedule(*, campaign: Campaign, why: str | StoredMessage) -> list[RepairOrder]:
    """:func:`yard_reschedule` of every yard with open orders in ``campaign`` (the turn
    close), in a fixed number of queries whatever the yards: the orders in one query, the
    changed ones in one joined update. Returns the changed orders."""
    rates = rates_mod.turn_rates(campaign.turn_settings)
    queues: dict[int, list[RepairOrder]] = {}
    for o in (
        RepairOrder.objects.filter(campaign=campaign, status=ACTIVE)
        .select_related("ship__ship_class", "yard")
        .defer("ship__ship_class__design")
        .order_by("position", "pk")
    ):
        queues.setdefault(o.yard_id, []).append(o)
    if not queues:
        return []
    base = next_turn_end(campaign)
    changed = []
    for queue in queues.values():
        changed += _etas_moved(queue, queue[0].yard, rates, base, why)
    rows_update(RepairOrder.objects, changed, ["eta_turn", "eta_note", "eta_note_message"])
    return changed


def _etas_moved(
    queue: list[RepairOrder],
    yard: Territory,
    rates: dict[str, int],
    base: int,
    why: str | StoredMessage,
) -> list[RepairOrder]:
    """The orders of ``queue`` (one yard's, in order) whose ETA moves, given their new
    one and its note (not saved); ``base``: the number of the next turn end."""
    turns = yard_turns(
        [(o.pk, order_left(o)) for o in queue], yard.shipyard_capacity, rates["system_work"]
    )
    changed = []
    for o in queue:
        eta = base + turns[o.pk] - 1 if turns[o.pk] else None
        if eta != o.eta_turn:
            note = message("repair.eta_moved", n=o.eta_turn, why=why) if o.eta_turn else why
            o.eta_note, o.eta_note_message = text_of(note, 300), message_of(note)
            o.eta_turn = eta
            changed.append(o)
    return changed


def repairs_first_turn(orders: list[RepairOrder], rates: dict[str, int]) -> dict[int, Left]:
    """What the coming turn end restores of each open order, by order id (orders grouped by
    yard, each yard's queue in order)."""
    by_yard: dict[int, list[RepairOrder]] = {}
    for o in orders:
        by_yard.setdefault(o.yard_id, []).append(o)
    out: dict[int, Left] = {}
    for queue in by_yard.values():
        queue.sort(key=lambda o: (o.position, o.pk))
        out.update(
            yard_first_turn(
                [(o.pk, order_left(o)) for o in queue],
                queue[0].yard.shipyard_capacity,
                rates["system_work"],
            )
        )
    return out


class RepairsBlockBattleReopen(TurnActionError):
    """Undoing a battle is refused: work was done on damage it dealt."""


def repairs_release_for_battle(*, battle, user) -> list[RepairOrder]:
    """The rule for ``battle_reopen``: call it inside the reopen's transaction,
    before the ships' damage is restored.

    Repair orders placed on the battle's ships since it concluded that have restored nothing
    yet are cancelled and refunded in full (the damage they were to mend is being undone);
    if any such order has already restored something, undoing the battle is refused with
    :class:`RepairsBlockBattleReopen` naming the ship (the ship's state has moved on since
    the battle: cancel the order first, then undo). Returns the cancelled orders.
    """
    # The battle's ships, through their participations (battles sit above this layer).
    on_its_ships = Ship.objects.filter(participations__side__battle=battle)
    orders = list(
        RepairOrder.objects.select_for_update()
        .filter(
            campaign_id=battle.campaign_id,
            status__in=[ACTIVE, RepairOrder.Status.DONE],
            ship_id__in=on_its_ships.values("pk"),
            created_at__gte=battle.concluded_at,
        )
        .select_related("ship__fleet__faction", "campaign", "yard")
    )
    started = [o for o in orders if o.hull_done or o.armour_done or o.crew_done or o.systems_done]
    if started:
        names = ", ".join(ship_label(o.ship) for o in started)
        raise RepairsBlockBattleReopen(
            _(
                "battle %(battle)s: repairs were already done on its damage (%(ships)s); "
                "undoing the battle would restore boxes the yard has mended: reopen those "
                "turns or cancel the orders first"
            )
            % {"battle": battle.name, "ships": names}
        )
    for o in orders:
        why = message("ledger.repair_undone", battle=battle.name, ship=str(o.ship))
        _cancel(o, user=user, why=why)
    return orders


def ship_repair_campaigns(ship: Ship, user) -> list[tuple[Campaign, str | None]]:
    """Campaigns where ``user`` may order repairs for ``ship``, each with why no order can
    be placed there now (:func:`repair_blocker`; None: the ship page links the form)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return [
        (c, repair_blocker(c, ship))
        for c in ship.fleet.faction.campaigns.all()
        if can_act_for_faction(user, c, ship.fleet.faction)
    ]
