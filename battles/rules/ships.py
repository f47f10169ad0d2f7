"""Ship state for the engine: hull rows, ablative armour, crew, systems with status.

Source: rules §4 (anatomy, crew factors D-5, hull rows D-6), §6 (arcs), §11
(damage), D-25 (armour layers); the design document shape agreed in the working brief
(``ShipClass.design``, ``admiralty-design/1``).

States are plain mutable dataclasses: damage functions (``damage.py``) change them in place
and return events; call :meth:`ShipState.copy` first to keep the old state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from battles.rules.errors import MagazineDestroyed, RulesError

__all__ = [
    "ARCS",
    "COMMAND_SYSTEMS",
    "DesignError",
    "ShipState",
    "Status",
    "SystemState",
    "crew_factors",
    "split_hull_rows",
]

#: §6: the six 60° arcs, clockwise from the bow (index = offset from heading).
ARCS: tuple[str, ...] = ("F", "FS", "AS", "A", "AP", "FP")
#: §4: command systems, built into the hull.
COMMAND_SYSTEMS: tuple[str, ...] = ("bridge", "life-support", "core")


class DesignError(RulesError):
    """A ship design document the engine cannot build a ship from (names the field)."""


class Status(StrEnum):
    """A system's state (§11 threshold checks damage it; §12 damage control repairs it)."""

    WORKING = "working"
    DAMAGED = "damaged"  # knocked out; damage control may repair it
    DESTROYED = "destroyed"  # gone for this battle (lance, systems_lost, expended)

    def __repr__(self) -> str:
        # Keeps ``repr(ShipState)`` evaluable: a repr rebuilds the state, so
        # equal reprs mean equal inputs.
        return f"Status.{self.name}"


@dataclass(slots=True)
class SystemState:
    """One system on the SSD.

    ``kind``: ``weapon``, ``magazine``, ``pd``, ``adaf``, ``bay``, ``launch-tube``,
    ``marines``, ``fc``, ``screen``, ``drive``, ``bridge``, ``life-support``, ``core``,
    ``ecm``, ``spicule``, … ``weapon``: catalogue id (weapons only). ``arcs``: §6 arc codes.
    ``magazine``: id of the linked magazine system. ``ammo``: rounds left (magazines: their
    capacity; single-use weapons: 1; None = unlimited). ``squads``: marine squads.
    ``data``: the design entry's other fields, untouched (e.g. a bay's squadron).
    """

    id: str
    kind: str
    weapon: str | None = None
    arcs: tuple[str, ...] = ()
    status: Status = Status.WORKING
    magazine: str | None = None
    ammo: int | None = None
    squads: int = 0
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def working(self) -> bool:
        """True when the system can act this turn."""
        return self.status is _WORKING  # (defined below: Status.WORKING, read faster)

    @property
    def is_command(self) -> bool:
        """True for bridge, life support and core (§4)."""
        return self.kind in COMMAND_SYSTEMS

    def notation(self) -> str:
        """``id`` with a suffix: ``*`` damaged, ``x`` destroyed (e.g. ``beam-a*``)."""
        mark = {Status.WORKING: "", Status.DAMAGED: "*", Status.DESTROYED: "x"}[self.status]
        return f"{self.id}{mark}"


_WORKING = Status.WORKING


def crew_factors(mass: int) -> int:
    """Crew factors of a ship of ``mass``: ``ceil(mass / 20)``, at least 1 (§4, D-5)."""
    return max(1, math.ceil(mass / 20))


def split_hull_rows(boxes: int, rows: int = 4) -> list[int]:
    """D-6: ``boxes`` split into ``rows`` rows as evenly as possible, larger rows first."""
    if boxes < 0:
        raise DesignError(f"hull.boxes must be ≥ 0, got {boxes} (§4, D-6)")
    base, extra = divmod(boxes, rows)
    return [base + (1 if i < extra else 0) for i in range(rows) if base or i < extra]


class _KindIndex:
    """The slots of ``ShipState``'s index of systems by kind (not dataclass fields: they are
    no part of the ship's state, its repr, equality, copies or stored form). ``_derived``
    holds what other modules resolve once from the index (``derived``), dropped with it."""

    __slots__ = ("_by_kind", "_indexed", "_indexed_count", "_derived")
    _by_kind: dict[str, tuple[SystemState, ...]]
    _indexed: dict[str, SystemState]
    _indexed_count: int
    _derived: dict[str, Any]


