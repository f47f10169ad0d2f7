"""The battle's side of commanders' renown: what a conclusion tells the factions' renown
rule (``factions.commanders.renown``, whose docstring states it) about each ship.

:func:`posts_before` reads each ship's fleet and squadron before the conclusion moves a
captured ship to its captor; :func:`award_renown` passes the ships' fates and this
battle's losses once they are written. ``battle_reopen`` calls
``factions.commanders.renown.renown_revoke_battle``.
"""

from __future__ import annotations

from battles.models import Battle, BattleSide
from factions.commanders.renown import ShipInBattle, renown_award_battle


def posts_before(sides: list[BattleSide]) -> dict[int, tuple[int, int | None]]:
    """{participant id: (fleet id, squadron id)} of every participating ship, read from
    the loaded participants (no query)."""
    return {
        p.pk: (p.ship.fleet_id, p.ship.squadron_id)
        for s in sides
        for p in s.participants.all()
        if p.ship_id
    }


def award_renown(
    battle: Battle, sides: list[BattleSide], posts: dict[int, tuple[int, int | None]]
) -> None:
    """Write ``battle``'s renown awards and fates from its participants' written fates and
    losses (``battle.winner`` set); ``posts`` from :func:`posts_before`."""
    ships = [
        ShipInBattle(
            ship_id=p.ship_id,
            fleet_id=posts[p.pk][0],
            squadron_id=posts[p.pk][1],
            side=s.faction_id,
            fate=p.fate,
            damaged=bool(p.hull_lost or p.armour_lost or p.crew_lost or p.systems_lost),
        )
        for s in sides
        for p in s.participants.all()
        if p.ship_id
    ]
    renown_award_battle(battle_id=battle.pk, ships=ships, winner_side=battle.winner_id)
