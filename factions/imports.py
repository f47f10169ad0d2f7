"""Ship designs in and out: ftLibShip / ftShipBuilder JSON and the project's own format.

- ``ftlibship``: the ship JSON of the open-source Full Thrust tools ftLibShip and
  ftShipBuilder (schema "Full Thrust Ship", https://www.abstractplay.com/schemas/fullthrust/
  ship/1-0-0.json). A file may hold one ship, a list of ships, or a list of fleets
  ``{"name", "ships": [...]}``. Each ship becomes an ``admiralty-design/1`` document; every
  system is mapped through :data:`FTLIBSHIP_SYSTEMS` (one table). Systems with no Incursion
  equivalent are reported by name, per ship, in ``ImportResult.unmapped`` and skipped —
  never silently dropped.
- ``admiralty``: our own design documents (``factions/designs.py``): one design, a list of
  designs, or a catalogue ``{"faction": {...}, "classes": [...]}``. :func:`export_design` is
  its exact inverse.

Parsing (:func:`designs_parse`) touches no database; :func:`designs_save` writes the ship
classes of a result in one transaction.
"""

from __future__ import annotations

import copy
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaign.limits import DESIGN_FILE_MAX_DESIGNS
from factions import construction
from factions.designs import ARCS, FORMAT, design_system_ids, design_validate
from factions.models import Faction, ShipClass

FORMATS = ("auto", "ftlibship", "admiralty")


class ImportFormatError(ValueError):
    """The file is not in a format we read (or not in the one asked for)."""


class Unmapped(NamedTuple):
    """A system of a source ship that was skipped: ship name, system name, why."""

    ship: str
    system: str
    reason: str


class Invalid(NamedTuple):
    """A validation error of an imported design: ship name, field path, message."""

    ship: str
    field: str
    message: str


class Kept(NamedTuple):
    """A design not written because it would change a class that has ships (no replace)."""

    ship: str
    ships: int

    def __str__(self) -> str:
        return f"{self.ship} has {self.ships} ship{'s' * (self.ships != 1)}"


class DesignReplaceError(ValueError):
    """A replacement design lacks a system id that an existing ship has lost."""


@dataclass
class ImportResult:
    """What a parse produced.

    ``designs``: ``admiralty-design/1`` documents, in file order. ``unmapped``: systems
    skipped, per ship. ``invalid``: validation errors of the produced designs (field paths as
    :func:`factions.designs.design_validate` gives them). ``format``: the format read.
    ``kept``: filled by :func:`designs_save`, the designs it skipped to keep classes in use.
    """

    designs: list[dict[str, Any]] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)
    invalid: list[Invalid] = field(default_factory=list)
    format: str = ""
    kept: list[Kept] = field(default_factory=list)

    def errors_for(self, name: str) -> list[Invalid]:
        """Validation errors of the design called ``name``."""
        return [e for e in self.invalid if e.ship == name]


# --- ftLibShip -> our systems: the one mapping table ----------------------------------------
#
# Key: the ftLibShip system name. Value: a function of the source entry giving our system
# (without id) or a reason string when there is no Incursion equivalent. Beams are numbered
# the other way round (D-24, rules/ft-incursion.md §15b): Incursion class 1 = Fleet Book
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


# Grasers are numbered like beams (factions.construction): FB2 class N -> graser-(4-N).
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


