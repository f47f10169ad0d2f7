"""Fleet movements between territories, ordered during a campaign turn and carried out
when it closes (``campaign.turns.closing``): each player moves their faction's fleets, the
organiser any fleet of the campaign.

For a campaign without a star map (``campaign.starmap``: with one, moves go along its
links, ``campaign.starmap.movement``, and these orders are refused), a fleet may be
ordered to any territory of a faction playing the campaign, one order a fleet a turn (a
new order replaces the previous one). A project reading: the league's map, when it has
one, is the organiser's to enforce.

Who sees what: a rival sees a fleet's order only once the turn closes, and then only for
fleets they may see (``campaign.turns.access.turn_summary_for``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.core.bulk_rows import rows_update, rows_update_with_history
from campaign.core.messages import history_reason, message
from campaign.league.models import Campaign
from campaign.league.roles import can_act_for_faction
from campaign.starmap.models import StarSystem
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.models import CampaignTurn, FleetMove
from factions.models import Fleet, Territory


def _open_turn(campaign: Campaign) -> CampaignTurn:
    turn = campaign.turns.filter(status=CampaignTurn.Status.OPEN).order_by("-number").first()
    if turn is None:
        raise TurnActionError(
            _("%(campaign)s has no open turn: fleets move during a turn")
            % {"campaign": campaign.name}
        )
    return turn


def fleet_move_order(
    *, campaign: Campaign, fleet: Fleet, destination: Territory, user
) -> FleetMove:
    """Order ``fleet`` to ``destination`` at the end of the open turn; returns the order.

    A queued order of the same fleet is replaced (cancelled, the new one queued). Raises
    :class:`TurnPermissionError` unless ``user`` organises the campaign or plays the
    fleet's faction; :class:`TurnActionError` naming the field when no turn is open, the
    fleet's faction or the destination's does not play here, or the fleet is there already.
    """
    faction = fleet.faction
    if not can_act_for_faction(user, campaign, faction):
        raise TurnPermissionError(
            _("fleet: you do not give orders for %(faction)s") % {"faction": faction.name}
        )
    factions = set(campaign.factions.values_list("pk", flat=True))
    if faction.pk not in factions:
        raise TurnActionError(
            _("fleet: %(fleet)s is not a fleet of this campaign") % {"fleet": fleet.name}
        )
    if destination.faction_id not in factions:
        raise TurnActionError(
            _("destination: %(territory)s is not a territory of this campaign")
            % {"territory": destination.name}
        )
    if StarSystem.objects.filter(campaign=campaign).exists():
        raise TurnActionError(
            _("destination: %(campaign)s has a star map: order the move along its links")
            % {"campaign": campaign.name}
        )
    if fleet.territory_id == destination.pk:
        raise TurnActionError(
            _("destination: %(fleet)s is at %(territory)s already")
            % {"fleet": fleet.name, "territory": destination.name}
        )
    with transaction.atomic():
        turn = _open_turn(campaign)
        FleetMove.objects.select_for_update().filter(
            campaign=campaign, fleet=fleet, status=FleetMove.Status.QUEUED
        ).update(status=FleetMove.Status.CANCELLED)
        return FleetMove.objects.create(
            campaign=campaign,
            turn=turn.number,
            fleet=fleet,
            origin_id=fleet.territory_id,
            destination=destination,
            ordered_by=user if getattr(user, "is_authenticated", False) else None,
        )


def fleet_move_cancel(*, move: FleetMove, user) -> FleetMove:
    """Cancel a queued movement order; returns it. Raises :class:`TurnPermissionError`
    (not the fleet's player nor an organiser) or :class:`TurnActionError` (carried out or
    cancelled already)."""
    if not can_act_for_faction(user, move.campaign, move.fleet.faction):
        raise TurnPermissionError(
            _("fleet: you do not give orders for %(faction)s")
            % {"faction": move.fleet.faction.name}
        )
    with transaction.atomic():
        move = FleetMove.objects.select_for_update().get(pk=move.pk)
        if move.status != FleetMove.Status.QUEUED:
            raise TurnActionError(
                _("the movement of %(fleet)s is %(status)s: it cannot be cancelled")
                % {"fleet": move.fleet.name, "status": move.get_status_display()}
            )
        move.status = FleetMove.Status.CANCELLED
        move.save(update_fields=["status"])
        return move


def queued_moves(campaign: Campaign, faction_ids: set[int] | None = None) -> list[FleetMove]:
    """The campaign's queued orders (of ``faction_ids`` only, when given), in a fixed number
    of queries."""
    qs = FleetMove.objects.filter(campaign=campaign, status=FleetMove.Status.QUEUED)
    if faction_ids is not None:
        qs = qs.filter(fleet__faction_id__in=faction_ids)
    return list(qs.select_related("fleet__faction", "origin", "destination"))


def moves_carry_out(
    *, campaign: Campaign, turn_number: int, now: datetime
) -> tuple[list[dict], dict[str, dict]]:
    """Move every fleet with a queued order (inside ``campaign_turn_close``'s transaction).

    Returns ``(summary, undo)``: the summary lines (``fleet`` id, names of fleet, origin and
    destination) and, by order id, the fleet's previous territory for the reopening.
    """
    moves = queued_moves(campaign)
    fleets = []
    summary, undo = [], {}
    for m in moves:
        fleet = m.fleet
        undo[str(m.pk)] = {"fleet": fleet.pk, "territory": fleet.territory_id}
        fleet.territory_id = m.destination_id
        fleet._change_reason = history_reason(
            message("turn.moved", n=turn_number, place=m.destination.name)
        )
        fleets.append(fleet)
        m.status = FleetMove.Status.DONE
        summary.append(
            {
                "fleet": fleet.pk,
                "name": fleet.name,
                "origin": m.origin.name if m.origin else "",
                "destination": m.destination.name,
            }
        )
    rows_update_with_history(fleets, Fleet, ["territory"], default_date=now)
    rows_update(FleetMove.objects, moves, ["status"])
    return summary, undo


def moves_undo(undo: dict[str, dict], *, turn_number: int) -> None:
    """Put the fleets moved by a closing back where they were and queue their orders again
    (``campaign_turn_reopen``). Raises :class:`TurnActionError` if a fleet moved since."""
    moves = list(FleetMove.objects.filter(pk__in=[int(k) for k in undo]).select_related("fleet"))
    fleets = []
    for m in moves:
        if m.fleet.territory_id != m.destination_id:
            raise TurnActionError(
                f"turn {turn_number}: fleet {m.fleet} moved since the close; undo that first"
            )
        m.fleet.territory_id = undo[str(m.pk)]["territory"]
        m.fleet._change_reason = history_reason(message("turn.reopened", n=turn_number))
        fleets.append(m.fleet)
        m.status = FleetMove.Status.QUEUED
    rows_update_with_history(fleets, Fleet, ["territory"])
    rows_update(FleetMove.objects, moves, ["status"])


def fleets_and_orders(campaign, faction_ids: set[int]) -> dict:
    """The turn page's movement section: ``fleet_rows`` as ``(fleet, queued order or None)``
    for the factions ``faction_ids``, and the campaign's ``territories`` (two queries). A
    campaign with a star map orders its moves on the map's page instead (the turn page
    does not call this then)."""
    queued = {m.fleet_id: m for m in queued_moves(campaign, faction_ids)}
    fleets = Fleet.objects.filter(faction_id__in=faction_ids).select_related("faction", "territory")
    return {
        "fleet_rows": [(f, queued.get(f.pk)) for f in fleets.order_by("faction__name", "name")],
        "territories": list(
            Territory.objects.filter(faction__in=campaign.factions.all())
            .select_related("faction")
            .order_by("faction__name", "name")
        ),
    }
