"""Opening, closing and reopening campaign turns.

``campaign_turn_close`` is one transaction. In order: repairs progress (each yard's
capacity over its queue, ``campaign.turns.schedule``), construction completes (the ship or squadron
joins its fleet: the turn's reinforcements), light units whose carrier was destroyed or
captured are lost, income is paid (capped so that no treasury passes
``campaign.core.limits.NUMBER_MAX``, the ledger line saying what was not credited:
``campaign.turns.treasury.income_capped``), fleets move (``campaign.turns.moves``), the
summary is written. Fleets on the star map advance along their routes and enemy fleets
that meet are announced (``campaign.starmap.advance``); the older territory-to-territory
moves (``campaign.turns.moves``) remain for a campaign without a map.
Ships, orders and light units are written with a few joined updates (history rows too:
``campaign.core.bulk_rows``), so the query count does not grow with the ships repaired
(``bench/turn_close.py``).

**Squadrons whose carrier is destroyed** are lost at the turn end (strength 0): the seed
has craft aboard go down with their ship, and the campaign does not record whether a
squadron was out when its carrier died nor whether another carrier had a free bay (the
sample's bays are all full), so recovery is not offered.

**Reopening** the last closed turn restores what closing wrote — ship damage and status,
order progress, constructions, light-unit strengths, fleet positions — and deletes the
rows it created (the built ships and squadrons, the income entries). It is refused if
anything changed those rows since (a battle, a cancelled order, a payment after the
close): the message names what, undo that first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import Count, Q
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from campaign.core import limits
from campaign.core.actors import SYSTEM
from campaign.core.bulk_rows import rows_update, rows_update_with_history
from campaign.core.messages import StoredMessage, history_reason, message, text_of
from campaign.core.signals import public_change, turn_closed, turn_reopened
from campaign.league.models import Campaign
from campaign.league.roles import is_organiser
from campaign.starmap.advance import fleets_advance, fleets_advance_undo
from campaign.starmap.models import MapMove
from campaign.turns import rates as rates_mod
from campaign.turns.errors import TurnActionError, TurnConflict, TurnPermissionError
from campaign.turns.models import CampaignTurn, Construction, FleetMove, LedgerEntry, RepairOrder
from campaign.turns.moves import moves_carry_out, moves_undo, queued_moves
from campaign.turns.repairs import repairs_first_turn, yards_reschedule
from campaign.turns.schedule import Left
from campaign.turns.signals import turn_opened
from campaign.turns.treasury import Balance, income_capped, treasury_balances
from factions.models import LightUnitGroup, Ship

logger = logging.getLogger(__name__)
SHIP_FIELDS = ["hull_lost", "armour_lost", "crew_lost", "systems_lost", "status"]
ORDER_FIELDS = [
    "hull_done",
    "armour_done",
    "crew_done",
    "systems_done",
    "status",
    "eta_turn",
    "eta_note",
    "eta_note_message",
]
BUILD_FIELDS = ["turns_left", "status", "ship_id", "light_units_id"]


@dataclass
class TurnPlan:
    """What closing the open turn will do (the organiser's preview, and what close runs)."""

    turn: CampaignTurn
    repairs: list[tuple[RepairOrder, Left, bool]] = field(default_factory=list)  # restored, done
    constructions: list[tuple[Construction, bool]] = field(default_factory=list)  # completes
    squadrons_lost: list[LightUnitGroup] = field(default_factory=list)
    income: list[tuple[int, str, int, int]] = field(default_factory=list)  # faction, name, r, t
    #: Income not credited because the treasury is at its maximum: faction id -> (r, t).
    income_capped: dict[int, tuple[int, int]] = field(default_factory=dict)
    moves: list[FleetMove] = field(default_factory=list)
    map_moves: list[MapMove] = field(default_factory=list)


def _require_organiser(user, campaign: Campaign) -> None:
    # No actor skips the check: the scheduler passes as ``campaign.core.actors.SYSTEM``.
    if not is_organiser(user, campaign):
        raise TurnPermissionError(
            _("only an organiser of %(campaign)s opens and closes turns")
            % {"campaign": campaign.name}
        )


def open_turn(campaign: Campaign) -> CampaignTurn | None:
    """The campaign's open turn, if any."""
    return campaign.turns.filter(status=CampaignTurn.Status.OPEN).order_by("-number").first()


def _check_deadline(deadline: datetime | None, campaign: Campaign) -> None:
    """Raise :class:`TurnActionError` for a naive or past ``deadline`` (None: no deadline),
    the past one shown as the campaign's clock reads it ("01/01/2020 10:00 (UTC)")."""
    if deadline is None:
        return
    if timezone.is_naive(deadline):
        raise TurnActionError(_("deadline: give a time zone"))
    if deadline <= timezone.now():
        local = timezone.localtime(deadline, ZoneInfo(campaign.time_zone))
        raise TurnActionError(
            _("deadline: %(deadline)s (%(tz)s) is past; give a future time")
            % {
                "deadline": formats.date_format(local, "SHORT_DATETIME_FORMAT"),
                "tz": campaign.time_zone,
            }
        )


def campaign_turn_open(
    *, campaign: Campaign, user, deadline: datetime | None = None
) -> CampaignTurn:
    """Open the next turn (number = last + 1, or ``campaign.current_turn`` for the first)
    with an optional ``deadline`` (aware datetime; stored in UTC). Raises
    :class:`TurnActionError` when a turn is open already or the deadline is past."""
    _require_organiser(user, campaign)
    _check_deadline(deadline, campaign)
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        current = open_turn(campaign)
        if current is not None:
            raise TurnActionError(
                _("turn %(turn)s of %(campaign)s is still open")
                % {"turn": current.number, "campaign": campaign.name}
            )
        last = campaign.turns.order_by("-number").first()
        number = last.number + 1 if last else campaign.current_turn
        turn = CampaignTurn.objects.create(campaign=campaign, number=number, deadline=deadline)
        if campaign.current_turn != number:
            campaign.current_turn = number
            campaign.save(update_fields=["current_turn"])
        turn_opened.send(sender=CampaignTurn, campaign=campaign, turn=turn)
        return turn


def campaign_turn_deadline(*, turn: CampaignTurn, user, deadline: datetime | None) -> CampaignTurn:
    """Set or clear the deadline of an open turn. Raises :class:`TurnActionError` for a
    closed turn or a naive or past ``deadline``."""
    _require_organiser(user, turn.campaign)
    if turn.status != CampaignTurn.Status.OPEN:
        raise TurnActionError(
            _("turn %(turn)s is closed: its deadline cannot change") % {"turn": turn.number}
        )
    # A past deadline would have the next ``close_due_turns`` run close the turn unasked.
    _check_deadline(deadline, turn.campaign)
    turn.deadline = deadline
    turn.save(update_fields=["deadline"])
    return turn


def turn_plan(*, campaign: Campaign) -> TurnPlan:
    """What closing the open turn would do, computed without writing (a fixed number of
    queries). Raises :class:`TurnActionError` when no turn is open."""
    turn = open_turn(campaign)
    if turn is None:
        raise TurnActionError(
            _("%(campaign)s has no open turn to close") % {"campaign": campaign.name}
        )
    rates = rates_mod.turn_rates(campaign.turn_settings)
    plan = TurnPlan(turn=turn)
    orders = list(
        RepairOrder.objects.filter(campaign=campaign, status=RepairOrder.Status.QUEUED)
        .select_related("ship__ship_class", "ship__fleet__faction", "yard")
        # A class's design (its SSD, kilobytes of JSON) is not read here: a third of the
        # close's CPU went to decoding it once per order (bench/turn_close.py, ×5).
        .defer("ship__ship_class__design")
    )
    restored = repairs_first_turn(orders, rates)
    for o in orders:
        got = restored[o.pk]
        left = o.left
        done = (
            got.hull == left["hull"]
            and got.armour == left["armour"]
            and got.crew == left["crew"]
            and set(got.systems) == set(left["systems"])
        )
        plan.repairs.append((o, got, done))
    for c in Construction.objects.filter(
        campaign=campaign, status=Construction.Status.QUEUED
    ).select_related("ship_class", "fleet", "yard", "faction"):
        plan.constructions.append((c, c.turns_left <= 1))
    faction_ids = list(campaign.factions.values_list("pk", flat=True))
    plan.squadrons_lost = list(
        LightUnitGroup.objects.filter(
            faction_id__in=faction_ids,
            carrier__status__in=[Ship.Status.DESTROYED, Ship.Status.CAPTURED],
            strength__gt=0,
        ).select_related("carrier")
    )
    held = (
        campaign.factions.annotate(
            held=Count("territories", distinct=True),
            yards=Count(
                "territories", filter=Q(territories__shipyard_capacity__gt=0), distinct=True
            ),
        )
        .order_by("name")
        .values_list("pk", "name", "held", "yards")
    )
    balances = treasury_balances(campaign=campaign, faction_ids=set(faction_ids))
    for pk, name, held_n, yards in held:
        resources = held_n * rates["income_per_territory"] + yards * rates["income_shipyard_bonus"]
        credit, lost = income_capped(
            balances.get(pk, Balance()), resources, rates["technology_per_turn"]
        )
        plan.income.append((pk, name, credit.resources, credit.technology))
        if lost.resources or lost.technology:
            plan.income_capped[pk] = (lost.resources, lost.technology)
    plan.moves = queued_moves(campaign)
    plan.map_moves = list(
        MapMove.objects.filter(
            campaign=campaign, status__in=[MapMove.Status.QUEUED, MapMove.Status.UNDER_WAY]
        ).select_related("fleet", "origin", "destination")
    )
    return plan


def _ship_state(ship: Ship) -> dict:
    return {f: getattr(ship, f) for f in SHIP_FIELDS}


def campaign_turn_close(*, campaign: Campaign, user, now: datetime | None = None) -> CampaignTurn:
    """Close the open turn in one transaction (module docstring); returns it.

    ``user`` must organise the campaign (:class:`TurnPermissionError`); the scheduler
    (Celery beat, ``close_due_turns``) acts as ``campaign.core.actors.SYSTEM``. Closing a
    turn already closed, or with no turn open, raises :class:`TurnActionError` and changes
    nothing (idempotent).
    """
    _require_organiser(user, campaign)
    now = now or timezone.now()
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        plan = turn_plan(campaign=campaign)
        turn = CampaignTurn.objects.select_for_update().get(pk=plan.turn.pk)
        if turn.status != CampaignTurn.Status.OPEN:
            raise TurnActionError(
                _("turn %(turn)s of %(campaign)s is already closed")
                % {"turn": turn.number, "campaign": campaign.name}
            )
        n = turn.number
        undo: dict = {
            "ships": {},
            "orders": {},
            "builds": {},
            "lights": {},
            "ledger": [],
            "created_ships": [],
            "created_lights": [],
            "after": {},
        }
        summary: dict = {"repairs": [], "constructions": [], "squadrons_lost": [], "income": []}
        ships, orders = [], []
        repaired_at: dict[str, str] = {}  # yard name -> history reason: made once a yard
        for o, got, done in plan.repairs:
            ship = o.ship
            undo["ships"].setdefault(str(ship.pk), _ship_state(ship))
            undo["orders"][str(o.pk)] = {f: getattr(o, f) for f in ORDER_FIELDS}
            if got.empty and not done:
                continue
            ship.hull_lost -= got.hull
            ship.armour_lost -= got.armour
            ship.crew_lost -= got.crew
            ship.systems_lost = [s for s in ship.systems_lost if s not in got.systems]
            ship.settle_status()
            yard = o.yard.name
            if yard not in repaired_at:
                repaired_at[yard] = history_reason(message("turn.repaired", n=n, yard=yard))
            ship._change_reason = repaired_at[yard]
            ships.append(ship)
            o.hull_done += got.hull
            o.armour_done += got.armour
            o.crew_done += got.crew
            o.systems_done = list(o.systems_done) + got.systems
            if done:
                o.status = RepairOrder.Status.DONE
            orders.append(o)
            summary["repairs"].append(
                {
                    "ship": ship.pk,
                    "name": str(ship),
                    "yard": o.yard.name,
                    "hull": got.hull,
                    "armour": got.armour,
                    "crew": got.crew,
                    "systems": got.systems,
                    "done": done,
                }
            )
        rows_update_with_history(ships, Ship, SHIP_FIELDS, default_date=now)
        undo["after"] = {str(s.pk): _ship_state(s) for s in ships}
        rows_update(RepairOrder.objects, orders, ORDER_FIELDS)
        builds = []
        for c, completes in plan.constructions:
            undo["builds"][str(c.pk)] = {
                "turns_left": c.turns_left,
                "status": c.status,
                "ship_id": c.ship_id,
                "light_units_id": c.light_units_id,
            }
            c.turns_left = max(c.turns_left - 1, 0)
            if completes:
                c.status = Construction.Status.DONE
                _complete(c, n)
                undo["created_ships" if c.ship_id else "created_lights"].append(
                    c.ship_id or c.light_units_id
                )
                summary["constructions"].append(
                    {
                        "id": c.pk,
                        "name": str(c.ship or c.light_units),
                        "fleet": c.fleet.name,
                        "yard": c.yard.name,
                    }
                )
            builds.append(c)
        rows_update(Construction.objects, builds, BUILD_FIELDS)
        for g in plan.squadrons_lost:
            undo["lights"][str(g.pk)] = g.strength
            summary["squadrons_lost"].append(
                {"id": g.pk, "name": g.name, "craft": g.strength, "carrier": str(g.carrier)}
            )
            g.strength = 0
            g._change_reason = history_reason(
                message("turn.lost_with_carrier", n=n, carrier=str(g.carrier))
            )
        rows_update_with_history(
            plan.squadrons_lost, LightUnitGroup, ["strength"], default_date=now
        )
        reasons = {pk: _income_reason(n, plan.income_capped.get(pk)) for pk, *_ in plan.income}
        entries = LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(
                    campaign=campaign,
                    faction_id=pk,
                    turn=n,
                    kind=LedgerEntry.Kind.INCOME,
                    resources=r,
                    technology=t,
                    reason=text_of(reasons[pk], 300),
                    reason_message=reasons[pk],
                )
                for pk, _name, r, t in plan.income
                if r or t or pk in plan.income_capped
            ]
        )
        undo["ledger"] = [e.pk for e in entries]
        summary["moves"], undo["moves"] = moves_carry_out(campaign=campaign, turn_number=n, now=now)
        summary["map_moves"], undo["map"] = fleets_advance(
            campaign=campaign, turn_number=n, now=now
        )
        summary["income"] = [
            {"faction": name, "resources": r, "technology": t}
            | _capped_summary(plan.income_capped.get(pk))
            for pk, name, r, t in plan.income
        ]
        turn.status = CampaignTurn.Status.CLOSED
        turn.closed_at = now
        turn.summary = summary
        turn.undo = undo
        turn.save(update_fields=["status", "closed_at", "summary", "undo"])
        yards_reschedule(campaign=campaign, why=message("turn.closed", n=n))
        # Holding awards and fleet strengths (battles.scoring.receivers), sightings
        # (campaign.fog.sightings) at this close.
        turn_closed.send(sender=CampaignTurn, campaign=campaign, turn=n)
        # Fleets, holders and the turn's map change on the site: refreshed after the commit.
        public_change.send(sender=CampaignTurn, campaign=campaign, full=False)
        return turn


