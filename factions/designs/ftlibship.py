"""Reading ftLibShip / ftShipBuilder ship JSON into ``admiralty-design/1`` documents.

The ship JSON of the open-source Full Thrust tools ftLibShip and ftShipBuilder (schema "Full
Thrust Ship", https://www.abstractplay.com/schemas/fullthrust/ship/1-0-0.json). A file may hold
one ship, a list of ships, or a list of fleets ``{"name", "ships": [...]}``. Every system is
mapped through :data:`FTLIBSHIP_SYSTEMS` (one table); systems with no Incursion equivalent are
reported by name, per ship, as :class:`Unmapped` and skipped — never silently dropped.
Validation, saving and our own format stay in ``factions/designs/imports.py``, which calls
this module.
Pure functions: no database.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from factions.designs.schema import ARCS, FORMAT


class Unmapped(NamedTuple):
    """A system of a source ship that was skipped: ship name, system name, why."""

    ship: str
    system: str
    reason: str


# --- ftLibShip -> our systems: the one mapping table ----------------------------------------
#
# Key: the ftLibShip system name. Value: a function of the source entry giving our system
# (without id) or a reason string when there is no Incursion equivalent. Beams are numbered
# the other way round (D-24, rules §15b): Incursion class 1 = Fleet Book
# class 3, so FB class N -> beam-(4-N); FB class 4 has no Incursion equivalent.

Mapped = dict[str, Any] | str


def _arcs(entry: dict[str, Any]) -> list[str]:
    """ftLibShip ``leftArc`` + ``numArcs`` (clockwise) -> our arc list, in clockwise order."""
    if "arc" in entry:
        return [entry["arc"]]
    if "leftArc" not in entry:
        return list(ARCS)
    start = ARCS.index(entry["leftArc"])
    n = int(entry.get("numArcs", 1))
    return [ARCS[(start + i) % 6] for i in range(n)]


def _weapon(weapon: str, **extra: Any) -> Callable[[dict[str, Any]], Mapped]:
    return lambda e: {"kind": "weapon", "weapon": weapon, "arcs": _arcs(e), **extra}


# Fleet Book beam class -> Incursion weapon id with the same dice (D-24, §15b).
FLEET_BOOK_BEAMS = {1: "beam-3", 2: "beam-2", 3: "beam-1"}


def _beam(e: dict[str, Any]) -> Mapped:
    cls = int(e.get("class", 0))
    if cls not in FLEET_BOOK_BEAMS:
        return f"Fleet Book class-{cls} beam has no Incursion class (classes 1–3 only)"
    return {"kind": "weapon", "weapon": FLEET_BOOK_BEAMS[cls], "arcs": _arcs(e)}


def _kgun(e: dict[str, Any]) -> Mapped:
    variant = {"long": "hv-", "short": "lv-"}.get(e.get("modifier") or "", "")
    return {"kind": "weapon", "weapon": f"kgun-{variant}{int(e['class'])}", "arcs": _arcs(e)}


# Grasers are numbered like beams (factions.designs.construction): FB2 class N -> graser-(4-N).
FLEET_BOOK_GRASERS = {1: "graser-3", 2: "graser-2", 3: "graser-1"}


def _graser(e: dict[str, Any]) -> Mapped:
    cls = int(e.get("class", 0))
    if e.get("heavy") or e.get("highIntensity") or cls not in FLEET_BOOK_GRASERS:
        return "only standard graser classes 1–3 have a project profile"
    return {"kind": "weapon", "weapon": FLEET_BOOK_GRASERS[cls], "arcs": _arcs(e)}


def _pbl(e: dict[str, Any]) -> Mapped:
    return {"kind": "weapon", "weapon": "plasma-bolt", "arcs": _arcs(e), "class": int(e["class"])}


def _launcher(weapon: str) -> Callable[[dict[str, Any]], Mapped]:
    def mapped(e: dict[str, Any]) -> Mapped:
        if not e.get("magazine"):
            return f"launcher without a magazine; Incursion {weapon} needs one"
        if e.get("modifier"):
            return f"'{e['modifier']}' missiles have no Incursion profile"
        return {"kind": "weapon", "weapon": weapon, "arcs": _arcs(e), "magazine": e["magazine"]}

    return mapped


def _magazine(e: dict[str, Any]) -> Mapped:
    if e.get("modifier"):
        return f"'{e['modifier']}' missile magazine has no Incursion equivalent"
    return {"kind": "magazine", "capacity": int(e.get("capacity", 2))}


def _no(reason: str) -> Callable[[dict[str, Any]], Mapped]:
    return lambda e: reason


FTLIBSHIP_SYSTEMS: dict[str, Callable[[dict[str, Any]], Mapped]] = {
    # weapons
    "beam": _beam,
    "kgun": _kgun,
    "graser": _graser,
    "pulser": _weapon("pulser"),
    "pbl": _pbl,  # Phalon plasma bolt launcher, class kept (project reading of its profile)
    "mkp": _weapon("mpc"),  # multiple kinetic penetrator = Incursion MPC
    "scatterGun": _weapon("scattergun"),
    "pds": lambda e: {"kind": "pd"},
    "ads": lambda e: {"kind": "adaf"},
    # ordnance
    "salvoLauncher": _launcher("missile-salvo"),
    "missile": _launcher("missile-standard"),
    "salvo": _launcher("missile-salvo"),
    "rocketPod": _launcher("rocket-pack"),
    # threshold-checked systems (the design's fields are handled in _ship_fields)
    "adfc": lambda e: {"kind": "adaf"},
    "magazine": _magazine,
    "hangar": lambda e: {"kind": "bay"},
    "launchTube": lambda e: {"kind": "launch-tube"},
    "marines": lambda e: {"kind": "marines", "squads": 1},
    "shroud": lambda e: {"kind": "vapour-veil"},  # Phalon vapour shroud = vapour veil (§14)
    # known but without an Incursion equivalent
    "torpedoPulse": _no("pulse torpedoes need no magazine; Incursion plasma torpedoes do"),
    "submunition": _no("submunition packs have no Incursion profile"),
    "bay": _no("cargo/passenger/troop bays have no Incursion system"),
    "damageControl": _no("Incursion damage control uses crew factors, not a system"),
    "amt": _no("antimatter missiles have no Incursion profile"),
    "turret": _no("turrets are not modelled; the weapons in it keep their own arcs"),
    "gunboatRack": _no("gunboat racks are not mapped (Incursion gunboats use bays)"),
}

# Prefix of our system ids, by kind or weapon family ("beam-a", "mag-a", "tube-a").
_ID_PREFIX = {
    "magazine": "mag",
    "launch-tube": "tube",
    "vapour-veil": "veil",
}
_WEAPON_PREFIX = {
    "plasma-torpedo": "torp",
    "missile-salvo": "salvo",
    "missile-standard": "missile",
    "missile-heavy": "missile",
    "rocket-pack": "rocket",
    "scattergun": "scatter",
}

_FIGHTER_UNITS = {"standard": "fighter", "interceptor": "interceptor"}
_FIGHTER_MODS = {"heavy": "heavy-fighter", "longRange": "long-range-fighter"}


def _suffix(n: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa…"""
    letters = string.ascii_lowercase
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = letters[r] + out
    return out


