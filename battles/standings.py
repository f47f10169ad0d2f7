"""A campaign's standings on its page: battles fought, won and lost and ships lost per
faction, counted in the database.

The baked site counts its own standings from the battles it publishes
(``campaign.publish.builder``), with only the units of public fleets.
"""

from __future__ import annotations

from django.db.models import Count, F, Q

from battles.models import Battle, Participant
from campaign.league.models import Campaign
from campaign.league.roles import User
from factions.access import visible_fleets
from factions.models import Faction

LOST_FATES = (Participant.Fate.DESTROYED, Participant.Fate.CAPTURED)


def campaign_standings(campaign: Campaign, *, user: User = None) -> list[Faction]:
    """The factions of ``campaign`` with their record in its concluded battles.

    Each faction gets ``fought``, ``won`` and ``lost`` (battles) and ``ships_lost`` (ships
    destroyed or captured, other game systems' units included — ``units_lost`` alone;
    light units do not count; only ships of fleets ``user`` may see,
    so a hidden fleet's losses are not revealed — ``user=None`` is the public); a side wins
    when it is marked ``is_winner`` or its faction is the battle's ``winner``. Sorted by
    wins, then fewest losses, then name. One query whatever the number of battles, plus
    the viewer's memberships.
    """
    in_campaign = Q(
        battle_sides__battle__campaign=campaign,
        battle_sides__battle__status=Battle.Status.CONCLUDED,
    )
    won = in_campaign & (Q(battle_sides__is_winner=True) | Q(battle_sides__battle__winner=F("pk")))
    decided = in_campaign & (
        Q(battle_sides__battle__winner__isnull=False)
        | Q(battle_sides__battle__sides__is_winner=True)
    )
    factions = campaign.factions.annotate(
        fought=Count("battle_sides", filter=in_campaign, distinct=True),
        won=Count("battle_sides", filter=won, distinct=True),
        decided=Count("battle_sides", filter=decided, distinct=True),
        ships_lost=Count(
            "battle_sides__participants",
            filter=in_campaign
            & Q(
                battle_sides__participants__fate__in=LOST_FATES,
                battle_sides__participants__ship__isnull=False,
                battle_sides__participants__ship__fleet__in=visible_fleets(user),
            ),
            distinct=True,
        ),
        # Units of the other game systems (their own public roster, battles/models_systems).
        units_lost=Count(
            "battle_sides__system_units",
            filter=in_campaign & Q(battle_sides__system_units__fate__in=LOST_FATES),
            distinct=True,
        ),
    )
    rows = list(factions)
    for faction in rows:
        # A battle someone won that this faction did not win is a loss; a draw is neither.
        faction.lost = faction.decided - faction.won
        faction.ships_lost += faction.units_lost
    rows.sort(key=lambda f: (-f.won, f.lost, f.name))
    return rows