def _income_reason(n: int, capped: tuple[int, int] | None) -> StoredMessage:
    """The income entry's reason (a message, shown in the reader's language), saying what
    the maximum kept out."""
    if capped is None:
        return message("ledger.income", n=n)
    return message("ledger.income_capped", n=n, max=limits.NUMBER_MAX, r=capped[0], t=capped[1])


def _capped_summary(capped: tuple[int, int] | None) -> dict:
    if capped is None:
        return {}
    return {"capped_resources": capped[0], "capped_technology": capped[1]}


def _complete(c: Construction, n: int) -> None:
    """Launch a finished construction: the ship or squadron joins its fleet at the yard."""
    reason = history_reason(message("turn.built", n=n, yard=c.yard.name))
    if c.ship_class_id:
        ship = Ship(
            name=c.name,
            ship_class=c.ship_class,
            fleet=c.fleet,
            notes=f"Built at {c.yard.name}, turn {n}.",
        )
        ship._change_reason = reason
        ship.save()
        c.ship = ship
    else:
        group = LightUnitGroup(
            name=c.name or f"{c.light_variant or c.light_kind} ({c.yard.name}, turn {n})",
            kind=c.light_kind,
            unit_type=c.light_variant,
            faction=c.faction,
            fleet=c.fleet,
            territory=c.yard,
            location=c.yard.name,
        )
        group._change_reason = reason
        group.save()
        c.light_units = group


