"""Building a ``ShipState`` from an ``admiralty-design/1`` document and its carried damage.

Source: rules §4 (anatomy, crew factors D-5, hull rows D-6), §6 (arcs), §8 and
§10 (single-use weapons), D-25 (armour layers); the design document shape agreed in the working
brief (``ShipClass.design``). Called through :meth:`ShipState.from_design`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from battles.rules.ships import (
    COMMAND_SYSTEMS,
    DesignError,
    ShipState,
    Status,
    SystemState,
    crew_factors,
    split_hull_rows,
)
from battles.rules.weapons import get_weapon


def ship_from_design(
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
    """Build a ship from an ``admiralty-design/1`` document and its carried damage.

    ``hull_lost`` boxes are crossed off from the first row on; ``armour_lost`` from the
    outermost layer on; ``crew_lost`` crew factors off ``ceil(mass/20)``;
    ``systems_lost`` ids (of ``design["systems"]`` or the synthesised ``fc-N``,
    ``screen-N``, ``drive``, ``bridge``, ``life-support``, ``core``) start destroyed.
    FCs, screens, drive and command systems are synthesised as systems so threshold
    checks reach them (§11). Raises :class:`DesignError` naming the bad field: a
    design that is not a mapping, a missing or non-numeric mass or hull, a negative
    armour layer, thrust, ECM, fire-control or screen count, magazine capacity or
    ammo, power points or biomass, or negative carried damage.
    """
    if not isinstance(design, Mapping):
        raise DesignError(
            f"ship {ship_id}: design must be a mapping (admiralty-design/1), got "
            f"{type(design).__name__}"
        )
    label = f"design {design.get('name', '?')!r}"

    def count(value: Any, what: str, where: str = label) -> int:
        # A whole number ≥ 0 from the design, else DesignError naming the field.
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise DesignError(f"{where}: {what} must be a whole number, got {value!r}") from None
        if isinstance(value, bool) or number != value and not isinstance(value, str):
            raise DesignError(f"{where}: {what} must be a whole number, got {value!r}")
        if number < 0:
            raise DesignError(f"{where}: {what} must be ≥ 0, got {number}")
        return number

    try:
        mass = int(design["mass"])
        hull = design["hull"]
        if hull.get("rows"):
            rows = [int(r) for r in hull["rows"]]
        else:
            rows = split_hull_rows(int(hull["boxes"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise DesignError(
            f"design {design.get('name', '?')!r}: missing or bad field {exc} (mass, hull)"
        ) from exc
    if "boxes" in hull and sum(rows) != int(hull["boxes"]):
        raise DesignError(
            f"design {design.get('name')!r}: hull.rows {rows} do not add up to "
            f"hull.boxes {hull['boxes']} (§4, D-6)"
        )
    if mass < 1 or any(r < 0 for r in rows):
        raise DesignError(f"design {design.get('name')!r}: mass and hull rows must be > 0")
    armour = design.get("armour") or {}
    if not isinstance(armour, Mapping):
        raise DesignError(f"{label}: armour must be a mapping with layers, got {armour!r}")
    layers = [count(x, f"armour.layers[{i}]") for i, x in enumerate(armour.get("layers", []))]
    systems: dict[str, SystemState] = {}
    for i, entry in enumerate(design.get("systems", [])):
        sid = entry.get("id")
        kind = entry.get("kind")
        if not sid or not kind:
            raise DesignError(f"design {design.get('name')!r}: systems[{i}] needs an id and a kind")
        if sid in systems:
            raise DesignError(f"design {design.get('name')!r}: duplicate system id {sid!r}")
        ammo = entry.get("capacity") if kind == "magazine" else entry.get("ammo")
        if ammo is not None:
            field_name = "capacity" if kind == "magazine" else "ammo"
            ammo = count(ammo, f"systems[{i}] ({sid}).{field_name}")
        if kind == "weapon" and ammo is None and get_weapon(entry.get("weapon", "")).single_use:
            ammo = 1  # MPC, scattergun: fire once (§8, §10)
        extra = {
            k: v
            for k, v in entry.items()
            if k not in {"id", "kind", "weapon", "arcs", "magazine", "capacity", "ammo", "squads"}
        }
        systems[sid] = SystemState(
            id=sid,
            kind=kind,
            weapon=entry.get("weapon"),
            arcs=tuple(entry.get("arcs", ())),
            magazine=entry.get("magazine"),
            ammo=None if ammo is None else int(ammo),
            squads=int(entry.get("squads", 0)),
            data=extra,
        )

    def add(sid: str, kind: str) -> None:
        if sid not in systems:
            systems[sid] = SystemState(id=sid, kind=kind)

    kinds = {s.kind for s in systems.values()}
    thrust = count(design.get("thrust", 0), "thrust")
    if "fc" not in kinds:
        for n in range(1, count(design.get("fire_controls", 0), "fire_controls") + 1):
            add(f"fc-{n}", "fc")
    if "screen" not in kinds:
        for n in range(1, count(design.get("screens", 0), "screens") + 1):
            add(f"screen-{n}", "screen")
    if "drive" not in kinds and thrust > 0:
        add("drive", "drive")
    for cmd in design.get("command", COMMAND_SYSTEMS):
        if cmd not in COMMAND_SYSTEMS:
            raise DesignError(f"design {design.get('name')!r}: unknown command system {cmd!r}")
        add(cmd, cmd)
    for sid in systems_lost:
        if sid not in systems:
            raise DesignError(
                f"ship {ship_id}: systems_lost names {sid!r}, not a system of "
                f"{design.get('name')!r} ({', '.join(systems)})"
            )
        systems[sid].status = Status.DESTROYED

    carried = f"ship {ship_id}: carried damage"
    hull_lost = count(hull_lost, "hull_lost", carried)
    armour_lost = count(armour_lost, "armour_lost", carried)
    crew_lost = count(crew_lost, "crew_lost", carried)
    crew_max = crew_factors(mass)
    power = design.get("power") or {}
    if not isinstance(power, Mapping):
        raise DesignError(f"{label}: power must be a mapping, got {power!r}")
    power_points = count(power.get("power_points", 0), "power.power_points")
    biomass = count(power.get("biomass", 0), "power.biomass")
    ecm = count(design.get("ecm", 0), "ecm")
    ship = ShipState(
        ship_id=ship_id,
        name=name or design.get("name", ship_id),
        side=side,
        mass=mass,
        hull_design=tuple(rows),
        hull_rows=list(rows),
        armour_design=tuple(layers),
        armour=list(layers),
        crew_max=crew_max,
        crew_left=max(0, crew_max - int(crew_lost)),
        systems=systems,
        class_name=design.get("name", ""),
        faction=design.get("faction", ""),
        thrust_rating=thrust,
        sensors=design.get("sensors", "standard"),
        ecm=ecm,
        power_points=power_points,
        biomass=biomass,
        drive_type=str(design.get("drive") or "standard"),
    )
    ship.cross_off_hull(min(int(hull_lost), ship.hull_max))
    ship.cross_off_armour(min(int(armour_lost), ship.armour_max))
    if ship.hull_left == 0:
        ship.destroyed = True
    return ship
