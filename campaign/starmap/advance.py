"""The turn close on the star map: fleets advance one turn of travel, and enemy fleets
that meet are announced (``campaign.turns.closing`` calls :func:`fleets_advance` inside
its transaction).

At the close of turn *n*, for every fleet with an order queued or under way:

- on a link arriving at *n*: it arrives in the system it heads for (and stops there
  until the next close, even on its way further);
- in a system (its order begun or a stop on the way): it enters the next link of its
  route, arriving at the close of *n + travel_turns − 1* — at once for a 1-turn link.

Its order is done once it arrives at the destination. ``Fleet.territory`` follows
(``campaign.starmap.movement.berth_for``). A fleet on a link with no order (set up so by
hand) arrives likewise.

**Meetings** (a project reading: the seed has no movement rules): fleets of two or more
factions are in one system after the moves and one of them arrived there at this close;
or two fleets of different factions travel one link in opposite directions during this
close and one of them entered it at this close (they cross). Each meeting is sent, once the
close commits, as ``campaign.core.signals.fleets_met`` with ``campaign``, ``system`` (or
None), ``link`` (for a crossing, else None), ``turn`` and ``fleets`` (``Fleet`` rows);
``battles`` drafts the battle.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime

from django.db import transaction

from campaign.core.bulk_rows import rows_update, rows_update_with_history
from campaign.core.messages import history_reason, message
from campaign.core.signals import fleets_met
from campaign.league.models import Campaign
from campaign.starmap.models import FleetPosition, MapMove, StarLink, StarSystem
from campaign.starmap.movement import ACTIVE, berth_for, system_territories
from campaign.turns.errors import TurnActionError
from factions.models import Fleet

logger = logging.getLogger(__name__)
POSITION_FIELDS = ["system", "link", "heading", "departed_turn", "arrival_turn"]


def _state(p: FleetPosition) -> dict:
    return {
        "system_id": p.system_id,
        "link_id": p.link_id,
        "heading_id": p.heading_id,
        "departed_turn": p.departed_turn,
        "arrival_turn": p.arrival_turn,
    }


def _link_between(links: dict[tuple[int, int], StarLink], a: int, b: int) -> StarLink:
    return links[(min(a, b), max(a, b))]


def fleets_advance(
    *, campaign: Campaign, turn_number: int, now: datetime
) -> tuple[list[dict], dict]:
    """Advance the campaign's moving fleets at the close of ``turn_number`` (module
    docstring) and queue the meetings' signals for after the commit.

    Returns ``(summary, undo)``: a line per fleet that moved (``fleet`` id, ``name``,
    ``from``, ``to`` — a system name, or "A – B" while on a link — ``arrival_turn``), and
    what :func:`fleets_advance_undo` needs. A fixed number of queries however many fleets
    move (``bench/starmap.py``; ``tests/campaign/starmap/test_movement.py``).
    """
    n = turn_number
    moves = {
        m.fleet_id: m
        for m in MapMove.objects.filter(campaign=campaign, status__in=ACTIVE).order_by("pk")
    }
    positions = list(
        FleetPosition.objects.filter(campaign=campaign).select_related("fleet").order_by("pk")
    )
    systems = {s.pk: s for s in StarSystem.objects.filter(campaign=campaign)}
    links = {(lk.a_id, lk.b_id): lk for lk in StarLink.objects.filter(campaign=campaign)}
    links_by_id = {lk.pk: lk for lk in links.values()}
    territories = system_territories(campaign)
    summary: list[dict] = []
    undo: dict = {"positions": {}, "moves": {}, "after": {}, "fleets": {}}
    changed: list[FleetPosition] = []
    moves_changed: list[MapMove] = []
    arrived_in: dict[int, set[int]] = defaultdict(set)  # system -> fleet ids arrived
    # link -> (fleet id, faction id, end it heads for, entered at this close)
    on_link: dict[int, list[tuple[int, int, int, bool]]] = defaultdict(list)
    for p in positions:
        move = moves.get(p.fleet_id)
        before = _state(p)
        if p.link_id is not None:
            on_link[p.link_id].append((p.fleet_id, p.fleet.faction_id, p.heading_id, False))
            if p.arrival_turn is not None and p.arrival_turn <= n:
                p.system_id, p.link_id = p.heading_id, None
                p.heading_id = p.departed_turn = p.arrival_turn = None
                arrived_in[p.system_id].add(p.fleet_id)
        elif move is not None:
            route = move.route
            here = route.index(p.system_id) if p.system_id in route else -1
            if here < 0 or here + 1 >= len(route):
                continue
            nxt = route[here + 1]
            link = _link_between(links, p.system_id, nxt)
            p.system_id, p.link_id, p.heading_id = None, link.pk, nxt
            p.departed_turn, p.arrival_turn = n, n + link.travel_turns - 1
            on_link[link.pk].append((p.fleet_id, p.fleet.faction_id, nxt, True))
            if p.arrival_turn <= n:
                p.system_id, p.link_id = nxt, None
                p.heading_id = p.departed_turn = p.arrival_turn = None
                arrived_in[nxt].add(p.fleet_id)
        else:
            continue
        undo["positions"][str(p.pk)] = before
        undo["after"][str(p.pk)] = _state(p)
        changed.append(p)
        if move is not None:
            undo["moves"][str(move.pk)] = move.status
            move.status = (
                MapMove.Status.DONE
                if p.system_id == move.destination_id
                else MapMove.Status.UNDER_WAY
            )
            moves_changed.append(move)
        summary.append(_summary_line(p, before, systems, links_by_id))
    rows_update_with_history(changed, FleetPosition, POSITION_FIELDS, default_date=now)
    rows_update(MapMove.objects, moves_changed, ["status"])
    fleets = []
    for p in changed:
        fleet = p.fleet
        berth = (
            berth_for(fleet.faction_id, territories.get(p.system_id, [])) if p.system_id else None
        )
        if fleet.territory_id != berth:
            undo["fleets"][str(fleet.pk)] = fleet.territory_id
            fleet.territory_id = berth
            place = (
                systems[p.system_id].name
                if p.system_id
                else _link_name(links_by_id[p.link_id], systems)
            )
            fleet._change_reason = history_reason(message("turn.moved", n=n, place=place))
            fleets.append(fleet)
    rows_update_with_history(fleets, Fleet, ["territory"], default_date=now)
    meetings = _meetings(positions, arrived_in, on_link)
    if meetings:
        _announce(campaign, n, meetings, systems, links_by_id)
    summary.sort(key=lambda line: (line["name"], line["fleet"]))
    return summary, undo


def _link_name(link: StarLink, systems: dict[int, StarSystem]) -> str:
    return f"{systems[link.a_id].name} – {systems[link.b_id].name}"


def _summary_line(p: FleetPosition, before: dict, systems, links_by_id) -> dict:
    def where(system_id, link_id):
        if system_id:
            return systems[system_id].name
        return _link_name(links_by_id[link_id], systems)

    return {
        "fleet": p.fleet_id,
        "name": p.fleet.name,
        "from": where(before["system_id"], before["link_id"]),
        "to": where(p.system_id, p.link_id),
        "arrival_turn": p.arrival_turn,
    }


def _meetings(positions, arrived_in, on_link) -> list[tuple[str, int, list[int]]]:
    """``[("system" | "link", id, fleet ids)]``: the close's meetings (module docstring),
    by system then link id, fleets by id."""
    meetings = []
    by_system: dict[int, list[FleetPosition]] = defaultdict(list)
    for p in positions:
        if p.system_id is not None:
            by_system[p.system_id].append(p)
    for system_id in sorted(arrived_in):
        here = by_system[system_id]
        if len({p.fleet.faction_id for p in here}) > 1:
            meetings.append(("system", system_id, sorted(p.fleet_id for p in here)))
    for link_id in sorted(on_link):
        travellers = on_link[link_id]
        met: set[int] = set()
        for i, (fleet, faction, heading, new) in enumerate(travellers):
            for other, other_faction, other_heading, other_new in travellers[i + 1 :]:
                if (new or other_new) and heading != other_heading and faction != other_faction:
                    met |= {fleet, other}
        if met:
            meetings.append(("link", link_id, sorted(met)))
    return meetings


def _announce(campaign, n, meetings, systems, links_by_id) -> None:
    fleet_ids = {f for _kind, _id, ids in meetings for f in ids}
    fleets = {f.pk: f for f in Fleet.objects.filter(pk__in=fleet_ids).select_related("faction")}
    for kind, pk, ids in meetings:
        system = systems[pk] if kind == "system" else None
        link = links_by_id[pk] if kind == "link" else None
        met = [fleets[i] for i in ids]

        def send(system=system, link=link, met=met) -> None:
            for receiver, result in fleets_met.send_robust(
                sender=FleetPosition,
                campaign=campaign,
                system=system,
                link=link,
                turn=n,
                fleets=met,
            ):
                if isinstance(result, Exception):
                    logger.error("fleets_met: %s failed: %s", receiver, result, exc_info=result)

        transaction.on_commit(send)


def fleets_advance_undo(undo: dict, *, turn_number: int) -> None:
    """Put back what :func:`fleets_advance` wrote (``campaign_turn_reopen``). Raises
    :class:`TurnActionError` naming the fleet if it was moved since the close."""
    if not undo:
        return
    positions = list(
        FleetPosition.objects.filter(pk__in=[int(k) for k in undo["positions"]]).select_related(
            "fleet"
        )
    )
    reason = history_reason(message("turn.reopened", n=turn_number))
    for p in positions:
        if _state(p) != undo["after"][str(p.pk)]:
            raise TurnActionError(
                f"turn {turn_number}: fleet {p.fleet} moved since the close; undo that first"
            )
        for f, v in undo["positions"][str(p.pk)].items():
            setattr(p, f, v)
        p._change_reason = reason
    rows_update_with_history(positions, FleetPosition, POSITION_FIELDS)
    moves = list(MapMove.objects.filter(pk__in=[int(k) for k in undo["moves"]]))
    for m in moves:
        m.status = undo["moves"][str(m.pk)]
    rows_update(MapMove.objects, moves, ["status"])
    fleets = list(Fleet.objects.filter(pk__in=[int(k) for k in undo["fleets"]]))
    for f in fleets:
        f.territory_id = undo["fleets"][str(f.pk)]
        f._change_reason = reason
    rows_update_with_history(fleets, Fleet, ["territory"])