def _prefix(system: dict[str, Any]) -> str:
    if system["kind"] == "weapon":
        w = system["weapon"]
        return _WEAPON_PREFIX.get(w) or w.split("-")[0]
    return _ID_PREFIX.get(system["kind"], system["kind"])


def hull_rows(boxes: int, rows: int = 4) -> list[int]:
    """Split ``boxes`` into ``rows`` rows as evenly as possible, larger rows first (D-6).

    Rows may be empty (2 boxes on 4 rows -> [1, 1, 0, 0]); the row count prices the hull.
    """
    base, extra = divmod(boxes, rows)
    return [base + (1 if i < extra else 0) for i in range(rows)]


def _fighter_unit(fighters: dict[str, Any]) -> str | None:
    """Our light-unit kind for an ftLibShip fighter group, or None when there is none."""
    ftype = fighters.get("type", "standard")
    mods = set(fighters.get("mods") or [])
    if not mods:
        return _FIGHTER_UNITS.get(ftype)
    if ftype == "standard" and len(mods) == 1:
        return _FIGHTER_MODS.get(next(iter(mods)))
    return None


def _ship_fields(ship: dict[str, Any], name: str, unmapped: list[Unmapped]) -> dict[str, Any]:
    """The design's scalar fields from ftLibShip's drive, FTL, FC, screens, sensors, ECM."""
    out: dict[str, Any] = {"thrust": 0, "ftl": False, "fire_controls": 0, "screens": 0}
    out["ecm"] = 0
    out["sensors"] = "standard"
    for entry in ship.get("systems") or []:
        kind = entry.get("name")
        if kind == "drive":
            out["thrust"] = int(entry.get("thrust", 0))
            if entry.get("advanced"):
                unmapped.append(Unmapped(name, "drive", "advanced drive imported as standard"))
        elif kind == "ftl":
            out["ftl"] = True
            if entry.get("advanced") or entry.get("transferMass"):
                unmapped.append(Unmapped(name, "ftl", "advanced/tug FTL imported as standard"))
        elif kind == "fireControl":
            out["fire_controls"] += 1
            if entry.get("advanced"):
                unmapped.append(Unmapped(name, "fireControl", "advanced FC imported as standard"))
        elif kind == "screen":
            if entry.get("area") or entry.get("advanced"):
                unmapped.append(
                    Unmapped(name, "screen", "area/advanced screens have no equivalent")
                )
            else:
                out["screens"] += int(entry.get("level", 1))
        elif kind == "sensors":
            if entry.get("advanced"):
                out["sensors"] = "advanced"
        elif kind == "ecm":
            if entry.get("area"):
                unmapped.append(Unmapped(name, "ecm", "area ECM has no Incursion equivalent"))
            else:
                out["ecm"] += 1
    return out