def campaign_turn_reopen(*, campaign: Campaign, user, turn: int) -> CampaignTurn:
    """Reopen turn number ``turn``, which must be the last closed turn, restoring exactly
    what closing it wrote (module docstring). A later turn that is open (see
    :func:`discarded_by_reopen`) is removed. The request names its turn so that a second
    submit of the same form cannot undo the turn before: it raises :class:`TurnConflict`
    (409) when ``turn`` is not the last closed turn, and :class:`TurnActionError` naming
    the turn, ship or entry that blocks it."""
    _require_organiser(user, campaign)
    asked = turn
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        turn = campaign.turns.filter(status=CampaignTurn.Status.CLOSED).order_by("-number").first()
        if turn is None:
            raise TurnConflict(
                _("%(campaign)s has no closed turn to reopen") % {"campaign": campaign.name}
            )
        if turn.number != asked:
            raise TurnConflict(
                _(
                    "turn %(asked)s is not the last closed turn (turn %(last)s is): "
                    "nothing was reopened"
                )
                % {"asked": asked, "last": turn.number}
            )
        later = list(campaign.turns.filter(number__gt=turn.number))
        for t in later:
            if t.status == CampaignTurn.Status.CLOSED:
                raise TurnActionError(
                    _("turn %(turn)s is closed: only the last closed turn reopens")
                    % {"turn": t.number}
                )
        undo = turn.undo
        since = (
            LedgerEntry.objects.filter(campaign=campaign, created_at__gt=turn.closed_at)
            .exclude(pk__in=undo["ledger"])
            .first()
        )
        if since is not None:
            raise TurnActionError(
                _(
                    "turn %(turn)s: %(faction)s paid or was paid after the close "
                    "(ledger entry %(entry)s, %(reason)s). The ledger keeps every entry, so "
                    "this turn can no longer be reopened: correct what must be with a "
                    "treasury adjustment instead"
                )
                % {
                    "turn": turn.number,
                    "faction": since.faction.name,
                    "entry": since.pk,
                    "reason": since.reason,
                }
            )
        reopened = history_reason(message("turn.reopened", n=turn.number))
        ships = list(Ship.objects.filter(pk__in=[int(k) for k in undo["ships"]]))
        for ship in ships:
            after = undo["after"].get(str(ship.pk))
            if after is not None and _ship_state(ship) != after:
                raise TurnActionError(
                    _(
                        "turn %(turn)s: ship %(ship)s (#%(id)s) changed since the close "
                        "(a battle?); undo that first"
                    )
                    % {"turn": turn.number, "ship": ship, "id": ship.pk}
                )
            for f, v in undo["ships"][str(ship.pk)].items():
                setattr(ship, f, v)
            ship._change_reason = reopened
        rows_update_with_history(ships, Ship, SHIP_FIELDS)
        orders = list(RepairOrder.objects.filter(pk__in=[int(k) for k in undo["orders"]]))
        for o in orders:
            for f, v in undo["orders"][str(o.pk)].items():
                setattr(o, f, v)
        rows_update(RepairOrder.objects, orders, ORDER_FIELDS)
        builds = list(Construction.objects.filter(pk__in=[int(k) for k in undo["builds"]]))
        for c in builds:
            for f, v in undo["builds"][str(c.pk)].items():
                setattr(c, f, v)
        rows_update(Construction.objects, builds, BUILD_FIELDS)
        for s in Ship.objects.filter(pk__in=undo["created_ships"]):
            s._change_reason = reopened
            s.delete()
        for g in LightUnitGroup.objects.filter(pk__in=undo["created_lights"]):
            g._change_reason = reopened
            g.delete()
        groups = list(LightUnitGroup.objects.filter(pk__in=[int(k) for k in undo["lights"]]))
        for g in groups:
            g.strength = undo["lights"][str(g.pk)]
            g._change_reason = reopened
        rows_update_with_history(groups, LightUnitGroup, ["strength"])
        LedgerEntry.objects.filter(pk__in=undo["ledger"]).delete()
        FleetMove.objects.filter(
            campaign=campaign, turn__gt=turn.number, status=FleetMove.Status.QUEUED
        ).update(status=FleetMove.Status.CANCELLED)
        moves_undo(undo.get("moves", {}), turn_number=turn.number)
        MapMove.objects.filter(
            campaign=campaign, turn__gt=turn.number, status=MapMove.Status.QUEUED
        ).update(status=MapMove.Status.CANCELLED)
        fleets_advance_undo(undo.get("map", {}), turn_number=turn.number)
        for t in later:
            t.delete()
        turn.status = CampaignTurn.Status.OPEN
        turn.closed_at = None
        turn.summary = {}
        turn.undo = {}
        turn.save(update_fields=["status", "closed_at", "summary", "undo"])
        if campaign.current_turn != turn.number:
            campaign.current_turn = turn.number
            campaign.save(update_fields=["current_turn"])
        # The close's holding awards, fleet strengths and sightings go (same receivers).
        turn_reopened.send(sender=CampaignTurn, campaign=campaign, turn=turn.number)
        public_change.send(sender=CampaignTurn, campaign=campaign, full=False)
        return turn


def close_due_turns(*, now: datetime | None = None) -> list[CampaignTurn]:
    """Close every open turn whose deadline has passed (Celery beat and
    ``manage.py close_due_turns``). One transaction per campaign: a campaign that fails is
    logged by the caller and the others still close. Returns the turns closed."""
    now = now or timezone.now()
    closed = []
    for turn in CampaignTurn.objects.filter(
        status=CampaignTurn.Status.OPEN, deadline__lte=now
    ).select_related("campaign"):
        closed.append(campaign_turn_close(campaign=turn.campaign, user=SYSTEM, now=now))
    return closed


def discarded_by_reopen(campaign: Campaign) -> CampaignTurn | None:
    """The open turn that reopening ``campaign``'s last closed turn would remove (a turn
    opened after it), or None: the confirmation names it so that nothing goes silently."""
    last = campaign.turns.filter(status=CampaignTurn.Status.CLOSED).order_by("-number").first()
    if last is None:
        return None
    return (
        campaign.turns.filter(number__gt=last.number, status=CampaignTurn.Status.OPEN)
        .order_by("number")
        .first()
    )
