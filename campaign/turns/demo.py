"""The sample campaign's first turn, for ``manage.py demo`` (so the pages and the
site show repairs in progress).

Once per campaign (nothing happens if it has turns already): open turn 1, credit each
faction an opening treasury (an organiser adjustment by the system, 500 resources and 1
technology), order full repairs for every damaged ship at a friendly shipyard while its yard
has room, close turn 1 and open turn 2. Ships away from a yard or that do not fit are
left as they are (their error is the reason given in the returned lines).
"""

from __future__ import annotations

from campaign.core.actors import SYSTEM
from campaign.core.messages import message, text_of
from campaign.league.models import Campaign
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.errors import TurnActionError
from campaign.turns.models import LedgerEntry
from campaign.turns.repairs import repair_order
from factions.models import Ship

OPENING_RESOURCES = 500


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
    turn = campaign_turn_close(campaign=campaign, user=SYSTEM)
    lines.append(f"turn {turn.number} closed")
    campaign_turn_open(campaign=campaign, user=SYSTEM)
    return lines
