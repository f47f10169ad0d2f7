"""Standings: battles fought, won and lost, ships and light units lost per faction.

One count (:func:`tally`) over plain rows (:class:`StandingRows`), so the campaign page
(:func:`campaign_standings`, rows read here) and the baked site
(``campaign.publish.standings``, rows it already read for its pages) give a visitor the
same numbers. Only units of fleets the viewer may see count: a hidden fleet's losses are its
own secret; a station's light units and other game systems' units (no fleet) always count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from battles.models import Battle, BattleSide, Participant
from battles.models.other_games import SystemParticipant
from campaign.league.models import Campaign
from campaign.league.roles import User
from factions.access import visible_fleets
from factions.models import Faction

LOST_FATES = (Participant.Fate.DESTROYED, Participant.Fate.CAPTURED)

#: Kinds of unit in :attr:`StandingRows.losses`.
SHIP, LIGHT_UNITS, SYSTEM_UNIT = "ship", "light_units", "system"


@dataclass
class Standing:
    """A faction's record: ``fought``, ``won`` and ``lost`` (battles; a draw is neither),
    ``ships_lost`` (ships, and other game systems' units, destroyed or captured) and
    ``light_units_lost`` (light-unit groups destroyed or captured)."""

    faction_id: int
    fought: int = 0
    won: int = 0
    lost: int = 0
    ships_lost: int = 0
    light_units_lost: int = 0


@dataclass
class StandingRows:
    """Concluded battles as plain rows.

    ``battles``: ``(battle id, winner faction id or None)``; ``sides``: per battle id,
    ``(side id, faction id)`` of each side; ``losses``: per side id, ``(kind, fate,
    fleet id)`` of each unit — kind :data:`SHIP`, :data:`LIGHT_UNITS` or
    :data:`SYSTEM_UNIT`, fleet id the one whose visibility the unit follows
    (``battles.access.unit_fleet_id``; None: a station's light units, other systems' units).
    """

    battles: list[tuple[int, int | None]]
    sides: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    losses: dict[int, list[tuple[str, str, int | None]]] = field(default_factory=dict)


def tally(rows: StandingRows, seen_fleets: Container[int]) -> dict[int, Standing]:
    """:class:`Standing` per faction id of every faction with a side in ``rows``. A side
    wins when its faction is the battle's winner and loses when another faction won;
    a unit counts as lost when its fate is in :data:`LOST_FATES` and its fleet is None or
    in ``seen_fleets``."""
    table: dict[int, Standing] = {}
    for battle_id, winner_id in rows.battles:
        for side_id, faction_id in rows.sides.get(battle_id, ()):
            row = table.setdefault(faction_id, Standing(faction_id))
            row.fought += 1
            if winner_id is not None:
                if faction_id == winner_id:
                    row.won += 1
                else:
                    row.lost += 1
            for kind, fate, fleet_id in rows.losses.get(side_id, ()):
                if fate not in LOST_FATES or (fleet_id is not None and fleet_id not in seen_fleets):
                    continue
                if kind == LIGHT_UNITS:
                    row.light_units_lost += 1
                else:
                    row.ships_lost += 1
    return table


def standing_order(won: int, lost: int, name: str) -> tuple[int, int, str]:
    """The sort key of a standings table: most wins first, then fewest losses, then name."""
    return (-won, lost, name)


def standing_rows(campaign_ids: Iterable[int]) -> StandingRows:
    """:class:`StandingRows` of the concluded battles of ``campaign_ids`` (those with
    sides), in three queries whatever their number (only units destroyed or captured are
    read)."""
    by_battle = {
        "battle__campaign_id__in": list(campaign_ids),
        "battle__status": Battle.Status.CONCLUDED,
    }
    winners: dict[int, int | None] = {}
    sides: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for pk, battle_id, faction_id, winner_id in BattleSide.objects.filter(**by_battle).values_list(
        "pk", "battle_id", "faction_id", "battle__winner_id"
    ):
        winners[battle_id] = winner_id
        sides[battle_id].append((pk, faction_id))
    rows = StandingRows(list(winners.items()))
    losses: dict[int, list[tuple[str, str, int | None]]] = defaultdict(list)
    lost = {f"side__{k}": v for k, v in by_battle.items()} | {"fate__in": LOST_FATES}
    for side_id, fate, ship_id, ship_fleet, group_fleet, carrier_fleet in (
        Participant.objects.filter(**lost).values_list(
            "side_id", "fate", "ship_id", "ship__fleet_id", "light_units__fleet_id",
            "light_units__carrier__fleet_id",
        )
    ):  # fmt: skip
        if ship_id is not None:
            losses[side_id].append((SHIP, fate, ship_fleet))
        else:  # battles.access.unit_fleet_id: the group's fleet, else its carrier's
            losses[side_id].append((LIGHT_UNITS, fate, group_fleet or carrier_fleet))
    for side_id, fate in SystemParticipant.objects.filter(**lost).values_list("side_id", "fate"):
        losses[side_id].append((SYSTEM_UNIT, fate, None))
    rows.sides, rows.losses = dict(sides), dict(losses)
    return rows


def campaign_standings(campaign: Campaign, *, user: User = None) -> list[Faction]:
    """The factions of ``campaign`` with their record in its concluded battles: each gets
    the fields of :class:`Standing` (``fought``, ``won``, ``lost``, ``ships_lost``,
    ``light_units_lost``) counted by :func:`tally`, over units of fleets ``user`` may see
    (``user=None``: the public, as the baked site). Sorted by :func:`standing_order`.
    Five queries whatever the number of battles, plus the viewer's memberships."""
    table = tally(
        standing_rows([campaign.pk]), set(visible_fleets(user).values_list("pk", flat=True))
    )
    factions = list(campaign.factions.all())
    for faction in factions:
        standing = table.get(faction.pk) or Standing(faction.pk)
        for name in ("fought", "won", "lost", "ships_lost", "light_units_lost"):
            setattr(faction, name, getattr(standing, name))
    factions.sort(key=lambda f: standing_order(f.won, f.lost, f.name))
    return factions