@dataclass(slots=True)
class ShipState(_KindIndex):
    """One ship in a battle.

    Units: ``mass`` in mass points; ``x``, ``y``, ``speed`` in mu; ``heading`` 0–5 (60°
    steps clockwise, 0 = +y). ``hull_rows``: boxes left per row (first row first);
    ``hull_design``: boxes per row when undamaged. ``armour``: boxes left per layer,
    outermost first; ``armour_design``: the design's layers. ``crew_max`` / ``crew_left``:
    crew factors. ``systems``: by id, in SSD order. ``countdowns``: turns left on a
    bridge / life-support / core countdown (§4). ``vampires``: vampire attachments ticking
    2 damage per turn (§8). ``boarders``: enemy squads aboard, each ``"marines"`` or
    ``"fusiliers"`` (§13). ``fighters_attached`` is for the turn code (§3 phase 3).
    ``drive_type``: the design's ``drive`` (``"standard"`` when it names none), which
    advanced sensors report (§5).
    """

    ship_id: str
    name: str
    side: str
    mass: int
    hull_design: tuple[int, ...]
    hull_rows: list[int]
    armour_design: tuple[int, ...] = ()
    armour: list[int] = field(default_factory=list)
    crew_max: int = 1
    crew_left: int = 1
    systems: dict[str, SystemState] = field(default_factory=dict)
    class_name: str = ""
    faction: str = ""
    thrust_rating: int = 0
    sensors: str = "standard"
    ecm: int = 0
    power_points: int = 0
    biomass: int = 0
    x: float = 0.0
    y: float = 0.0
    heading: int = 0
    speed: int | float = 0.0  # (not ``float``: compiled by mypyc, that would turn 8 into 8.0)
    screens_on: bool = True
    thrust_used: bool = False
    destroyed: bool = False
    captured: bool = False
    withdrawn: bool = False
    derelict: bool = False  # crew dead (life support, §4)
    dead_in_space: bool = False  # core shut down (§4)
    countdowns: dict[str, int] = field(default_factory=dict)
    vampires: int = 0
    boarders: list[str] = field(default_factory=list)
    drive_type: str = "standard"

    # ---- construction ----

    @classmethod
    def from_design(
        cls,
        design: Mapping[str, Any],
        *,
        ship_id: str,
        side: str,
        name: str | None = None,
        hull_lost: object = 0,
        armour_lost: object = 0,
        crew_lost: object = 0,
        systems_lost: Iterable[str] = (),
    ) -> ShipState:
        """Build a ship from an ``admiralty-design/1`` document and its carried damage:
        :func:`battles.rules.ship_design.ship_from_design`, which documents the arguments
        and the :class:`DesignError` it raises."""
        # ship_design imports this module for ShipState: imported here, not at the top.
        from battles.rules.ship_design import ship_from_design

        return ship_from_design(
            design,
            ship_id=ship_id,
            side=side,
            name=name,
            hull_lost=hull_lost,
            armour_lost=armour_lost,
            crew_lost=crew_lost,
            systems_lost=systems_lost,
        )

    def copy(self) -> ShipState:
        """An independent copy (states are mutable; keep the old one before applying damage).

        Every mutable part is copied; a system's ``data`` (design fields, never changed by
        the engine) is shared. Written plainly: no battle calls it (``ai.clone`` copies the
        fleets), so it is no part of the callgrind benchmark (``make bench``).
        """
        return replace(
            self,
            hull_rows=list(self.hull_rows),
            armour=list(self.armour),
            systems={k: replace(v) for k, v in self.systems.items()},
            countdowns=dict(self.countdowns),
            boarders=list(self.boarders),
        )

    # ---- low-level box bookkeeping (no threshold checks; see damage.py) ----

    def cross_off_hull(self, n: int) -> list[int]:
        """Cross off up to ``n`` hull boxes, first row first; returns the 1-based numbers of
        rows completed by this call, in order. Never goes below zero."""
        completed: list[int] = []
        for i, left in enumerate(self.hull_rows):
            if n <= 0:
                break
            if left == 0:
                continue
            take = min(left, n)
            self.hull_rows[i] = left - take
            n -= take
            if self.hull_rows[i] == 0 and self.hull_design[i] > 0:
                completed.append(i + 1)
        return completed

    def cross_off_armour(self, n: int) -> int:
        """Remove up to ``n`` armour boxes, outer layer first (D-25); returns boxes removed."""
        removed = 0
        for i, left in enumerate(self.armour):
            if n <= 0:
                break
            take = min(left, n)
            self.armour[i] = left - take
            n -= take
            removed += take
        return removed

    # ---- derived values ----

    @property
    def hull_max(self) -> int:
        """Hull boxes when undamaged."""
        return sum(self.hull_design)

    @property
    def hull_left(self) -> int:
        """Hull boxes not crossed off."""
        return sum(self.hull_rows)

    @property
    def hull_lost(self) -> int:
        """Hull boxes crossed off (the ``Ship.hull_lost`` column)."""
        return self.hull_max - self.hull_left

    @property
    def armour_max(self) -> int:
        """Armour boxes when undamaged (all layers)."""
        return sum(self.armour_design)

    @property
    def armour_left(self) -> int:
        """Armour boxes left (all layers)."""
        return sum(self.armour)

    @property
    def armour_lost(self) -> int:
        """Armour boxes lost (the ``Ship.armour_lost`` column)."""
        return self.armour_max - self.armour_left

    @property
    def crew_lost(self) -> int:
        """Crew factors lost (the ``Ship.crew_lost`` column)."""
        return self.crew_max - self.crew_left

    @property
    def systems_lost(self) -> list[str]:
        """Ids of systems not working (damaged or destroyed), SSD order."""
        return [s.id for s in self.systems.values() if s.status is not _WORKING]

    @property
    def rows_completed(self) -> int:
        """How many hull rows are fully crossed off."""
        return sum(
            1
            for left, d in zip(self.hull_rows, self.hull_design, strict=True)
            if d > 0 and left == 0
        )

    @property
    def out_of_action(self) -> bool:
        """Destroyed, captured, withdrawn, derelict or dead in space: takes no more action."""
        return (
            self.destroyed or self.captured or self.withdrawn or self.derelict or self.dead_in_space
        )

    def by_kind(self) -> dict[str, tuple[SystemState, ...]]:
        """The ship's systems grouped by ``kind``, each group in SSD order.

        Built on first use and kept: a system's kind never changes, and the engine adds
        no system during a battle. Rebuilt when ``systems`` is replaced or changes size
        (a test adding a system; ``ai.clone`` and ``copy`` give the new ship its own).
        The turn asks every ship for its FCs, screens, guns and bays several times a
        turn; a scan of every system each time was 8 % of a battle's bytecodes.
        """
        systems = self.systems
        try:
            if self._indexed is systems and self._indexed_count == len(systems):
                return self._by_kind
        except AttributeError:  # a new (or unpickled) ship: no index yet
            pass
        groups: dict[str, list[SystemState]] = {}
        for system in systems.values():
            groups.setdefault(system.kind, []).append(system)
        # (mypy reads only the dataclass's own __slots__, not _KindIndex's: hence the ignores)
        self._by_kind = {kind: tuple(group) for kind, group in groups.items()}  # type: ignore[misc]
        self._indexed = systems  # type: ignore[misc]
        self._indexed_count = len(systems)  # type: ignore[misc]
        self._derived = {}  # type: ignore[misc]
        return self._by_kind

    def derived(self) -> dict[str, Any]:
        """A cache for values other modules derive once from the ship's systems as designed
        (ids, kinds, weapon ids, arcs — never their status, ammo or data, which change in
        battle), e.g. the tactics' weapon profiles (``ai.kit.ship_guns``). Emptied whenever
        :meth:`by_kind` rebuilds its index."""
        self.by_kind()
        return self._derived

    def systems_of(self, kind: str, *, working: bool = True) -> list[SystemState]:
        """Systems of ``kind`` (only working ones unless ``working=False``), SSD order."""
        group = self.by_kind().get(kind, ())
        if working:
            return [s for s in group if s.status is _WORKING]
        return list(group)

    def working_count(self, kind: str) -> int:
        """How many systems of ``kind`` work: ``len(self.systems_of(kind))`` without
        building the list."""
        n = 0
        for s in self.by_kind().get(kind, ()):
            if s.status is _WORKING:
                n += 1
        return n

    @property
    def bridge_working(self) -> bool:
        """§4: no bridge (out or absent in the design is treated as working only if absent)."""
        bridge = self.systems.get("bridge")
        return bridge is None or bridge.status is _WORKING

    @property
    def fire_controls(self) -> int:
        """Working fire controls; 0 while the bridge is out (§4)."""
        if self.dead_in_space:
            return 0
        systems = self.systems
        bridge = systems.get("bridge")
        if bridge is not None and bridge.status is not _WORKING:
            return 0
        return self.working_count("fc")

    @property
    def screen_level(self) -> int:
        """Screen level 0–3: working screen systems, when switched on (§7)."""
        if not self.screens_on or self.dead_in_space:
            return 0
        return min(3, self.working_count("screen"))

    @property
    def thrust(self) -> int:
        """Thrust available: the rating while a drive works, 0 otherwise (§3, §11)."""
        if self.dead_in_space:
            return 0
        drive = self.systems.get("drive")
        if drive is None or drive.status is _WORKING:
            return self.thrust_rating
        return 0

    @property
    def blips(self) -> int:
        """§5: one blip per started 50 mass."""
        return math.ceil(self.mass / 50)

    # ---- firing ----

    def ready_weapon(self, system_id: str) -> SystemState:
        """The weapon system ``system_id`` if it may fire now.

        Raises :class:`RulesError` when the ship is out of action, the system is missing,
        not a weapon, damaged/destroyed or expended (a destroyed system never fires, §11),
        and :class:`MagazineDestroyed` when its linked magazine is not working or empty (§8).
        """
        system = self.systems.get(system_id)
        if system is None or system.kind != "weapon":
            raise RulesError(f"{self.ship_id}: no weapon system {system_id!r} (§8)")
        if self.out_of_action:
            raise RulesError(f"{self.ship_id} is out of action; {system_id} cannot fire")
        if not system.working:
            raise RulesError(
                f"{self.ship_id}: {system_id} ({system.weapon}) is {system.status}; it cannot "
                "fire (§11)"
            )
        if system.ammo is not None and system.ammo <= 0:
            raise RulesError(f"{self.ship_id}: {system_id} ({system.weapon}) is expended (§8)")
        if system.magazine is not None:
            mag = self.systems.get(system.magazine)
            if mag is None or not mag.working or (mag.ammo is not None and mag.ammo <= 0):
                state = "empty" if mag is not None and mag.working else "destroyed"
                raise MagazineDestroyed(
                    f"{self.ship_id}: {system_id} ({system.weapon}) cannot fire, magazine "
                    f"{system.magazine} is {state} (§8)"
                )
        return system

    def expend(self, system_id: str) -> None:
        """Spend one round of ``system_id`` (its own ammo, or its magazine's) after firing."""
        system = self.ready_weapon(system_id)
        if system.ammo is not None:
            system.ammo -= 1
        if system.magazine is not None:
            mag = self.systems[system.magazine]
            if mag.ammo is not None:
                mag.ammo -= 1

    # ---- notation ----

    def notation(self) -> str:
        """One compact line, e.g.
        ``q1 "Sa'ar" qatzrin M16 H0/1/1/1 A1 C1/1 T6 S0 @(10,-4) h2 v6 [beam-a torp-a* mag-ax]``
        Hull rows show boxes left per row; flags follow as ``DESTROYED`` etc.
        """
        hull = "/".join(str(r) for r in self.hull_rows)
        armour = "/".join(str(a) for a in self.armour) or "0"
        flags = [
            f.upper()
            for f in ("destroyed", "captured", "withdrawn", "derelict", "dead_in_space")
            if getattr(self, f)
        ]
        count = "".join(f" {k}:{v}" for k, v in self.countdowns.items())
        extra = (f" vampires:{self.vampires}" if self.vampires else "") + (
            f" boarders:{','.join(self.boarders)}" if self.boarders else ""
        )
        systems = " ".join(s.notation() for s in self.systems.values())
        return (
            f'{self.ship_id} "{self.name}" {self.side} M{self.mass} H{hull} A{armour} '
            f"C{self.crew_left}/{self.crew_max} T{self.thrust} S{self.screen_level} "
            f"@({self.x:g},{self.y:g}) h{self.heading} v{self.speed:g} [{systems}]"
            + "".join(" " + f for f in flags)
            + count
            + extra
        )

    def __str__(self) -> str:
        return self.notation()
