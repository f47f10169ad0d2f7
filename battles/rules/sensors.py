"""Arcs, fire-control allocation and sensors (rules §5, §6).

Geometry as in ``movement.py``: positions in mu, heading 0–5 in 60° steps clockwise from
+y, starboard clockwise. The six arcs, clockwise from the bow: ``F`` (bow), ``FS``
(starboard-fore), ``AS`` (starboard-aft), ``A`` (aft), ``AP`` (port-aft), ``FP``
(port-fore); each spans 60°, the bow arc centred on the heading. A target exactly on the
line between two arcs is in both.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battles.rules.errors import BadArgument, NoFireControl, OutOfArc, whole_number

ARCS: tuple[str, ...] = ("F", "FS", "AS", "A", "AP", "FP")
ALL_ARCS: frozenset[str] = frozenset(ARCS)
_EPS = 1e-9
# ``math.degrees(x)`` is computed as ``x * (180.0 / pi)`` (CPython's mathmodule.c): the
# product gives the same float without a call.
_RAD_TO_DEG = 180.0 / math.pi
_ARC_EPS = 1e-7  # degrees: a target this close to an arc line is in both arcs

# §5: sensor ranges in mu; ECM lowers them by 6 mu a level, never below 6.
SENSOR_RANGE = {"standard": 24, "advanced": 36, "light": 12}
ECM_STEP = 6
MIN_SENSOR_RANGE = 6
FIRE_CONTROL_DETECTION = 54  # mu, §5
BLIP_MASS = 50

# Systems with their own fire direction (§6, §10): they never take an FC.
OWN_DIRECTION = frozenset({"pd", "adaf", "scattergun", "spicule", "interceptor-nodule"})
LANCE = "lance"  # D-12: a lance needs an FC that directs nothing else this turn


def pd_arc_limited(weapon: str) -> bool:
    """A weapon whose point-defence fire keeps to its arcs: the pulser in any mode (§8; audit
    A13, project reading of the seed: « Les Pulseurs peuvent être employés comme Systèmes de
    défense mais sont limités par leur arc de tir »). Beam-1 and kgun-1 as PD fire all round.
    """
    return weapon.startswith("pulser")


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Straight-line distance in mu."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Bearing in degrees [0, 360) from ``a`` to ``b``, clockwise from +y."""
    return math.atan2(b[0] - a[0], b[1] - a[1]) * _RAD_TO_DEG % 360.0  # math.degrees