def _ftlibship_ships(data: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """(fleet name, ship) for a ship, a list of ships, or a list of fleets."""
    if isinstance(data, dict) and "ships" in data:
        for ship in data["ships"]:
            yield str(data.get("name", "")), ship
    elif isinstance(data, dict):
        yield "", data
    elif isinstance(data, list):
        for item in data:
            yield from _ftlibship_ships(item)


def _is_ftlibship_ship(d: Any) -> bool:
    return isinstance(d, dict) and isinstance(d.get("hull"), dict) and "points" in d["hull"]


def detect_format(data: Any) -> str:
    """``ftlibship`` or ``admiralty`` for a parsed JSON document; raises ImportFormatError."""
    first: Any = data
    while isinstance(first, list) and first:
        first = first[0]
    if isinstance(first, dict) and isinstance(first.get("ships"), list) and first["ships"]:
        first = first["ships"][0]
    if isinstance(first, dict) and isinstance(first.get("classes"), list):
        return "admiralty"
    if isinstance(first, dict) and first.get("format") == FORMAT:
        return "admiralty"
    if _is_ftlibship_ship(first):
        return "ftlibship"
    raise ImportFormatError(
        _(
            "not a design file: expected ftLibShip ships (hull.points) or admiralty designs "
            "(format '%(format)s' or a catalogue with 'classes')"
        )
        % {"format": FORMAT}
    )


def _normalise(design: dict[str, Any], name: str, result: ImportResult, *, lenient: bool) -> None:
    """Validate ``design`` and add it to ``result``.

    Errors land in ``result.invalid``. A design whose shape does not parse is never kept;
    one that parses but fails a rule check (mass, magazine…) is kept only when ``lenient``,
    marked provisional, without points, its rationale saying which fields failed.
    A valid design without points gets its computed points (Fleet Book system, D-24).
    """
    parsed, errors = design_validate(design)
    for e in errors:
        result.invalid.append(Invalid(name, e.field, e.message))
    if parsed is None or (errors and not lenient):
        return
    doc = parsed.to_document()
    if errors:
        failed = ", ".join(sorted({e.field for e in errors}))
        doc["provisional"] = True
        doc.pop("points", None)
        doc["rationale"] = f"{doc.get('rationale', '')}; does not validate: {failed}"[-400:]
    elif doc.get("points") is None:
        doc["points"] = construction.design_points(parsed)
    result.designs.append(doc)


def _check_design_count(count: int) -> None:
    """Raise :class:`ImportFormatError` beyond ``campaign.limits.DESIGN_FILE_MAX_DESIGNS``."""
    if count > DESIGN_FILE_MAX_DESIGNS:
        raise ImportFormatError(
            _("the file holds %(count)s designs; the limit is %(max)s a file")
            % {"count": count, "max": DESIGN_FILE_MAX_DESIGNS}
        )


def designs_parse(data: Any, *, faction: str, format: str = "auto") -> ImportResult:
    """Turn a parsed JSON document into designs for the faction with slug ``faction``.

    ``format``: ``auto`` (detect), ``ftlibship`` or ``admiralty``. Every design is validated
    (``factions.designs.design_validate``); errors land in ``result.invalid`` with their field,
    systems that could not be mapped in ``result.unmapped``. Our own format is strict: an
    invalid design is not kept. ftLibShip ships are kept when their shape parses even if a
    rule check fails (a Fleet Book ship may not add up once its unmapped systems are gone):
    they are marked provisional, without points; a ship with values of the wrong type (a text
    mass, a system that is not an object) is not kept and is listed in ``result.invalid``
    with field ``ship``. No database access.
    Raises :class:`ImportFormatError` for an unknown or mismatched format, or a file of more
    than ``campaign.limits.DESIGN_FILE_MAX_DESIGNS`` designs.
    """
    if format not in FORMATS:
        raise ImportFormatError(
            _("unknown format '%(format)s' (expected one of %(formats)s)")
            % {"format": format, "formats": FORMATS}
        )
    found = detect_format(data)
    if format != "auto" and format != found:
        raise ImportFormatError(
            _("the file is in %(found)s format, not %(format)s")
            % {"found": found, "format": format}
        )
    result = ImportResult(format=found)
    if found == "ftlibship":
        ships = list(_ftlibship_ships(data))
        _check_design_count(len(ships))
        for i, (fleet, ship) in enumerate(ships):
            if not isinstance(ship, dict):
                result.invalid.append(Invalid(f"#{i + 1}", "ship", "a ship must be an object"))
                continue
            try:
                design, unmapped = design_from_ftlibship(ship, faction=faction, fleet=fleet)
            except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
                # A value of the wrong type somewhere in the ship (a text mass, a system that
                # is not an object): report that ship, keep reading the others.
                name = str(ship.get("name") or ship.get("class") or f"#{i + 1}")
                reason = f"unreadable ftLibShip ship ({type(exc).__name__}: {exc})"
                result.invalid.append(Invalid(name, "ship", reason))
                continue
            result.unmapped.extend(unmapped)
            _normalise(design, design["name"], result, lenient=True)
        return result
    docs: list[Any]
    if isinstance(data, dict) and "classes" in data:
        docs = list(data["classes"])
        if data.get("light_units"):
            n = len(data["light_units"])
            reason = "free squadrons and batteries are not ship designs (catalogue loader)"
            result.unmapped.append(Unmapped("(catalogue)", f"light_units ({n})", reason))
    elif isinstance(data, list):
        docs = list(data)
    else:
        docs = [data]
    _check_design_count(len(docs))
    for i, doc in enumerate(docs):
        if not isinstance(doc, dict):
            result.invalid.append(Invalid(f"#{i + 1}", "design", "a design must be an object"))
            continue
        doc = copy.deepcopy(doc)
        doc["faction"] = faction  # designs are imported into the faction asked for
        name = str(doc.get("name") or f"#{i + 1}")
        _normalise(doc, name, result, lenient=False)
    return result


# --- the database side ------------------------------------------------------------------------


def _class_fields(design: dict[str, Any]) -> dict[str, Any]:
    """ShipClass summary columns from a design document."""
    return {
        "name": design["name"],
        "type_word": design.get("type_word", ""),
        "mass": design["mass"],
        "hull_boxes": design["hull"]["boxes"],
        "armour": sum((design.get("armour") or {}).get("layers") or []),
        "thrust": design.get("thrust", 0),
        "provisional": design.get("provisional", True),
        "points": design.get("points"),
        "design": design,
    }


def _system_ids(design: dict[str, Any]) -> set[str]:
    """Ids a ship's ``systems_lost`` may name (``design_system_ids``: listed systems plus
    ``fc-N``, ``screen-N``, ``drive`` and command systems). Raises
    :class:`DesignReplaceError` when the engine cannot build the design at all."""
    try:
        return set(design_system_ids(design))
    except ValueError as exc:
        raise DesignReplaceError(f"{design.get('name')}: {exc}") from exc


def designs_save(
    *,
    faction: Faction,
    result: ImportResult,
    allow_invalid: bool | None = None,
    replace: bool = False,
) -> list[ShipClass]:
    """Create or update one ShipClass per design of ``result`` for ``faction``, matched by
    ``slugify(name)``; all in one transaction. Returns the classes written, in file order.

    A class that has ships is never changed unless ``replace``: its design is skipped and
    listed in ``result.kept`` (an identical design is not a change and is written). With
    ``replace``, every existing ship's ``systems_lost`` must name systems of the new design.

    ``allow_invalid`` None follows the format: ftLibShip ships are all written (those that do
    not validate stay provisional), our own designs only when every one validates.

    Raises ``ValueError`` (nothing is written) when two designs share a slug, or, unless
    ``allow_invalid``, when ``result.invalid`` is not empty (naming the first error);
    :class:`DesignReplaceError` (a ``ValueError``, nothing written) naming the ship and the
    system id when a replacement drops a system an existing ship has lost.
    """
    if allow_invalid is None:
        allow_invalid = result.format == "ftlibship"
    if result.invalid and not allow_invalid:
        first = result.invalid[0]
        raise ValueError(
            _("%(n)s validation error(s), first: %(ship)s: %(field)s: %(message)s")
            % {
                "n": len(result.invalid),
                "ship": first.ship,
                "field": first.field,
                "message": first.message,
            }
        )
    slugs = [slugify(d["name"]) for d in result.designs]
    for slug in slugs:
        if not slug or slugs.count(slug) > 1:
            raise ValueError(
                _("design names must give distinct slugs ('%(slug)s')") % {"slug": slug}
            )
    saved = []
    result.kept = []
    with transaction.atomic():
        existing = {
            sc.slug: sc
            for sc in ShipClass.objects.filter(faction=faction, slug__in=slugs)
            .select_for_update()
            .prefetch_related("ships")
        }
        for slug, design in zip(slugs, result.designs, strict=True):
            current = existing.get(slug)
            ships = list(current.ships.all()) if current is not None else []
            if ships and current is not None and current.design != design:
                if not replace:
                    result.kept.append(Kept(current.name, len(ships)))
                    continue
                ids = _system_ids(design) if any(s.systems_lost for s in ships) else set()
                for ship in ships:
                    for lost in ship.systems_lost or []:
                        if lost not in ids:
                            raise DesignReplaceError(
                                _(
                                    "%(design)s: ship %(ship)s (#%(id)s) has lost system "
                                    "'%(system)s', which the new design does not have"
                                )
                                % {
                                    "design": design["name"],
                                    "ship": ship,
                                    "id": ship.pk,
                                    "system": lost,
                                }
                            )
            sc, _created = ShipClass.objects.update_or_create(
                faction=faction, slug=slug, defaults=_class_fields(design)
            )
            saved.append(sc)
    return saved


def export_design(ship_class: ShipClass) -> dict[str, Any]:
    """The class's design document in our format (``admiralty-design/1``).

    Exact inverse of the ``admiralty`` import: importing the result into the same faction
    gives back this document and the same ShipClass columns.
    """
    design = copy.deepcopy(ship_class.design)
    design["faction"] = ship_class.faction.slug
    return design


def export_catalogue(faction: Faction) -> dict[str, Any]:
    """Every class of ``faction`` as a catalogue file ``{"faction": …, "classes": [...]}``."""
    return {
        "faction": {"slug": faction.slug, "name": faction.name},
        "classes": [export_design(sc) for sc in faction.ship_classes.order_by("mass", "name")],
    }


__all__ = [
    "FLEET_BOOK_BEAMS",
    "FLEET_BOOK_GRASERS",
    "FTLIBSHIP_SYSTEMS",
    "DesignReplaceError",
    "ImportFormatError",
    "ImportResult",
    "Invalid",
    "Kept",
    "Unmapped",
    "design_from_ftlibship",
    "designs_parse",
    "designs_save",
    "detect_format",
    "export_catalogue",
    "export_design",
    "hull_rows",
]
