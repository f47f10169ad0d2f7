"""Fleets on the star map: placing a fleet, ordering a move along links, cancelling it.

A move order names a destination system; the route is the quickest chain of links
(``campaign.starmap.routes``) and must not take more than the campaign's
``move_reach_turns`` turns of travel (``campaign.turns.rates``, default 4: a project
reading, the seed gives no movement allowance). A fleet on a link, or already under way,
cannot be given another order until it arrives; a queued order (not yet begun) is replaced
by a new one. The turn close carries orders out (``campaign.starmap.advance``).

``Fleet.territory`` is derived from the position (``campaign.starmap.models`` docstring):
:func:`berth_for` is the one rule, and the writers here and in ``advance`` apply it.

Refusals name the field: :class:`~campaign.turns.errors.TurnActionError` (bad input, 400 /
form error) and :class:`~campaign.turns.errors.TurnPermissionError` (403); nothing is
written.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from campaign.core.messages import history_reason, message
from campaign.league.models import Campaign
from campaign.league.roles import User, can_act_for_faction, is_organiser
from campaign.starmap.models import (
    FleetPosition,
    MapMove,
    StarLink,
    StarSystem,
    TerritoryPlacement,
)
from campaign.starmap.routes import link_graph, shortest_route
from campaign.turns.errors import TurnActionError, TurnPermissionError
from campaign.turns.rates import turn_rates
from factions.models import Fleet, Territory

ACTIVE = (MapMove.Status.QUEUED, MapMove.Status.UNDER_WAY)


def berth_for(faction_id: int, territories: list[Territory]) -> int | None:
    """The territory a fleet of ``faction_id`` berths at among a system's ``territories``:
    its own faction's with the largest yard (then by name), else None (a fleet at a rival's
    or an empty system is in the system, at no territory of its own)."""
    own = [t for t in territories if t.faction_id == faction_id]
    if not own:
        return None
    own.sort(key=lambda t: (-t.shipyard_capacity, t.name, t.pk))
    return own[0].pk


def system_territories(campaign: Campaign) -> dict[int, list[Territory]]:
    """The territories placed in each system of ``campaign``, by system id (one query)."""
    out: dict[int, list[Territory]] = {}
    for p in TerritoryPlacement.objects.filter(campaign=campaign).select_related("territory"):
        out.setdefault(p.system_id, []).append(p.territory)
    return out


def fleet_place(
    *, campaign: Campaign, fleet: Fleet, system: StarSystem, user: User
) -> FleetPosition:
    """Put ``fleet`` in ``system`` (setting up the map: the sample, the organiser's form on
    the map page), its ``territory`` derived (:func:`berth_for`); its active orders are
    cancelled. ``user`` must organise the campaign (:class:`TurnPermissionError`; the
    sample loader acts as the system). Raises :class:`TurnActionError` naming the field for
    a system or fleet of another campaign."""
    if not is_organiser(user, campaign):
        raise TurnPermissionError(
            _("only an organiser of %(campaign)s places fleets on the map")
            % {"campaign": campaign.name}
        )
    if system.campaign_id != campaign.pk:
        raise TurnActionError(
            _("system: %(system)s is not a system of this campaign") % {"system": system.name}
        )
    if not campaign.factions.filter(pk=fleet.faction_id).exists():
        raise TurnActionError(
            _("fleet: %(fleet)s is not a fleet of this campaign") % {"fleet": fleet.name}
        )
    with transaction.atomic():
        MapMove.objects.filter(campaign=campaign, fleet=fleet, status__in=ACTIVE).update(
            status=MapMove.Status.CANCELLED
        )
        position, _created = FleetPosition.objects.update_or_create(
            fleet=fleet,
            defaults={
                "campaign": campaign,
                "system": system,
                "link": None,
                "heading": None,
                "departed_turn": None,
                "arrival_turn": None,
            },
        )
        berth = berth_for(fleet.faction_id, system_territories(campaign).get(system.pk, []))
        if fleet.territory_id != berth:
            fleet.territory_id = berth
            fleet._change_reason = history_reason(
                message("turn.moved", n=campaign.current_turn, place=system.name)
            )
            fleet.save(update_fields=["territory"])
        return position


def berths_sync(*, campaign: Campaign, fleets: list[Fleet]) -> int:
    """Write each of ``fleets``' ``territory`` from its position on ``campaign``'s map
    (:func:`berth_for`; on a link: none), for a writer that set it otherwise (the sample
    loader's reload). Fleets not on the map are left alone. Returns how many changed."""
    positions = {
        p.fleet_id: p for p in FleetPosition.objects.filter(campaign=campaign, fleet__in=fleets)
    }
    territories = system_territories(campaign)
    changed = 0
    for fleet in fleets:
        p = positions.get(fleet.pk)
        if p is None:
            continue
        berth = (
            berth_for(fleet.faction_id, territories.get(p.system_id, [])) if p.system_id else None
        )
        if fleet.territory_id != berth:
            fleet.territory_id = berth
            fleet.save(update_fields=["territory"])
            changed += 1
    return changed


def move_reach(campaign: Campaign) -> int:
    """The most turns of travel one order may cover (``move_reach_turns``)."""
    return turn_rates(campaign.turn_settings)["move_reach_turns"]


def _open_turn_number(campaign: Campaign) -> int:
    turn = campaign.turns.filter(status="open").order_by("-number").first()
    if turn is None:
        raise TurnActionError(
            _("%(campaign)s has no open turn: fleets move during a turn")
            % {"campaign": campaign.name}
        )
    return turn.number


def map_move_order(
    *, campaign: Campaign, fleet: Fleet, destination: StarSystem, user: User
) -> MapMove:
    """Order ``fleet`` to ``destination`` along the quickest chain of links; returns the
    order (queued; it begins when the open turn closes).

    Raises :class:`TurnPermissionError` unless ``user`` organises the campaign or plays the
    fleet's faction there; :class:`TurnActionError` naming the field when: the fleet is not
    of this campaign or not on its map, it is on a link or under way already (``fleet``);
    the destination is of another campaign, is where the fleet is, no link leads there, or
    it is beyond the fleet's reach (``destination``); no turn is open. A queued order of the
    fleet is replaced. Nothing is written on a refusal.
    """
    faction = fleet.faction
    if not campaign.factions.filter(pk=faction.pk).exists():
        raise TurnActionError(
            _("fleet: %(fleet)s is not a fleet of this campaign") % {"fleet": fleet.name}
        )
    if not can_act_for_faction(user, campaign, faction):
        raise TurnPermissionError(
            _("fleet: you do not give orders for %(faction)s") % {"faction": faction.name}
        )
    if destination.campaign_id != campaign.pk:
        raise TurnActionError(
            _("destination: %(system)s is not a system of this campaign")
            % {"system": destination.name}
        )
    with transaction.atomic():
        turn = _open_turn_number(campaign)
        position = (
            FleetPosition.objects.select_for_update()
            .select_related("system", "heading")
            .filter(campaign=campaign, fleet=fleet)
            .first()
        )
        if position is None:
            raise TurnActionError(
                _("fleet: %(fleet)s is not on the map of this campaign") % {"fleet": fleet.name}
            )
        if (
            position.link_id is not None
            or MapMove.objects.filter(
                campaign=campaign, fleet=fleet, status=MapMove.Status.UNDER_WAY
            ).exists()
        ):
            where = position.heading or position.system
            raise TurnActionError(
                _("fleet: %(fleet)s is already moving (towards %(system)s)")
                % {"fleet": fleet.name, "system": where.name}
            )
        origin = position.system
        if origin.pk == destination.pk:
            raise TurnActionError(
                _("destination: %(fleet)s is in %(system)s already")
                % {"fleet": fleet.name, "system": destination.name}
            )
        graph = link_graph(
            StarLink.objects.filter(campaign=campaign)
            .order_by("pk")
            .values_list("a_id", "b_id", "travel_turns")
        )
        try:
            turns, route = shortest_route(graph, origin.pk, destination.pk)
        except LookupError:
            raise TurnActionError(
                _("destination: no link leads from %(origin)s to %(system)s")
                % {"origin": origin.name, "system": destination.name}
            ) from None
        reach = move_reach(campaign)
        if turns > reach:
            raise TurnActionError(
                _(
                    "destination: %(system)s is %(turns)s turns from %(origin)s, beyond "
                    "the reach of an order (%(reach)s turns)"
                )
                % {
                    "system": destination.name,
                    "turns": turns,
                    "origin": origin.name,
                    "reach": reach,
                }
            )
        MapMove.objects.filter(campaign=campaign, fleet=fleet, status=MapMove.Status.QUEUED).update(
            status=MapMove.Status.CANCELLED
        )
        return MapMove.objects.create(
            campaign=campaign,
            turn=turn,
            fleet=fleet,
            origin=origin,
            destination=destination,
            route=route,
            travel_turns=turns,
            ordered_by=user if getattr(user, "is_authenticated", False) else None,
        )


def map_move_cancel(*, move: MapMove, user: User) -> MapMove:
    """Cancel a queued move order; returns it. Raises :class:`TurnPermissionError` (not the
    fleet's player nor an organiser) or :class:`TurnActionError` (under way, done or
    cancelled already: a fleet on its way finishes the link it is on)."""
    if not can_act_for_faction(user, move.campaign, move.fleet.faction):
        raise TurnPermissionError(
            _("fleet: you do not give orders for %(faction)s")
            % {"faction": move.fleet.faction.name}
        )
    with transaction.atomic():
        move = MapMove.objects.select_for_update().get(pk=move.pk)
        if move.status != MapMove.Status.QUEUED:
            raise TurnActionError(
                _("the move of %(fleet)s is %(status)s: it cannot be cancelled")
                % {"fleet": move.fleet.name, "status": move.get_status_display()}
            )
        move.status = MapMove.Status.CANCELLED
        move.save(update_fields=["status"])
        return move