def target_arcs(
    position: tuple[float, float], heading: int, target: tuple[float, float]
) -> tuple[str, ...]:
    """The arc(s) of a ship at ``position``/``heading`` in which ``target`` lies (§6).

    One arc, or two when the target sits on the boundary line; all six for a target at the
    same point. Relative bearing 330°–30° is ``F``, 30°–90° ``FS`` and so on clockwise.
    """
    if distance(position, target) < _EPS:
        return ARCS
    relative = (bearing(position, target) - heading * 60.0 + 30.0) % 360.0
    index = int(relative // 60.0) % 6
    arcs = [ARCS[index]]
    offset = relative - index * 60.0
    if offset < _ARC_EPS:
        arcs.insert(0, ARCS[(index - 1) % 6])
    elif 60.0 - offset < _ARC_EPS:
        arcs.append(ARCS[(index + 1) % 6])
    return tuple(arcs)


# The arc tuples ``target_arcs`` can return, built once: one arc, or two on a line.
_ONE_ARC = tuple((a,) for a in ARCS)
_ARC_BEFORE = tuple((ARCS[(i - 1) % 6], ARCS[i]) for i in range(6))
_ARC_AFTER = tuple((ARCS[i], ARCS[(i + 1) % 6]) for i in range(6))
_hypot, _atan2 = math.hypot, math.atan2
# ``int(q) % 6`` for the quotients ``relative // 60.0`` takes (6.0 when a tiny negative
# angle rounds ``% 360.0`` up to 360.0).
_SECTOR_INDEX: dict[float, int] = {float(q): q % 6 for q in range(7)}


ARC_BITS: dict[str, int] = {arc: 1 << i for i, arc in enumerate(ARCS)}
ALL_ARC_BITS = (1 << len(ARCS)) - 1
_UNKNOWN_ARC_BIT = 1 << len(ARCS)  # an unknown arc code: never seen, not all-round


@functools.cache
def arc_mask(arcs: tuple[str, ...]) -> int:
    """The arc codes of ``arcs`` as bits (``ARC_BITS``), so "do two arc lists share an
    arc" is one AND; an unknown code sets a bit no target bearing ever has. Remembered
    per tuple: the few arc lists of a battle are asked for every shot."""
    mask = 0
    for arc in arcs:
        mask |= ARC_BITS.get(arc, _UNKNOWN_ARC_BIT)
    return mask


def sight_line(
    x: float, y: float, heading: int, tx: float, ty: float
) -> tuple[float, tuple[str, ...]]:
    """(``distance``, ``target_arcs``) from a ship at (``x``, ``y``) with ``heading`` to a
    target at (``tx``, ``ty``), in mu and §6 arc codes, in one step: the same floating-point
    operations as those two functions, so the same values (the AI asks this for every
    enemy of every ship, every turn)."""
    dx, dy = tx - x, ty - y
    gap = _hypot(dx, dy)
    if gap < _EPS:
        return gap, ARCS
    relative = (_atan2(dx, dy) * _RAD_TO_DEG % 360.0 - heading * 60.0 + 30.0) % 360.0
    sector = relative // 60.0
    try:
        index = _SECTOR_INDEX[sector]  # int(sector) % 6 without the int() call
    except KeyError:  # not a whole sector 0–6 (NaN coordinates): int() raises as before
        index = int(sector) % 6
    offset = relative - index * 60.0
    if offset < _ARC_EPS:
        return gap, _ARC_BEFORE[index]
    if 60.0 - offset < _ARC_EPS:
        return gap, _ARC_AFTER[index]
    return gap, _ONE_ARC[index]


def sensor_range(kind: str = "standard", *, target_ecm: object = 0) -> int:
    """Range in mu at which an observer with ``kind`` sensors (``standard`` 24, ``advanced``
    36, ``light`` 12 for light units) sees a target with ECM/stealth level ``target_ecm``:
    6 mu less per level, never below 6 (§5). Raises ``BadArgument`` (a ``ValueError``) for
    an unknown kind."""
    # (``object``: a wrong type reaches this check, not the compiled engine's TypeError)
    ecm = (
        target_ecm
        if type(target_ecm) is int
        else whole_number(target_ecm, "target_ecm", "sensor_range")
    )
    if kind not in SENSOR_RANGE:
        raise BadArgument(f"unknown sensor kind {kind!r}; expected one of {sorted(SENSOR_RANGE)}")
    return max(MIN_SENSOR_RANGE, SENSOR_RANGE[kind] - ECM_STEP * max(0, ecm))


def fire_reach(
    sensors: str = "standard",
    *,
    target_ecm: int = 0,
    blip_fire: str = "allowed",
    ecm_limits_fire_control: bool = False,
) -> float:
    """How far, in mu, a ship's FC-directed fire may reach a target with ECM level
    ``target_ecm`` (§6; defence systems and class-1 weapons as PD are not limited here);
    the weapon's own bands still apply.

    - Default: no limit beyond the weapon's range (``math.inf``). The seed ties fire to
      fire control, not to sensors, and fires past both: « il est donc tout à fait possible
      de tirer à une distance de 72mu » (needle nodule), though « Les contrôles de tir
      possèdent une portée effective de détection de 54mu ».
    - ``ecm_limits_fire_control`` (D-33 option): the FC's 54 mu detection range limits
      fire, shortened by 6 mu an ECM level, never below 6 mu (« les senseurs de n'importe
      quel type conservent une efficacité minimale de 6mu »).
    - ``blip_fire="forbidden"`` (D-32 option): only a target within :func:`sensor_range`
      after ECM, not one seen only as a blip.
    """
    ecm = max(0, target_ecm)
    reach = math.inf
    if ecm_limits_fire_control:
        reach = float(max(MIN_SENSOR_RANGE, FIRE_CONTROL_DETECTION - ECM_STEP * ecm))
    if blip_fire == "forbidden":
        reach = min(reach, sensor_range(sensors, target_ecm=ecm))
    return reach


def blips(mass: object, *, light_unit: bool = False) -> int:
    """Blips a contact shows beyond sensor range: one per started 50 mass (51–100 → 2);
    light units show as 0-blip markers (§5)."""
    if light_unit:
        return 0
    tons = mass if type(mass) is int else whole_number(mass, "mass", "blips")
    return max(1, math.ceil(tons / BLIP_MASS))


@dataclass(frozen=True)
class Contact:
    """What the observer may learn about one enemy ship (§5), built from its design
    document (``ShipClass.design``, the agreed format) plus its current hull."""

    name: str
    class_name: str
    mass: int
    hull_left: int
    hull_max: int
    weapons: tuple[tuple[str, tuple[str, ...]], ...]  # (weapon id, arcs) per weapon system
    fire_controls: int
    adaf: bool
    missile_types: tuple[str, ...]
    light_units: tuple[tuple[str, int], ...]  # (unit type, craft)
    drive: str = "standard"
    ecm: int = 0

    @classmethod
    def from_design(
        cls, design: Mapping[str, Any], *, name: str, hull_left: int | None = None
    ) -> Contact:
        """Read a design document; ``hull_left`` defaults to the full hull."""
        weapons, missiles, units = [], [], []
        adaf = False
        for system in design.get("systems", ()):
            kind = system.get("kind")
            if kind == "weapon":
                weapon = str(system["weapon"])
                weapons.append((weapon, tuple(system.get("arcs", ()))))
                if weapon.startswith("missile-"):
                    missiles.append(weapon)
            elif kind == "adaf":
                adaf = True
            elif kind == "bay" and "squadron" in system:
                squadron = system["squadron"]
                units.append((str(squadron["unit"]), int(squadron.get("size", 6))))
        hull_max = int(design["hull"]["boxes"])
        return cls(
            name=name,
            class_name=str(design["name"]),
            mass=int(design["mass"]),
            hull_left=hull_max if hull_left is None else hull_left,
            hull_max=hull_max,
            weapons=tuple(weapons),
            fire_controls=int(design.get("fire_controls", 0)),
            adaf=adaf,
            missile_types=tuple(sorted(set(missiles))),
            light_units=tuple(units),
            drive=str(design.get("drive", "standard")),
            ecm=int(design.get("ecm", 0)),
        )

    @classmethod
    def from_ship(cls, ship: Any) -> Contact:
        """Read an engine ship state (``ships.ShipState``: systems, hull, mass…) as it is
        now; damaged systems still show (sensors see hardware, not its status). ``drive``
        is the design's drive type (``ShipState.drive_type``), "standard" when it has none."""
        weapons, missiles, units = [], [], []
        adaf = False
        fcs = 0
        for system in ship.systems.values():
            kind = system.kind
            if kind == "weapon" and system.weapon:
                weapon = system.weapon
                weapons.append((weapon, tuple(system.arcs)))
                if weapon.startswith("missile-"):
                    missiles.append(weapon)
            elif kind == "adaf":
                adaf = True
            elif kind == "fc":
                fcs += 1
            elif kind == "bay" and "squadron" in system.data:
                squadron = system.data["squadron"]
                units.append((str(squadron["unit"]), int(squadron.get("size", 6))))
        values = {
            "name": ship.name,
            "class_name": ship.class_name,
            "mass": ship.mass,
            "hull_left": ship.hull_left,
            "hull_max": ship.hull_max,
            "weapons": tuple(weapons),
            "fire_controls": fcs,
            "adaf": adaf,
            "missile_types": tuple(sorted(set(missiles))),
            "light_units": tuple(units),
            "drive": str(getattr(ship, "drive_type", "") or "standard"),
            "ecm": ship.ecm,
        }
        return cls(**values)


def hull_state(hull_left: int, hull_max: int) -> str:
    """Approximate hull damage as an observer sees it: intact / light / heavy / crippled
    (quarters of the hull lost)."""
    lost = 1 - hull_left / hull_max if hull_max else 0
    if lost <= 0:
        return "intact"
    if lost < 0.5:
        return "light"
    if lost < 0.75:
        return "heavy"
    return "crippled"


def observe(
    contact: Contact,
    *,
    range_mu: float,
    sensors: str = "standard",
    encountered_classes: Iterable[str] = (),
    encountered_light_units: Iterable[str] = (),
) -> dict[str, Any]:
    """What an observer with ``sensors`` at ``range_mu`` learns about ``contact`` (§5).

    Returns a JSON-ready dict: always ``level`` (``blip``/``standard``/``advanced``) and
    ``blips``; within sensor range also ``mass``, ``class`` (only if already encountered in
    the campaign, else None), ``hull`` (approximate), ``weapon_types``, ``fire_control``,
    ``adaf``, ``missile_types``, ``light_unit_types`` (only encountered ones); advanced
    sensors add ``heavy_weapons`` (id and arcs), ``light_units`` (type, craft) and ``drive``.
    Also ``fire_control_detected`` when within 54 mu and the contact has an FC.
    """
    seen = range_mu <= sensor_range(sensors, target_ecm=contact.ecm)
    report: dict[str, Any] = {
        "level": "blip",
        "blips": blips(contact.mass),
        "fire_control_detected": contact.fire_controls > 0 and range_mu <= FIRE_CONTROL_DETECTION,
    }
    if not seen:
        return report
    known_classes = set(encountered_classes)
    known_units = set(encountered_light_units)
    report.update(
        level="standard",
        mass=contact.mass,
        **{"class": contact.class_name if contact.class_name in known_classes else None},
        hull=hull_state(contact.hull_left, contact.hull_max),
        weapon_types=sorted({w for w, _ in contact.weapons}),
        fire_control=contact.fire_controls > 0,
        adaf=contact.adaf,
        missile_types=list(contact.missile_types),
        light_unit_types=sorted({u for u, _ in contact.light_units if u in known_units}),
    )
    if sensors == "advanced":
        report.update(
            level="advanced",
            heavy_weapons=[{"weapon": w, "arcs": list(a)} for w, a in contact.weapons],
            light_units=[{"unit": u, "craft": n} for u, n in contact.light_units],
            drive=contact.drive,
        )
    return report


@dataclass(frozen=True)
class FireOrder:
    """One weapon system firing this phase: ``system`` id on the firing ship, ``weapon`` id,
    the weapon's ``arcs``, the ``target`` id and the arc(s) the target lies in
    (``target_arcs``). ``point_defence`` marks a class-1 weapon firing at a light unit
    attached to its own ship within 6 mu, which needs no FC (§6)."""

    system: str
    weapon: str
    arcs: tuple[str, ...]
    target: str
    target_arcs: tuple[str, ...]
    point_defence: bool = False


@dataclass
class FireControlPlan:
    """Which FC directs what: ``directs[i]`` is ``("launch", label)``, ``("target", id)`` or
    ``("lance", id)`` for FC number i+1; ``system_fc`` maps each weapon system to its FC
    (None for systems with their own fire direction)."""

    directs: list[tuple[str, str]] = field(default_factory=list)
    system_fc: dict[str, int | None] = field(default_factory=dict)


def allocate_fire_control(
    *,
    ship: str,
    fire_controls: int,
    orders: Sequence[FireOrder],
    launches: Sequence[str] = (),
    used_thrust: bool = False,
) -> FireControlPlan:
    """Allocate a ship's working FCs for the turn (§6).

    Each launch (label, e.g. a bay id) ties one FC; each enemy target of heavy weapons takes
    one FC however many weapons fire at it; each lance takes an FC of its own (D-12). PD,
    ADAF, scatterguns, spicules and interceptor nodules have their own direction, as do
    class-1 weapons firing as point defence (a pulser as PD still keeps to its arcs,
    :func:`pd_arc_limited`). The target must lie in one of the weapon's arcs;
    while the ship used thrust this turn its FCs cannot direct fire into the aft arc.

    Raises ``OutOfArc`` (target outside every arc of the weapon), ``NoFireControl`` (aft arc
    while thrusting, or more FCs needed than ``fire_controls`` working), each naming the
    ship, the weapon system, the target and §6.
    """
    plan = FireControlPlan()

    def take(kind: str, label: str, what: str) -> int:
        if len(plan.directs) >= fire_controls:
            raise NoFireControl(
                f"{ship}: no free fire control for {what} "
                f"({fire_controls} working, all directing: "
                f"{', '.join(f'{k} {t}' for k, t in plan.directs) or 'nothing'}) (rules §6)"
            )
        plan.directs.append((kind, label))
        return len(plan.directs)

    for label in launches:
        take("launch", label, f"launch {label}")
    by_target: dict[str, int] = {}
    for order in orders:
        pd_out_of_arc = order.point_defence and not set(order.arcs) & set(order.target_arcs)
        if pd_out_of_arc and pd_arc_limited(order.weapon):
            raise OutOfArc(
                f"{ship}: {order.system} ({order.weapon}) as PD at {order.target}: target "
                f"in arc {'/'.join(order.target_arcs)}, weapon arcs "
                f"{'/'.join(order.arcs) or 'none'}; a pulser as PD keeps to its arcs "
                "(rules §6, §8)"
            )
        if order.weapon in OWN_DIRECTION or order.point_defence:
            plan.system_fc[order.system] = None
            continue
        usable = set(order.arcs) & set(order.target_arcs)
        what = f"{order.system} ({order.weapon}) at {order.target}"
        if not usable:
            raise OutOfArc(
                f"{ship}: {what}: target in arc {'/'.join(order.target_arcs)}, "
                f"weapon arcs {'/'.join(order.arcs) or 'none'} (rules §6)"
            )
        if used_thrust and usable <= {"A"}:
            raise NoFireControl(
                f"{ship}: {what}: fire controls cannot direct fire into the aft arc "
                f"while the ship uses thrust (rules §6)"
            )
        if order.weapon == LANCE:
            plan.system_fc[order.system] = take("lance", order.target, what)
        else:
            if order.target not in by_target:
                by_target[order.target] = take("target", order.target, what)
            plan.system_fc[order.system] = by_target[order.target]
    return plan
