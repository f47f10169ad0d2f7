"""A Star Wars Starship Battles fleet turn for a recorded battle's bookkeeping: ship states,
the start of the turn (fires, repairs, screens, navigation), declared attacks resolved in
fire order with every critical applied.

Source: seed 002 (écrans, ordre de tir, portées, tir critique,
réparations); readings H-10 … H-13 (``battles/systems/readings.md``). H-13: fires burn at the
start of each turn, before screens regenerate; a critical rolled when a ship becomes
damaged adds its extra damage (rows 1–11) to the attack that damaged it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from battles.rules.dice import Dice
from battles.systems.swsb.errors import StarshipBattlesError, UnknownShip
from battles.systems.swsb.rules import (
    FACINGS,
    FIRE_RANKS,
    LASTING_EFFECTS,
    _int,
    critical_damage,
    critical_effect,
    navigation_move,
    range_penalties,
    split_screens,
)

__all__ = [
    "Attack",
    "apply_critical",
    "SWEvent",
    "SWShip",
    "TurnResult",
    "fleet_turn",
    "ship_from_dict",
]

STARFIGHTER_RANKS = ("interceptor", "fighter", "bomber")
MAX_SHIPS = 60
MAX_ATTACKS = 200


@dataclass(slots=True)
class SWShip:
    """A ship or starfighter: ``rank`` in :data:`FIRE_RANKS`; ``damaged_at`` the hull left
    at which it is damaged ("réduit"); ``split`` the screen points per facing chosen by its
    player (adding up to ``screen_value``), ``screens`` what is left this turn."""

    id: str
    side: str
    rank: str
    hull: int
    defence: int
    damaged_at: int = 0
    screen_value: int = 0
    split: dict[str, int] = field(default_factory=dict)
    screens: dict[str, int] = field(default_factory=dict)
    base_speed: int = 0
    effects: list[str] = field(default_factory=list)
    reduced: bool = False
    destroyed: bool = False

    @property
    def starfighter(self) -> bool:
        return self.rank in STARFIGHTER_RANKS

    @property
    def speed(self) -> int:
        """Speed after engine and fire criticals (seed rows 17, 18, 20)."""
        if "engine-destroyed" in self.effects or "disastrous-fire" in self.effects:
            return 0
        if "engine-damaged" in self.effects:
            return math.ceil(self.base_speed / 2)
        return self.base_speed

    def attack_modifier(self, *, first_weapon: bool = False) -> int:
        """−4 per damaged bridge or disastrous fire, −2 on the first weapon system if it is
        damaged (seed rows 15, 16, 20)."""
        mod = -4 * sum(1 for e in self.effects if e in ("bridge-damaged", "disastrous-fire"))
        if first_weapon and "weapon-system-damaged" in self.effects:
            mod -= 2
        return mod

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id, "side": self.side, "rank": self.rank, "hull": self.hull,
            "defence": self.defence, "damaged_at": self.damaged_at,
            "screen_value": self.screen_value, "split": dict(self.split),
            "screens": dict(self.screens), "base_speed": self.base_speed,
            "speed": self.speed, "effects": list(self.effects), "reduced": self.reduced,
            "destroyed": self.destroyed,
        }  # fmt: skip


def ship_from_dict(data: object) -> SWShip:
    """A checked :class:`SWShip` from a mapping (the API's and the recorder's input);
    raises :class:`StarshipBattlesError` naming the ship and field."""
    if not isinstance(data, dict):
        raise StarshipBattlesError("ships: each ship is an object")
    sid = data.get("id")
    if not isinstance(sid, str) or not sid.strip() or len(sid) > 80:
        raise StarshipBattlesError("ships: each ship needs an id (1–80 characters)")
    rank = data.get("rank")
    if rank not in FIRE_RANKS:
        raise StarshipBattlesError(f"{sid}: rank {rank!r} is not one of {', '.join(FIRE_RANKS)}")
    side = data.get("side")
    if not isinstance(side, str) or not side:
        raise StarshipBattlesError(f"{sid}: side is missing")
    value = _int(data.get("screen_value", 0), f"{sid}.screen_value", 0, 100)
    if rank in STARFIGHTER_RANKS or rank == "pd":
        value = 0  # screens are for classes 1–3 (seed)
    split = split_screens(value, data.get("split", {"front": value}))
    effects = data.get("effects", [])
    if not isinstance(effects, list) or any(e not in LASTING_EFFECTS for e in effects):
        raise StarshipBattlesError(f"{sid}: effects must be among {', '.join(LASTING_EFFECTS)}")
    screens = data.get("screens", split)
    screens = (
        {f: _int(screens.get(f, 0), f"{sid}.screens.{f}", 0, 100) for f in FACINGS}
        if isinstance(screens, dict)
        else None
    )
    if screens is None:
        raise StarshipBattlesError(f"{sid}: screens must map facings to points")
    return SWShip(
        id=sid.strip(),
        side=side,
        rank=rank,
        hull=_int(data.get("hull"), f"{sid}.hull", 0, 10_000),
        defence=_int(data.get("defence"), f"{sid}.defence", 0, 100),
        damaged_at=_int(data.get("damaged_at", 0), f"{sid}.damaged_at", 0, 10_000),
        screen_value=value,
        split=split,
        screens=screens,
        base_speed=_int(data.get("base_speed", 0), f"{sid}.base_speed", 0, 100),
        effects=list(effects),
        reduced=bool(data.get("reduced", False)),
        destroyed=bool(data.get("destroyed", False)),
    )


@dataclass(frozen=True, slots=True)
class Attack:
    """A declared attack (seed, "Visée": all declared before any die is rolled)."""

    attacker: str
    target: str
    attack: int
    damage: int
    facing: str = "front"
    range: int = 0
    weapon: str = "standard"
    first_weapon: bool = False
    modifier: int = 0


def attack_from_dict(data: object, index: int) -> Attack:
    where = f"attacks[{index}]"
    if not isinstance(data, dict):
        raise StarshipBattlesError(f"{where}: expected an object")
    facing = data.get("facing", "front")
    if facing not in FACINGS:
        raise StarshipBattlesError(f"{where}.facing: {facing!r} is not one of {', '.join(FACINGS)}")
    weapon = data.get("weapon", "standard")
    rng = _int(data.get("range", 0), f"{where}.range", 0, 60)
    range_penalties(rng, weapon=weapon)  # checks weapon and reach now, before any roll
    return Attack(
        attacker=str(data.get("attacker", "")),
        target=str(data.get("target", "")),
        attack=_int(data.get("attack"), f"{where}.attack", -50, 100),
        damage=_int(data.get("damage"), f"{where}.damage", 0, 1000),
        facing=facing,
        range=rng,
        weapon=str(weapon),
        first_weapon=bool(data.get("first_weapon", False)),
        modifier=_int(data.get("modifier", 0), f"{where}.modifier", -50, 50),
    )


@dataclass(frozen=True, slots=True)
class SWEvent:
    """One line of the turn: ``kind`` (fire, repair, screens, navigation, attack, critical,
    damaged, destroyed, skipped), the ship, and a short English ``detail``."""

    kind: str
    ship: str
    detail: str


@dataclass(slots=True)
class TurnResult:
    ships: dict[str, SWShip]
    events: list[SWEvent]


def apply_critical(ship: SWShip, effect: str, events: list[SWEvent]) -> None:
    """Apply critical ``effect`` to ``ship``'s state (a lasting effect is kept in
    ``ship.effects``; a destroyed shield generator drops every screen now)."""
    events.append(SWEvent("critical", ship.id, effect))
    if effect in LASTING_EFFECTS:
        ship.effects.append(effect)
    if effect == "shield-generator-destroyed":
        ship.screens = dict.fromkeys(FACINGS, 0)


def _start_of_turn(ship: SWShip, repair: str, dice: Dice, events: list[SWEvent]) -> None:
    fires = sum(1 for e in ship.effects if e in ("fire", "disastrous-fire"))
    if fires:
        ship.hull = max(0, ship.hull - 2 * fires)
        events.append(SWEvent("fire", ship.id, f"-{2 * fires} hull, {ship.hull} left"))
        if ship.hull == 0:
            ship.destroyed = True
            events.append(SWEvent("destroyed", ship.id, "burnt out"))
            return
    if repair:
        if repair not in ship.effects:
            raise StarshipBattlesError(f"repairs.{ship.id}: {repair!r} is not one of its effects")
        ship.effects.remove(repair)
        events.append(SWEvent("repair", ship.id, f"{repair} cancelled"))
    if ship.reduced or "shield-generator-destroyed" in ship.effects:
        ship.screens = dict.fromkeys(FACINGS, 0)
    elif "shield-generator-damaged" not in ship.effects:
        ship.screens = dict(ship.split)
        events.append(
            SWEvent("screens", ship.id, " ".join(f"{f}={ship.split[f]}" for f in FACINGS))
        )
    if "navigation-damaged" in ship.effects:
        face = dice.die(20, f"{ship.id} navigation")
        events.append(SWEvent("navigation", ship.id, navigation_move(face)))


def _resolve_attack(
    att: Attack, ships: dict[str, SWShip], dice: Dice, events: list[SWEvent]
) -> None:
    shooter, target = ships[att.attacker], ships[att.target]
    if target.destroyed:
        events.append(SWEvent("skipped", shooter.id, f"{target.id} already destroyed"))
        return
    a_pen, d_pen = range_penalties(att.range, weapon=att.weapon)
    total = (
        att.attack + att.modifier + a_pen + shooter.attack_modifier(first_weapon=att.first_weapon)
    )
    face = dice.die(20, f"{shooter.id} attacks {target.id}")
    hit = face == 20 or (face != 1 and face + total >= target.defence)
    events.append(
        SWEvent(
            "attack",
            shooter.id,
            f"d20={face}{total:+d} vs {target.defence} on {target.id}: {'hit' if hit else 'miss'}",
        )
    )
    if not hit:
        return
    if face == 20 and target.starfighter:
        target.hull, target.destroyed = 0, True
        events.append(SWEvent("destroyed", target.id, "starfighter hit by a critical"))
        return
    damage = max(0, att.damage + d_pen)
    screen = target.screens.get(att.facing, 0)
    if face == 20 and damage > screen:  # H-12: the critical got through the screen
        effect = critical_effect(dice.die(20, f"{target.id} critical"))
        apply_critical(target, effect, events)
        damage = critical_damage(effect, damage)
        screen = target.screens.get(att.facing, 0)  # a destroyed generator drops it
    absorbed = min(screen, damage)
    target.screens[att.facing] = screen - absorbed
    _damage(target, damage - absorbed, dice, events, absorbed=absorbed)


def _damage(
    target: SWShip, amount: int, dice: Dice, events: list[SWEvent], *, absorbed: int
) -> None:
    target.hull = max(0, target.hull - amount)
    events.append(
        SWEvent("damage", target.id, f"{amount} hull ({absorbed} absorbed), {target.hull} left")
    )
    if target.hull > 0 and not target.reduced and target.hull <= target.damaged_at:
        target.reduced = True
        target.screens = dict.fromkeys(FACINGS, 0)  # seed: a reduced ship loses its screens
        events.append(SWEvent("damaged", target.id, "reduced: screens lost"))
        effect = critical_effect(dice.die(20, f"{target.id} critical (damaged)"))
        apply_critical(target, effect, events)
        extra = critical_damage(effect, amount) - amount  # H-13
        if extra:
            target.hull = max(0, target.hull - extra)
            events.append(
                SWEvent("damage", target.id, f"{extra} hull (critical), {target.hull} left")
            )
    if target.hull == 0:
        target.destroyed = True
        events.append(SWEvent("destroyed", target.id, "removed from play"))


def fleet_turn(
    dice: Dice,
    ships: object,
    attacks: object,
    *,
    initiative: object,
    repairs: object = None,
    start_of_turn: bool = True,
) -> TurnResult:
    """One turn: start of turn (fires, ``repairs`` {ship id: effect cancelled — that ship
    does nothing else}, screens regenerate unless reduced or the generator is hit,
    navigation rolls), then the declared ``attacks`` in fire order: by rank, the
    ``initiative`` side's first, damage applied at once, destroyed ships removed (their later
    attacks are skipped). ``ships`` and ``attacks`` are lists of mappings (see
    :func:`ship_from_dict`, :class:`Attack`); at most 60 ships and 200 attacks.
    Raises :class:`StarshipBattlesError` naming the field; every die goes to ``dice.log``.
    """
    if not isinstance(ships, list) or not 1 <= len(ships) <= MAX_SHIPS:
        raise StarshipBattlesError(f"ships: give 1–{MAX_SHIPS} ships")
    if not isinstance(attacks, list) or len(attacks) > MAX_ATTACKS:
        raise StarshipBattlesError(f"attacks: at most {MAX_ATTACKS} attacks")
    by_id: dict[str, SWShip] = {}
    for raw in ships:
        ship = ship_from_dict(raw)
        if ship.id in by_id:
            raise StarshipBattlesError(f"ships: {ship.id} appears twice")
        by_id[ship.id] = ship
    sides = {s.side for s in by_id.values()}
    if initiative not in sides:
        raise StarshipBattlesError(f"initiative: {initiative!r} is not a side of these ships")
    repairs = repairs or {}
    if not isinstance(repairs, dict) or any(k not in by_id for k in repairs):
        raise UnknownShip("repairs: map ship ids of this turn to the effect they cancel")
    declared = [attack_from_dict(a, i) for i, a in enumerate(attacks)]
    for i, att in enumerate(declared):
        for role in ("attacker", "target"):
            if getattr(att, role) not in by_id:
                raise UnknownShip(f"attacks[{i}].{role}: no ship {getattr(att, role)!r}")
        if att.attacker in repairs:
            raise StarshipBattlesError(f"attacks[{i}]: {att.attacker} spends the turn repairing")
    events: list[SWEvent] = []
    if start_of_turn:
        for ship in by_id.values():
            if not ship.destroyed:
                _start_of_turn(ship, str(repairs.get(ship.id, "")), dice, events)
    rank_of = {r: i for i, r in enumerate(FIRE_RANKS)}
    order = sorted(
        range(len(declared)),
        key=lambda i: (
            rank_of[by_id[declared[i].attacker].rank],
            by_id[declared[i].attacker].side != initiative,
            i,
        ),
    )
    for i in order:
        att = declared[i]
        if by_id[att.attacker].destroyed:
            events.append(SWEvent("skipped", att.attacker, "destroyed before it could fire"))
            continue
        _resolve_attack(att, by_id, dice, events)
    return TurnResult(by_id, events)