_FIELD_SYSTEMS = {"drive", "ftl", "fireControl", "screen", "sensors", "ecm"}


def _iter_source_systems(ship: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for section in ("weapons", "ordnance", "systems", "extras"):
        for entry in ship.get(section) or []:
            if isinstance(entry, dict) and entry.get("name") not in _FIELD_SYSTEMS:
                yield entry


def design_from_ftlibship(
    ship: dict[str, Any], *, faction: str, fleet: str = ""
) -> tuple[dict[str, Any], list[Unmapped]]:
    """Map one ftLibShip ship to an ``admiralty-design/1`` document.

    ``faction`` is the slug written in the design; ``fleet`` the source fleet's name (for the
    rationale). Returns the design (not yet validated) and the systems it could not map.
    Hull rows follow D-6 on the source's row count; armour layers are reversed (ftLibShip lists
    the innermost first, we list the outermost first, D-25). Source: schema
    ``perlkonig-ftLibShip-ship.schema.json``.
    """
    name = str(ship.get("name") or ship.get("class") or "unnamed")
    unmapped: list[Unmapped] = []
    fields = _ship_fields(ship, name, unmapped)
    hull = ship.get("hull") or {}
    boxes = int(hull.get("points", 0))
    layers = []
    for layer in reversed(ship.get("armour") or []):
        std, regen = (list(layer) + [0, 0])[:2]
        layers.append(int(std))
        if regen:
            unmapped.append(Unmapped(name, "armour", f"{regen} regenerative armour box(es)"))
    for key, default in (("stealth", "0"), ("streamlining", "none")):
        if str(hull.get(key, default)) != default:
            unmapped.append(Unmapped(name, f"hull.{key}", f"'{hull[key]}' has no equivalent"))
    if ship.get("orientation", "alpha") != "alpha":
        unmapped.append(Unmapped(name, "orientation", "beta orientation arcs read as alpha"))
    if ship.get("flawed"):
        unmapped.append(Unmapped(name, "flawed", "flawed designs have no equivalent"))

    systems: list[dict[str, Any]] = []
    by_source_id: dict[str, dict[str, Any]] = {}  # source system id -> our system
    counters: dict[str, int] = {}
    for entry in _iter_source_systems(ship):
        src = str(entry.get("name"))
        mapper = FTLIBSHIP_SYSTEMS.get(src)
        mapped: Mapped = mapper(entry) if mapper else "no Incursion equivalent"
        if isinstance(mapped, str):
            label = src + (f" class {entry['class']}" if "class" in entry else "")
            unmapped.append(Unmapped(name, label, mapped))
            continue
        prefix = _prefix(mapped)
        sid = f"{prefix}-{_suffix(counters.get(prefix, 0))}"
        counters[prefix] = counters.get(prefix, 0) + 1
        system = {"id": sid, **mapped}
        if entry.get("id"):
            by_source_id[str(entry["id"])] = system
        systems.append(system)

    # Launchers name their magazine by the source id: rewrite to ours, or skip the launcher.
    kept: list[dict[str, Any]] = []
    for system in systems:
        mag = system.get("magazine")
        if mag is not None:
            magazine = by_source_id.get(mag)
            if magazine is None or magazine["kind"] != "magazine":
                unmapped.append(
                    Unmapped(name, system["weapon"], f"its magazine '{mag}' was not imported")
                )
                continue
            system["magazine"] = magazine["id"]
        kept.append(system)
    systems = kept

    # Fighters sit in hangars (by source id): put each squadron in its bay.
    for fighters in ship.get("fighters") or []:
        unit = _fighter_unit(fighters)
        label = f"{fighters.get('type', 'standard')} fighters"
        bay = by_source_id.get(str(fighters.get("hangar")))
        if unit is None:
            mods = "+".join(fighters.get("mods") or [])
            unmapped.append(Unmapped(name, label, f"no Incursion unit for this type {mods}"))
        elif bay is None or bay["kind"] != "bay":
            unmapped.append(Unmapped(name, label, "not in a hangar of the ship"))
        else:
            size = int(fighters.get("number", 6))
            bay["squadron"] = {"name": label.capitalize(), "unit": unit, "size": size}
    for _squadron in ship.get("gunboatSquadrons") or []:
        unmapped.append(Unmapped(name, "gunboatSquadrons", "gunboat types are not mapped"))

    source = f"ftLibShip ({fleet})" if fleet else "ftLibShip"
    rationale = f"Imported from {source}"
    if ship.get("points") is not None:
        rationale += f"; published points {ship['points']}"
    design = {
        "format": FORMAT,
        "name": name,
        "faction": faction,
        "type_word": str(ship.get("class") or "").lower(),
        "mass": int(ship.get("mass", 0)),
        **fields,
        "hull": {"boxes": boxes, "rows": hull_rows(boxes, int(hull.get("rows", 4)))},
        "armour": {"layers": layers},
        "command": ["bridge", "life-support", "core"],
        "systems": systems,
        "provisional": bool(unmapped),
        "rationale": rationale,
    }
    return design, unmapped


def ftlibship_ships(data: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(fleet name, ship) for a ship, a list of ships, or a list of fleets."""
    if isinstance(data, dict) and "ships" in data:
        for ship in data["ships"]:
            yield str(data.get("name", "")), ship
    elif isinstance(data, dict):
        yield "", data
    elif isinstance(data, list):
        for item in data:
            yield from ftlibship_ships(item)


def is_ftlibship_ship(d: Any) -> bool:
    return isinstance(d, dict) and isinstance(d.get("hull"), dict) and "points" in d["hull"]
