"""Launch and recovery orders of phase 1 (rules §2, §6, §11): ``check_launches`` and
``check_recoveries`` refuse what the orders as written get wrong before any die is rolled
(fire controls tied, squadron aboard and rearmed, tubes, magazine), and ``launch_refusal``
asks the same check for an order form, so that a launch always refused is not offered.
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.rules.errors import (
    IllegalOrder,
    MagazineDestroyed,
    RulesError,
    UnknownWeapon,
)
from battles.rules.phases.launches import (
    escort_launch,
    launch_bays,
    squadron_weapon,
)
from battles.rules.phases.state import (
    BattleState,
    fire_controls,
)
from battles.rules.ships import ShipState


def launch_refusal(state: BattleState, ship: ShipState, system_id: str) -> RulesError | None:
    """The error phase 1 would raise for ``ship`` launching from ``system_id`` alone this
    turn at an enemy ship (the orders' own check, ``check_launches``: FCs, squadron
    aboard and rearmed, tubes, magazine; its ``code`` and ``params`` let a page say it in
    the reader's language), or None when it would accept it, or when no enemy ship is
    left to aim at. For order forms: a launch that is always refused is not offered."""
    enemy = next(iter(state.in_action(state.enemy_of(ship.side))), None)
    if enemy is None:
        return None
    try:
        check_launches(state, ship, [(system_id, enemy.ship_id)])
    except (IllegalOrder, MagazineDestroyed, UnknownWeapon) as exc:
        return exc
    return None


def check_launches(
    state: BattleState, ship: ShipState, launches: Sequence[tuple[str, str]]
) -> None:
    """Phase 1 check of a ship's launch orders, so phase 3 cannot fail half-way: each
    launch ties a working FC (§6); a bay launches its squadron once, at most one squadron
    per working launch tube per turn (§9; one when the design has no tube); a missile
    launcher needs a round in its magazine (§8); the target must be an enemy ship."""
    if not launches:
        return
    if len(launches) > fire_controls(state, ship):
        raise IllegalOrder(
            f"{ship.name}: {len(launches)} launches but {fire_controls(state, ship)} working "
            "fire control(s); each launch ties one (rules §6)",
            code="launch.fire-controls",
            ship=ship.name,
            launches=str(len(launches)),
            fire_controls=str(fire_controls(state, ship)),
        )
    squadrons = 0
    rounds: dict[str, int] = {}
    for system_id, target_id in launches:
        system = ship.systems.get(system_id)
        where = f"{ship.name}: launch from {system_id!r}"
        said = {"ship": ship.name, "system": repr(system_id)}
        if system is None or not system.working:
            raise IllegalOrder(
                f"{where}: no working system of that id (rules §2 phase 3)",
                code="launch.no-system",
                **said,
            )
        target = state.ships.get(target_id)
        if target is None or (target.side == ship.side and not escort_launch(system, target)):
            raise IllegalOrder(
                f"{where}: {target_id!r} is not an enemy ship (only fighters and PD-platform "
                "gunboats are launched to escort a friendly ship; rules §2 phase 3, §9)",
                code="launch.not-enemy",
                target=repr(target_id),
                **said,
            )
        if system.kind == "bay":
            if not system.data.get("squadron") or system.data.get("launched"):
                raise IllegalOrder(
                    f"{where}: no squadron aboard to launch (rules §9)",
                    code="launch.no-squadron",
                    **said,
                )
            if system.data.get("ready_turn", 0) > state.turn:
                raise IllegalOrder(
                    f"{where}: the squadron landed on turn {system.data['ready_turn'] - 2} "
                    f"and rearms until turn {system.data['ready_turn']} (rules §9)",
                    code="launch.rearming",
                    landed=str(system.data["ready_turn"] - 2),
                    ready=str(system.data["ready_turn"]),
                    **said,
                )
            squadron_weapon(system.data["squadron"], where=where)
            squadrons += 1
            if squadrons > launch_bays(ship):
                raise IllegalOrder(
                    f"{where}: no free launch tube this turn (rules §9)",
                    code="launch.no-tube",
                    **said,
                )
        elif system.kind == "weapon" and (system.weapon or "").startswith("missile"):
            key = system.magazine or system.id
            rounds[key] = rounds.get(key, 0) + 1
            magazine = ship.systems.get(system.magazine) if system.magazine else system
            left = magazine.ammo if magazine is not None and magazine.working else 0
            if system.magazine and (magazine is None or not magazine.working):
                left = 0
            if left is not None and left < rounds[key]:
                raise MagazineDestroyed(
                    f"{where}: magazine {system.magazine or system.id!r} is destroyed or "
                    "empty (rules §8)",
                    code="launch.magazine-empty",
                    magazine=repr(system.magazine or system.id),
                    **said,
                )
        else:
            raise IllegalOrder(
                f"{where}: not a bay or a missile launcher (rules §2 phase 3)",
                code="launch.not-launcher",
                **said,
            )


def check_recoveries(state: BattleState, ship: ShipState, unit_ids: Sequence[str]) -> None:
    """Phase 1 check of a carrier's recovery orders (§2 phase 6, §9): each id names a
    friendly fighter squadron on the table, and the ship has a working bay."""
    if not any(s.kind == "bay" and s.working for s in ship.systems.values()):
        raise IllegalOrder(
            f"{ship.name}: no working bay to recover squadrons into (rules §9)",
            code="recover.no-bay",
            ship=ship.name,
        )
    for unit_id in unit_ids:
        unit = state.light_units.get(unit_id)
        where = f"{ship.name}: recover {unit_id!r}"
        if unit is None or not unit.active:
            raise IllegalOrder(
                f"{where}: no such light unit on the table (rules §2 phase 6)",
                code="recover.unknown",
                ship=ship.name,
                unit=repr(unit_id),
            )
        if unit.side != ship.side or unit.kind != "fighter":
            raise IllegalOrder(
                f"{where}: only friendly fighter squadrons land on a carrier (rules §2 phase 6)",
                code="recover.not-fighter",
                ship=ship.name,
                unit=repr(unit_id),
            )
