"""Ship movement orders: the notation of rules §3, its validation against
thrust, and its execution on a plane.

Geometry (the project's convention, used by ``sensors.py`` too): positions are ``(x, y)`` in
mu on an unbounded plane; a heading is an integer 0–5 counting 60° steps *clockwise* from
the +y axis (heading 0 points to +y, heading 1 to 60° right of it, …). Starboard (``T``,
tribord) turns clockwise, port (``B``, bâbord) counter-clockwise.

The notation, comma- or space-separated, every part optional but in this order::

    +3, 1B, 2T, 18
    │   │   │   └ final speed (next turn's speed, mu), checked against speed + change
    │   │   └──── second manoeuvre step: 2 arcs to starboard
    │   └──────── first manoeuvre step: 1 arc to port
    └──────────── speed change (+/- mu)

With one manoeuvre step of n arcs the ship turns ``floor(n/2)`` arcs, moves half, turns the
rest and moves the other half (n = 1: half, turn, half). With two steps the first step is
made before the first half and the second before the second half (the seed's thrust-6
example). ``P``/``S`` are accepted for port/starboard; the canonical form uses ``B``/``T``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple, cast

from battles.rules.errors import BadArgument, IllegalOrder, whole_number

PORT = "B"
STARBOARD = "T"
MAX_END_SPEED = 24  # mu, §3: speed is set back to 24 at the end of the turn
HEADINGS = 6  # 60° steps

_SIDE_ALIASES = {"B": PORT, "P": PORT, "T": STARBOARD, "S": STARBOARD}
# ASCII digits only (``\d`` would read other scripts' digits too).
_SPEED_CHANGE = re.compile(r"^[+-][0-9]+$")
_MANOEUVRE = re.compile(r"^([0-9]+)([BPTS])$", re.IGNORECASE)
_FINAL_SPEED = re.compile(r"^[0-9]+$")
MAX_DIGITS = 3  # no speed, change or arc count in §3 needs more: longer is refused

_R3 = math.sqrt(3) / 2
# Unit vector per heading, exact where the value is rational.
_DIRECTIONS: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (_R3, 0.5),
    (_R3, -0.5),
    (0.0, -1.0),
    (-_R3, -0.5),
    (-_R3, 0.5),
)


def _who(ship: str | None) -> str:
    return f"{ship}: " if ship else ""


@dataclass(frozen=True)
class Manoeuvre:
    """One manoeuvre step: ``arcs`` (≥ 1) 60° arcs to ``side`` (``"B"`` port / ``"T"``
    starboard)."""

    arcs: int
    side: str

    @property
    def heading_change(self) -> int:
        """Signed change in 60° steps: starboard positive (clockwise), port negative."""
        return self.arcs if self.side == STARBOARD else -self.arcs

    def __str__(self) -> str:
        return f"{self.arcs}{self.side}"


@dataclass(frozen=True)
class Orders:
    """A ship's movement orders for one turn (§3), as parsed; not yet checked against a ship.

    ``speed_change`` is None when only the final speed was written; ``final_speed`` is None
    when it was left out (it is then derived at validation).
    """

    speed_change: int | None = 0
    manoeuvres: tuple[Manoeuvre, ...] = ()
    final_speed: int | None = None

    def __post_init__(self) -> None:
        if self.speed_change is None and self.final_speed is None:
            object.__setattr__(self, "speed_change", 0)

    @classmethod
    def parse(cls, text: object, *, ship: str | None = None) -> Orders:
        """Parse the §3 notation (``"+3, 1B, 2T, 18"``, ``"2T"``, ``"-4"``, ``"18"``, ``""``).

        Raises ``IllegalOrder`` naming the ship (when given), the order and §3 for an
        unreadable token, parts out of order, more than two manoeuvre steps or a zero step,
        a number of more than ``MAX_DIGITS`` digits, or movement orders that are not text.
        """
        if not isinstance(text, str):
            raise IllegalOrder(
                f"{_who(ship)}movement order {text!r} is not text in the notation of rules §3",
                code="move.not-text",
                ship=ship,
                order=repr(text),
            )
        tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
        speed_change: int | None = None
        manoeuvres: list[Manoeuvre] = []
        final_speed: int | None = None
        stage = 0  # 0 speed change, 1 manoeuvres, 2 final speed, 3 done

        def bad(why: str, code: str, **params: str) -> IllegalOrder:
            shown = text if len(text) <= 40 else text[:40] + "…"
            return IllegalOrder(
                f"{_who(ship)}order {shown!r}: {why} (rules §3)",
                code=code,
                ship=ship,
                order=repr(shown),
                **params,
            )

        for token in tokens:
            if len(token.lstrip("+-").rstrip("BPTSbpts")) > MAX_DIGITS and (
                _SPEED_CHANGE.match(token) or _MANOEUVRE.match(token) or _FINAL_SPEED.match(token)
            ):
                shown = token if len(token) <= 12 else token[:12] + "…"
                raise bad(
                    f"number {shown!r} too long (at most {MAX_DIGITS} digits)",
                    "move.number-too-long",
                    number=repr(shown),
                    max=str(MAX_DIGITS),
                )
            if _SPEED_CHANGE.match(token):
                if stage > 0:
                    raise bad(
                        f"speed change {token!r} must come first",
                        "move.speed-change-first",
                        token=repr(token),
                    )
                speed_change = int(token)
                stage = 1
            elif m := _MANOEUVRE.match(token):
                if stage > 1:
                    raise bad(
                        f"manoeuvre {token!r} after the final speed",
                        "move.manoeuvre-after-speed",
                        token=repr(token),
                    )
                arcs = int(m.group(1))
                if arcs < 1:
                    raise bad(f"manoeuvre {token!r} turns no arc", "move.no-arc", token=repr(token))
                manoeuvres.append(Manoeuvre(arcs, _SIDE_ALIASES[m.group(2).upper()]))
                if len(manoeuvres) > 2:
                    raise bad(
                        "at most two manoeuvre steps (one before each half move)",
                        "move.two-steps",
                    )
                stage = 1
            elif _FINAL_SPEED.match(token):
                if stage > 2:
                    raise bad(
                        f"a second final speed {token!r}", "move.second-speed", token=repr(token)
                    )
                final_speed = int(token)
                stage = 3
            else:
                raise bad(f"unreadable part {token!r}", "move.unreadable", token=repr(token))
        if speed_change is None and final_speed is None:
            speed_change = 0
        return cls(speed_change, tuple(manoeuvres), final_speed)

    @property
    def arcs(self) -> int:
        """Total arcs turned (each arc costs one thrust point)."""
        # sum(m.arcs for m in self.manoeuvres) without a generator (zero to two steps).
        total = 0
        for m in self.manoeuvres:
            total = total + m.arcs
        return total

    def __str__(self) -> str:
        parts: list[str] = []
        # "+0" is written only where leaving it out would parse differently.
        if self.speed_change is not None and (
            self.speed_change or self.final_speed is not None or not self.manoeuvres
        ):
            parts.append(f"{self.speed_change:+d}")
        parts.extend(str(m) for m in self.manoeuvres)
        if self.final_speed is not None:
            parts.append(str(self.final_speed))
        return ", ".join(parts)

    def __repr__(self) -> str:
        return f"Orders.parse({str(self)!r})"


class Plan(NamedTuple):
    """Orders checked against one ship: what the movement phase will execute.

    ``distance`` (mu) is the distance moved this turn (speed + change, may exceed 24);
    ``end_speed`` is next turn's speed (capped at 24); ``thrust_used`` counts arcs plus the
    speed change (a stationary roll costs 1), so ``thrust_used > 0`` triggers the aft-arc FC
    rule of §6.
    """

    orders: Orders
    speed_change: int
    distance: int
    end_speed: int
    thrust_used: int
    roll: bool = False


def validate_orders(
    orders: Orders,
    *,
    ship: str,
    thrust: int,
    speed: int,
    drive_working: bool = True,
    bridge_working: bool = True,
    half_thrust_turn_cap: bool = False,
) -> Plan:
    """Check ``orders`` for a ship of drive rating ``thrust`` moving at ``speed`` mu.

    Rules (rules §3): ``|change| ≤ T``; ``arcs + |change| ≤ T`` (« La valeur
    de Propulsion est divisée entre Poussée et manœuvres – Avec une propulsion de 4, un
    Vaisseau peut se réorienter … de 3 arcs et augmenter sa vitesse de 1 »); with
    ``half_thrust_turn_cap`` (D-3 option, off by default) also arcs ≤ ``max(1, floor(T/2))``
    (« autant d'arcs que sa valeur de Propulsion/2 »); no reversing (speed never
    below 0); a written final speed must equal ``min(24, speed + change)``. A stationary ship
    may roll one arc for one thrust point even with its drive out (D-4). A ship whose drive
    is out keeps its speed and heading; one whose bridge is out cannot manoeuvre (§4).

    Raises ``IllegalOrder`` naming the ship, the order and the rule section, and
    ``BadArgument`` naming the field for ``orders`` that are not ``Orders`` or a
    ``thrust`` or ``speed`` that is not a whole number ≥ 0.
    """
    if type(thrust) is not int or type(speed) is not int or not isinstance(orders, Orders):
        _check_movement_arguments(orders, ship, thrust, speed)
    if orders.speed_change is None:
        assert orders.final_speed is not None
        change = orders.final_speed - speed
    else:
        change = orders.speed_change
    new_speed = speed + change
    if new_speed < 0:
        raise _illegal(
            ship,
            orders,
            f"speed {speed} {change:+d} would be negative: no reversing",
            code="move.reversing",
            speed=str(speed),
            change=f"{change:+d}",
        )
    # Plain comparisons stand in for min(), max() and abs() below (same values, no calls).
    end_speed = new_speed if new_speed < MAX_END_SPEED else MAX_END_SPEED  # min(24, new)
    if orders.final_speed is not None and orders.final_speed != end_speed:
        raise _illegal(
            ship,
            orders,
            f"final speed {orders.final_speed} does not match {speed} {change:+d} "
            f"(= {end_speed}, capped at {MAX_END_SPEED} mu)",
            code="move.final-speed",
            final=str(orders.final_speed),
            speed=str(speed),
            change=f"{change:+d}",
            end=str(end_speed),
            max=str(MAX_END_SPEED),
        )
    arcs = 0  # orders.arcs, inlined
    for m in orders.manoeuvres:
        arcs = arcs + m.arcs
    if arcs and not bridge_working:
        raise _illegal(
            ship, orders, "the bridge is out: no manoeuvres", "§4", code="move.bridge-out"
        )
    roll = speed == 0 and change == 0 and arcs == 1
    if roll:
        # D-4: one arc about the axis, one thrust point, drive not needed.
        return Plan(orders, 0, 0, 0, 1, True)
    if not drive_working or thrust <= 0:
        if change or arcs:
            raise _illegal(
                ship,
                orders,
                "the drive is out: the ship keeps its speed and heading",
                code="move.drive-out",
            )
        return Plan(orders, 0, new_speed, end_speed, 0, False)
    size = -change if change < 0 else change  # abs(change)
    if size > thrust:
        raise _illegal(
            ship,
            orders,
            f"speed change {change:+d} exceeds thrust {thrust}",
            code="move.change-over-thrust",
            change=f"{change:+d}",
            thrust=str(thrust),
        )
    if half_thrust_turn_cap:
        half = thrust // 2
        cap = half if half > 1 else 1  # max(1, thrust // 2)
        if arcs > cap:
            raise _illegal(
                ship,
                orders,
                f"{arcs} arcs exceed the turning cap of {cap} for thrust {thrust} (D-3)",
                code="move.turning-cap",
                arcs=str(arcs),
                cap=str(cap),
                thrust=str(thrust),
            )
    if arcs + size > thrust:
        raise _illegal(
            ship,
            orders,
            f"{arcs} arcs + |{change:+d}| speed exceed thrust {thrust}",
            code="move.over-thrust",
            arcs=str(arcs),
            change=f"{change:+d}",
            thrust=str(thrust),
        )
    return Plan(orders, change, new_speed, end_speed, arcs + size, False)


def _check_movement_arguments(orders: object, ship: str, thrust: object, speed: object) -> None:
    where = f"{ship}: movement" if ship else "movement"
    if not isinstance(orders, Orders):
        raise BadArgument(f"{where}: orders must be Orders, got {type(orders).__name__} (§3)")
    whole_number(thrust, "thrust", where)
    whole_number(speed, "speed", where)


def parse_orders(
    text: object,
    *,
    ship: str,
    thrust: object,
    speed: object,
    drive_working: bool = True,
    bridge_working: bool = True,
    half_thrust_turn_cap: bool = False,
) -> Plan:
    """Parse then validate (see ``Orders.parse`` and ``validate_orders``)."""
    # (``object``: a wrong type reaches the checks, not the compiled engine's TypeError)
    orders = Orders.parse(text, ship=ship)
    if type(thrust) is not int or type(speed) is not int:
        _check_movement_arguments(orders, ship, thrust, speed)
    return validate_orders(
        orders,
        ship=ship,
        thrust=cast(int, thrust),
        speed=cast(int, speed),
        drive_working=drive_working,
        bridge_working=bridge_working,
        half_thrust_turn_cap=half_thrust_turn_cap,
    )


class Movement(NamedTuple):
    """The result of executing a plan: end ``position`` (mu), ``heading`` (0–5), next turn's
    ``speed`` (mu) and the ``path`` of waypoints (start, middle, end)."""

    position: tuple[float, float]
    heading: int
    speed: int
    path: tuple[tuple[float, float], ...]


def _illegal(
    ship: str, orders: Orders, why: str, section: str = "§3", *, code: str, **params: str
) -> IllegalOrder:
    """The error ``validate_orders`` raises (a module function: no closure per call), with
    its ``code`` and ``params`` for ``battles.log.refusals``."""
    return IllegalOrder(
        f"{ship}: order {str(orders)!r}: {why} (rules {section})",
        code=code,
        ship=ship,
        order=repr(str(orders)),
        **params,
    )


def step(position: tuple[float, float], heading: int, distance: float) -> tuple[float, float]:
    """Move ``distance`` mu straight ahead from ``position`` along ``heading``."""
    dx, dy = _DIRECTIONS[heading % HEADINGS]
    return (position[0] + dx * distance, position[1] + dy * distance)


def execute(plan: Plan, *, position: tuple[float, float], heading: int) -> Movement:
    """Execute a validated plan (§3): first turn, half move, second turn, half move.

    One step of n arcs splits as ``floor(n/2)`` then the rest; two steps are taken as
    written. Positions in mu, heading 0–5.
    """
    steps = plan.orders.manoeuvres
    count = len(steps)
    if count == 2:
        first, second = steps[0].heading_change, steps[1].heading_change
    elif count == 1:
        n = steps[0].arcs
        sign = 1 if steps[0].side == STARBOARD else -1
        first, second = sign * (n // 2), sign * (n - n // 2)
    else:
        first = second = 0
    half = plan.distance / 2
    middle_heading = (heading + first) % HEADINGS
    middle = step(position, middle_heading, half)
    end_heading = (middle_heading + second) % HEADINGS
    end = step(middle, end_heading, half)
    return Movement(end, end_heading, plan.end_speed, (position, middle, end))
