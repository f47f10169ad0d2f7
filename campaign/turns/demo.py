"""The sample campaign's first two turns, for ``manage.py demo`` (so the pages and the
site show repairs in progress, fleets moving on the star map and a meeting's battle).

:func:`sample_turn_demo`, once per campaign (nothing happens if it has turns already):
open turn 1, credit each faction an opening treasury (an organiser adjustment by the
system, 500 resources and 1 technology), order full repairs for every damaged ship at a
friendly shipyard while its yard has room, order the Ganesha force and the Qatzrin 5th
fleet from Miranda to the Outer Belt (two turns along the star map's link,
:data:`MAP_ORDERS`), close turn 1 and open turn 2. Ships away from a yard or that do not
fit are left as they are (their error is the reason given in the returned lines).

:func:`sample_second_turn_demo`, once (only while turn 2 is the open one and turn 1 the
last closed): close turn 2 — both fleets arrive at the Outer Belt and meet, and the
``battles`` app drafts their battle once the close commits — and open turn 3.
"""

from __future__ import annotations

from campaign.core.actors import SYSTEM
from campaign.core.messages import message, text_of
from campaign.league.models import Campaign
from campaign.starmap.models import StarSystem
from campaign.starmap.movement import map_move_order
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.errors import TurnActionError
from campaign.turns.models import LedgerEntry
from campaign.turns.repairs import repair_order
from factions.models import Fleet, Ship

OPENING_RESOURCES = 500
#: Fleet slug -> the system it is ordered to in turn 1 (a meeting at the close of turn 2).
MAP_ORDERS = {
    "g-plus-ganesha-long-range-force": "outer-belt",
    "qatzrin-5th-long-range-incursion-fleet": "outer-belt",
}


def sample_turn_demo(*, campaign: Campaign) -> list[str]:
    """Play the first turn of ``campaign`` as the module docstring says; returns what was
    done, one line each (empty when the campaign already had turns)."""
    if campaign.turns.exists():
        return []
    lines = []
    campaign_turn_open(campaign=campaign, user=SYSTEM)
    opening = message("ledger.demo_opening")
    for faction in campaign.factions.all():
        LedgerEntry.objects.create(
            campaign=campaign,
            faction=faction,
            turn=1,
            kind=LedgerEntry.Kind.ADJUSTMENT,
            resources=OPENING_RESOURCES,
            technology=1,
            reason=text_of(opening),
            reason_message=opening,
        )
    damaged = Ship.objects.filter(
        fleet__faction__in=campaign.factions.all(), status=Ship.Status.DAMAGED
    ).select_related("ship_class", "fleet__faction", "fleet__territory")
    for ship in damaged.order_by("pk"):
        try:
            order = repair_order(
                campaign=campaign,
                ship=ship,
                user=SYSTEM,
                hull=ship.hull_lost,
                armour=ship.armour_lost,
                crew=ship.crew_lost,
                systems=list(ship.systems_lost),
            )
        except TurnActionError as exc:
            lines.append(f"no repair: {exc}")
        else:
            lines.append(
                f"repair of {ship} at {order.yard.name}: {order.cost}, ends turn {order.eta_turn}"
            )
    lines += _map_orders(campaign)
    turn = campaign_turn_close(campaign=campaign, user=SYSTEM)
    lines.append(f"turn {turn.number} closed")
    campaign_turn_open(campaign=campaign, user=SYSTEM)
    return lines


def _map_orders(campaign: Campaign) -> list[str]:
    """Give the :data:`MAP_ORDERS` (those the map has); one line each."""
    lines = []
    fleets = {
        f.slug: f for f in Fleet.objects.filter(slug__in=MAP_ORDERS).select_related("faction")
    }
    systems = {s.slug: s for s in StarSystem.objects.filter(campaign=campaign)}
    for slug, target in MAP_ORDERS.items():
        if slug not in fleets or target not in systems:
            continue
        try:
            move = map_move_order(
                campaign=campaign, fleet=fleets[slug], destination=systems[target], user=SYSTEM
            )
        except TurnActionError as exc:
            lines.append(f"no move: {exc}")
        else:
            lines.append(
                f"{move.fleet} ordered from {move.origin} to {move.destination}: "
                f"{move.travel_turns} turns"
            )
    return lines


def sample_second_turn_demo(*, campaign: Campaign) -> list[str]:
    """Close turn 2 and open turn 3 (module docstring); returns what was done, one line
    each (empty unless turn 2 is open and turn 1 the last closed)."""
    numbers = dict(campaign.turns.values_list("number", "status"))
    if numbers != {1: "closed", 2: "open"}:
        return []
    turn = campaign_turn_close(campaign=campaign, user=SYSTEM)
    lines = [f"{m['name']}: {m['from']} → {m['to']}" for m in turn.summary.get("map_moves", [])]
    lines.append(f"turn {turn.number} closed")
    campaign_turn_open(campaign=campaign, user=SYSTEM)
    return lines
