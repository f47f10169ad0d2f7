"""Renown: what a concluded battle gives its commanders, and takes back when reopened.

The seeds and the rules say nothing of renown (grep for "renom", "vétéran",
"expérience": no hit), so this is a project reading, the same for a battle recorded from
the table and one resolved by the engine. A commander is *present* at a battle when they
are the captain of a participating ship, the commander of a squadron with a ship in it or
the admiral of a fleet with a ship in it (posts as the battle began); only active
commanders are counted. Each present commander earns:

- **victory**: :data:`VICTORY` (+2) when their side won (a draw gives nothing);
- **kills**: :data:`PER_KILL` (+1) per enemy ship destroyed or captured in the battle.
  Neither a table record nor the engine's log says whose fire finished a ship (the log's
  ``destroyed`` event names the victim only), so the side's tally is credited to each
  of its commanders;
- **survival**: :data:`SURVIVAL` (+1), captains only, when their ship lost hull,
  armour, crew or a system in this battle and was neither destroyed nor captured
  (withdrawing counts).

And the battle's fate: the captain of a destroyed ship is **killed**, of a captured ship
**captured** (a 0-point row of that kind records it). Every award is a
:class:`~factions.commanders.models.RenownAward` row tied to the battle; renown is their
sum. :func:`renown_revoke_battle` deletes exactly those rows and gives the killed or
captured their active status back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from factions.commanders.models import Commander, RenownAward

VICTORY = 2
PER_KILL = 1
SURVIVAL = 1

_FATE_STATUS = {
    "destroyed": (Commander.Status.KILLED, RenownAward.Kind.KILLED),
    "captured": (Commander.Status.CAPTURED, RenownAward.Kind.CAPTURED),
}


@dataclass(frozen=True)
class ShipInBattle:
    """One ship's part in a concluded battle, as the renown rule reads it.

    ``side``: a key of its side (the side's faction id); ``fleet_id``/``squadron_id``: its
    fleet and squadron as the battle began (before a capture moved it); ``fate``: the
    participant's fate (``"destroyed"``, ``"captured"``, ``"damaged"``, ``"fled"``,
    ``"unharmed"``); ``damaged``: it lost hull, armour, crew or a system in this battle.
    """

    ship_id: int
    fleet_id: int
    squadron_id: int | None
    side: int
    fate: str
    damaged: bool


def _present(ships: list[ShipInBattle]) -> list[tuple[Commander, int]]:
    """[(commander, side key)] of the active commanders present, one query."""
    by_ship = {s.ship_id: s.side for s in ships}
    by_squadron = {s.squadron_id: s.side for s in ships if s.squadron_id}
    by_fleet = {s.fleet_id: s.side for s in ships}
    people = Commander.objects.filter(
        Q(ship_id__in=by_ship) | Q(squadron_id__in=by_squadron) | Q(fleet_id__in=by_fleet),
        status=Commander.Status.ACTIVE,
    ).order_by("pk")
    out = []
    for c in people:
        if c.ship_id in by_ship:
            out.append((c, by_ship[c.ship_id]))
        elif c.squadron_id in by_squadron:
            out.append((c, by_squadron[c.squadron_id]))
        else:
            out.append((c, by_fleet[c.fleet_id]))
    return out


def renown_award_battle(
    *, battle_id: int, ships: Iterable[ShipInBattle], winner_side: int | None
) -> list[RenownAward]:
    """Write the renown awards and fates of a concluded battle (the module's rule) and
    return the awards written (points > 0 and fate rows), in commander order.

    ``battle_id``: the ``battles.Battle`` concluded; ``ships``: every participating ship
    (:class:`ShipInBattle`); ``winner_side``: the winning side's key, None for a draw.
    Runs in the caller's transaction (its own atomic block otherwise): the conclusion's
    failure writes nothing. Raises ``IntegrityError`` if the battle was awarded already.
    """
    ships = list(ships)
    losses: dict[int, int] = defaultdict(int)
    for s in ships:
        if s.fate in _FATE_STATUS:
            losses[s.side] += 1
    by_ship = {s.ship_id: s for s in ships}
    awards: list[RenownAward] = []
    with transaction.atomic():
        for person, side in _present(ships):
            kills = sum(n for other, n in losses.items() if other != side)

            def award(kind: str, points: int, person: Commander = person) -> None:
                awards.append(
                    RenownAward(commander=person, battle_id=battle_id, kind=kind, points=points)
                )

            if winner_side is not None and side == winner_side:
                award(RenownAward.Kind.VICTORY, VICTORY)
            if kills:
                award(RenownAward.Kind.KILLS, PER_KILL * kills)
            own = by_ship.get(person.ship_id) if person.ship_id else None
            if own is None:
                continue
            if own.fate in _FATE_STATUS:
                status, kind = _FATE_STATUS[own.fate]
                award(kind, 0)
                person.status = status
                person.save(update_fields=["status"])
            elif own.damaged:
                award(RenownAward.Kind.SURVIVAL, SURVIVAL)
        RenownAward.objects.bulk_create(awards)
    return awards


def renown_revoke_battle(*, battle_id: int) -> int:
    """Undo :func:`renown_award_battle` for the battle ``battle_id``: commanders it killed
    or captured are active again, and its award rows are deleted. Returns how many rows
    went. Runs in the caller's transaction (its own atomic block otherwise)."""
    with transaction.atomic():
        awards = RenownAward.objects.filter(battle_id=battle_id)
        fated = awards.filter(kind__in=[kind for _status, kind in _FATE_STATUS.values()])
        for person in Commander.objects.filter(pk__in=fated.values("commander_id")):
            person.status = Commander.Status.ACTIVE
            person.save(update_fields=["status"])
        deleted, _rows = awards.delete()
    return deleted
