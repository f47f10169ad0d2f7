"""Masses and points of ship designs: the Fleet Book design system (D-24).

The seed announces construction rules it does not contain (rules §15b).
D-24: designs are checked and priced with the published Full Thrust Fleet Book design system
(Fleet Book 1 and 2 figures only; the arithmetic follows the open-source ftLibShip tool, which
reproduces the books' published points):

- basic hull: 1 point per ship mass; hull boxes 1 mass each, 2 points each on 4 rows (3 on 3
  rows or fewer, 1.5 on 5 rows, 1 on 6+ rows);
- armour: 1 mass per box; counting layers from the innermost (k = 1, the last listed, since
  designs list the outermost first), layer *k* costs 2·k points per box (layered armour as
  ftLibShip prices the Fleet Book 2 Phalon shells, D-25);
- drive: ``round(5 % × mass × thrust)`` mass; FTL ``round(10 % × mass)``; 2 points per mass;
- fire control 1 mass / 4 points; PD 1 / 3; ADAF 2 / 8; screens ``max(3, round(5 % × mass))``
  per level, 3 points per mass; vapour veil ``round(5 % × mass)``, 3 points per mass;
- fighter bay 9 mass / 27 points; launch tube 3 / 9; marines 1 mass / 3 points per squad;
- weapons: one table, :data:`WEAPONS`, pricing each Incursion weapon by its dice profile;
  kinetic guns by :func:`kgun_mass`.

Checked against the 91 published ships of ftLibShip's preset fleets (FB1 human fleets, FB2
Kra'vak and Phalon; source ``Perlkonig/ftLibShip`` ``src/lib/systems/*.ts``): every ship whose
systems all have an Incursion equivalent adds up to its published mass and points
(``tests/factions/designs/test_fleetbook_points.py``).

"round" is half-up, as in the books (and JavaScript's ``Math.round``), not Python's ``round``.
Crew factors are derived, never stored: the engine's ``battles.rules.ships.crew_factors``
(``ceil(mass / 20)``, §4, D-5).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from factions.designs.schema import Design, SquadronSpec


class UnknownSystem(ValueError):
    """A weapon id, unit kind or gunboat variant that has no price."""


def round_half_up(numerator: int, denominator: int = 1) -> int:
    """``numerator / denominator`` rounded half up (2.5 -> 3), in exact integer arithmetic."""
    return (2 * numerator + denominator) // (2 * denominator)


# --- weapons ---------------------------------------------------------------------------------


def _stepped(*steps: tuple[int, int]) -> Callable[[int, int], int]:
    """Mass by arcs covered: steps of (up to n arcs, mass)."""

    def mass(arcs: int, _cls: int) -> int:
        for up_to, m in steps:
            if arcs <= up_to:
                return m
        return steps[-1][1]

    return mass


def _linear(base: int, per_arc: int) -> Callable[[int, int], int]:
    """``base`` mass for one arc, ``per_arc`` more for each further arc."""
    return lambda arcs, _cls: base + per_arc * (arcs - 1)


def _per_class(base: int, per_arc: int) -> Callable[[int, int], int]:
    """Class c: ``base·c`` mass for one arc, ``per_arc·c`` more per further arc."""
    return lambda arcs, cls: cls * (base + per_arc * (arcs - 1))


@dataclass(frozen=True)
class WeaponSpec:
    """How a weapon mount is priced.

    ``profile`` restates its Incursion dice (§8–10); ``fleet_book`` names the Fleet Book weapon
    with the same dice that sets its price; ``mass(arcs, cls)`` gives the mount's mass;
    ``points_per_mass`` the points; ``reading`` marks weapons whose profile or price is a
    project reading (the seed names them without figures).
    """

    weapon: str
    profile: str
    fleet_book: str
    mass: Callable[[int, int], int]
    points_per_mass: int = 3
    max_arcs: int = 6
    needs_magazine: bool = False
    classed: bool = False
    reading: bool = False


# One table: Incursion weapon -> Fleet Book price by dice profile. Incursion numbers beams
# (and, by the project reading, grasers) the other way round from the Fleet Books (D-24): its
# class 1 rolls a Fleet Book class-3's dice. Masses and points per mass are ftLibShip's
# (beam.ts, graser.ts, pulser.ts, pbl.ts, mkp.ts, scatterGun.ts...).
WEAPONS: dict[str, WeaponSpec] = {
    w.weapon: w
    for w in (
        WeaponSpec("beam-1", "0–12 3d6, 13–24 2d6, 25–36 1d6", "FB1 class-3 beam",
                   _linear(4, 1)),
        # FB1 class-2 beam: 1 mass as a two-arc broadside, 2 on three arcs, 3 all round
        # (ftLibShip beam.ts; checked on the 91 published ships, e.g. Minerva 18 mass / 61
        # points). Four or five arcs are bought as the all-round mount.
        WeaponSpec("beam-2", "0–12 2d6, 13–24 1d6", "FB1 class-2 beam",
                   _stepped((2, 1), (3, 2), (6, 3))),
        WeaponSpec("beam-3", "0–12 1d6", "FB1 class-1 beam", _stepped((6, 1))),
        WeaponSpec("lance", "0–9 1d6, 6 destroys a system", "FB1 needle beam", _linear(2, 1),
                   max_arcs=3, reading=True),
        WeaponSpec("needle-nodule", "power-bought dice to 72", "FB2 Sa'vasku needle nodule",
                   _stepped((6, 2)), reading=True),
        WeaponSpec("pulser", "short 6d6/12, medium 2d6/24, long 1d6/36", "FB2 Phalon pulser",
                   _stepped((1, 2), (3, 3), (6, 4)), points_per_mass=5),
        # Plasma bolt: engine reading = a plasma torpedo without magazine (to-hit bands, 1d6
        # semi-piercing); the class only sets the mount's mass (FB2 launcher classes).
        WeaponSpec("plasma-bolt", "plasma-torpedo to-hit bands, 1d6 semi-piercing, no magazine",
                   "FB2 Phalon plasma bolt launcher",
                   _per_class(3, 1), max_arcs=3, classed=True, reading=True),
        WeaponSpec("plasma-torpedo", "to-hit 3+…6 to 24 mu, 1d6 semi-piercing",
                   "FB1 pulse torpedo", _linear(4, 1), max_arcs=3, needs_magazine=True),
        WeaponSpec("rocket-pack", "0–6 3d6, 7–12 2d6, 13–18 1d6 semi-piercing",
                   "FB2 rocket pod", _stepped((3, 1)), max_arcs=3, needs_magazine=True,
                   reading=True),
        # FB2 MKP 1 mass / 4 points, scattergun 1 mass / 5 points (ftLibShip mkp.ts,
        # scatterGun.ts; checked on the published Kra'vak ships).
        WeaponSpec("mpc", "0–12 1d6, 4 damage per hit", "FB2 MKP", _stepped((1, 1)),
                   points_per_mass=4, max_arcs=1, reading=True),
        WeaponSpec("scattergun", "6 mu anti-light-unit burst", "FB2 scattergun",
                   _stepped((6, 1)), points_per_mass=5, reading=True),
        WeaponSpec("penetrator", "to-hit 3+…6 to 24, 1d6 piercing", "FB2 Sa'vasku launcher",
                   _stepped((6, 2)), reading=True),
        WeaponSpec("vampire", "to-hit 3+…6 to 24, 2 + 2/turn", "FB2 Sa'vasku launcher",
                   _stepped((6, 2)), reading=True),
        WeaponSpec("interceptor-nodule", "12 mu area vs light units", "FB1 ADFC",
                   _stepped((6, 2)), points_per_mass=4, reading=True),
        WeaponSpec("spicule", "PD, all arcs", "FB1 PDS", _stepped((6, 1))),
        WeaponSpec("missile-standard", "2d6 to 36", "FB1 missile rack", _stepped((6, 2)),
                   needs_magazine=True, reading=True),
        WeaponSpec("missile-heavy", "3d6 to 36", "FB1 heavy missile rack", _stepped((6, 3)),
                   needs_magazine=True, reading=True),
        WeaponSpec("missile-salvo", "6d6 salvo to 36", "FB1 salvo missile launcher",
                   _stepped((6, 3)), needs_magazine=True, reading=True),
        # Grasers (G+): named by the seed ("more effective than beams, the big classes
        # costly") without a profile. Project reading shared with the engine
        # (battles.rules.weapons): graser-c has the dice of beam-c and ignores screens. Like
        # beams, Incursion numbers them the other way round from the Fleet Books: graser-1
        # is the big FB2 class-3 graser, graser-3 the small class 1 (factions.designs.imports
        # maps FB
        # class N to graser-(4-N)). Masses are FB2's standard grasers (ftLibShip graser.ts):
        # class 1 1 mass on up to three arcs, 2 all round; class 2 4 / 6; class 3 8 mass on
        # one arc, +2 per further arc; 3 points per mass.
        WeaponSpec("graser-1", "beam-1 dice, screens ignored", "FB2 class-3 graser",
                   _linear(8, 2), reading=True),
        WeaponSpec("graser-2", "beam-2 dice, screens ignored", "FB2 class-2 graser",
                   _stepped((3, 4), (6, 6)), reading=True),
        WeaponSpec("graser-3", "beam-3 dice, screens ignored", "FB2 class-1 graser",
                   _stepped((3, 1), (6, 2)), reading=True),
    )
}  # fmt: skip

_KGUN = re.compile(r"^kgun(?:-(hv|lv))?-([1-6])$")
_KGUN_BAND = {"": 6, "hv": 9, "lv": 4}


def kgun_mass(cls: int, arcs: int, variant: str = "") -> int:
    """Mass of a class-``cls`` kinetic gun mount on ``arcs`` arcs (FB2 Kra'vak K-guns).

    Source: ftLibShip ``kgun.ts``, checked on the 16 published Kra'vak ships of the preset
    file: class 1 is 2 mass and always covers every arc; class 2 is 3 mass on one arc, +1
    for a second (two at most); class c ≥ 3 is ``5 + 3(c − 3)`` on one arc only. A
    high-velocity (FB2 long-range) gun doubles the mass; a low-velocity (short-range) one
    halves it, rounded up — class 1 low-velocity is 1.5 in the book, rounded half up to 2
    here since our masses are whole (project reading).
    """
    if cls == 1:
        base = 2
    elif cls == 2:
        base = 3 + (arcs - 1)
    else:
        base = 5 + 3 * (cls - 3)
    if variant == "hv":
        return 2 * base
    if variant == "lv":
        return 2 if cls == 1 else -(-base // 2)  # FB2 class 1: 1.5, rounded half up
    return base


def weapon_spec(weapon: str) -> WeaponSpec:
    """The pricing entry for an engine weapon id (``beam-2``, ``kgun-hv-3``…).

    Kinetic guns ``kgun[-hv|-lv]-<c>`` (c = 1…6) are priced by :func:`kgun_mass` at 4 points
    per mass (FB2); class 1 covers up to 6 arcs, class 2 up to 2, larger classes 1.
    Raises :class:`UnknownSystem`.
    """
    spec = WEAPONS.get(weapon)
    if spec is not None:
        return spec
    m = _KGUN.match(weapon)
    if m:
        variant, cls = m.group(1) or "", int(m.group(2))
        return WeaponSpec(
            weapon,
            f"class {cls} kinetic gun, {_KGUN_BAND[variant]}-mu bands",
            "FB2 Kra'vak K-gun",
            lambda arcs, _cls: kgun_mass(cls, arcs, variant),
            points_per_mass=4,
            max_arcs={1: 6, 2: 2}.get(cls, 1),
            reading=True,
        )
    raise UnknownSystem(_("unknown weapon '%(weapon)s'") % {"weapon": weapon})


def weapon_points(weapon: str, arcs: int, cls: int | None = None) -> int:
    """Points of one mount of ``weapon`` covering ``arcs`` arcs."""
    spec = weapon_spec(weapon)
    return spec.mass(arcs, cls or 1) * spec.points_per_mass


# --- light units -----------------------------------------------------------------------------

# Squadron of 6 (§9): points of the craft themselves (Fleet Book 1 fighter groups), and the bay
# mass needed to carry one. Norwegian gunboats: the seed prices a squadron "72 masses" (heavy
# transport) and "54 masses" (EMP launcher); project reading: that figure is the squadron's
# points, and a gunboat squadron needs a double bay (18 mass).
UNIT_POINTS: dict[str, int] = {
    "fighter": 18,
    "interceptor": 18,
    "heavy-fighter": 36,
    "long-range-fighter": 24,
    "drone": 12,
}
# Variants are the engine's ``gunboat-<variant>`` ids; only the seed's two have a price.
GUNBOAT_POINTS: dict[str, int] = {"heavy-transport": 72, "emp": 54}
# Spellings found in fleet lists and LightUnitGroup.unit_type ("EMP launcher").
_VARIANT_ALIASES: dict[str, str] = {"emp-launcher": "emp", "heavy-transports": "heavy-transport"}
FIGHTER_BAY_MASS = 9
GUNBOAT_BAY_MASS = 18


def squadron_points(unit: str, *, size: int = 6, variant: str | None = None) -> int:
    """Points of a light-unit squadron of ``size`` craft (pro rata of a squadron of 6).

    ``unit`` is a LightUnitGroup kind; gunboats need ``variant`` (``heavy-transport``,
    ``emp``; spellings such as "EMP launcher" or "heavy transport" are accepted); a
    battery's ``variant`` is its weapon id, priced on an all-arc mount.
    Raises :class:`UnknownSystem`.
    """
    if unit == "gunboat":
        variant = (variant or "").strip().lower().replace(" ", "-")
        variant = _VARIANT_ALIASES.get(variant, variant)
        if variant not in GUNBOAT_POINTS:
            raise UnknownSystem(_("unknown gunboat variant '%(variant)s'") % {"variant": variant})
        full = GUNBOAT_POINTS[variant]
    elif unit == "battery":
        if variant is None:
            raise UnknownSystem(_("a battery needs its weapon as variant"))
        return weapon_points(variant, weapon_spec(variant).max_arcs) * size
    elif unit in UNIT_POINTS:
        full = UNIT_POINTS[unit]
    else:
        raise UnknownSystem(_("unknown light-unit kind '%(kind)s'") % {"kind": unit})
    return round_half_up(full * size, 6)


def bay_mass(squadron: SquadronSpec | None) -> int:
    """Mass of a bay carrying ``squadron`` (fighter bay 9, gunboat bay 18)."""
    if squadron is None or squadron.unit in UNIT_POINTS:
        return FIGHTER_BAY_MASS
    if squadron.unit == "gunboat":
        squadron_points("gunboat", variant=squadron.variant)  # raises if unknown
        return GUNBOAT_BAY_MASS
    raise UnknownSystem(_("a bay cannot carry '%(unit)s'") % {"unit": squadron.unit})


# --- designs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One line of a design's bill: ``field`` in the document, mass and points."""

    field: str
    label: str
    mass: int
    points: int


def _hull_points_per_box(rows: int) -> tuple[int, int]:
    """(numerator, denominator) of the points per hull box for this many rows."""
    if rows <= 3:
        return 3, 1
    if rows == 4:
        return 2, 1
    if rows == 5:
        return 3, 2
    return 1, 1


def design_breakdown(design: Design) -> list[Line]:
    """The bill of a design: every mass-bearing item with its mass and points."""
    m = design.mass
    lines = [Line("mass", "basic hull", 0, m)]
    num, den = _hull_points_per_box(len(design.hull.rows))
    lines.append(Line("hull", "hull boxes", design.hull.boxes,
                      round_half_up(design.hull.boxes * num, den)))  # fmt: skip
    # Layers are listed outermost first; the innermost costs 2 points per box, each layer
    # further out 2 more (ftLibShip armour.ts prices its rows innermost first).
    layers = design.armour.layers
    for i, boxes in enumerate(layers):
        k = len(layers) - i
        lines.append(Line(f"armour.layers[{i}]", f"armour layer {i + 1}", boxes, boxes * 2 * k))
    drive = round_half_up(m * design.thrust, 20)
    lines.append(Line("thrust", f"drive {design.thrust}", drive, drive * 2))
    if design.ftl:
        ftl = round_half_up(m, 10)
        lines.append(Line("ftl", "FTL drive", ftl, ftl * 2))
    if design.fire_controls:
        n = design.fire_controls
        lines.append(Line("fire_controls", f"fire control ×{n}", n, 4 * n))
    if design.screens:
        screens = max(3, round_half_up(m, 20)) * design.screens
        lines.append(Line("screens", f"screens level {design.screens}", screens, screens * 3))
    if design.sensors == "advanced":
        lines.append(Line("sensors", "advanced sensors", 2, 6))
    if design.ecm:
        lines.append(Line("ecm", f"ECM level {design.ecm}", 2 * design.ecm, 6 * design.ecm))
    for i, s in enumerate(design.systems):
        where = f"systems[{i}]"
        if s.kind == "weapon":
            spec = weapon_spec(s.weapon)
            mass = spec.mass(len(s.arcs), s.weapon_class or 1)
            label = s.weapon + (f" class {s.weapon_class}" if s.weapon_class else "")
            lines.append(Line(where, label, mass, mass * spec.points_per_mass))
        elif s.kind == "magazine":
            lines.append(Line(where, f"magazine ×{s.capacity}", 2 * s.capacity, 6 * s.capacity))
        elif s.kind == "pd":
            lines.append(Line(where, "PD", 1, 3))
        elif s.kind == "adaf":
            lines.append(Line(where, "ADAF", 2, 8))
        elif s.kind == "bay":
            mass = bay_mass(s.squadron)
            lines.append(Line(where, "bay", mass, mass * 3))
        elif s.kind == "launch-tube":
            lines.append(Line(where, "launch tube", 3, 9))
        elif s.kind == "marines":
            lines.append(Line(where, f"marines ×{s.squads}", s.squads, 3 * s.squads))
        elif s.kind == "vapour-veil":
            veil = round_half_up(m, 20)
            lines.append(Line(where, "vapour veil", veil, veil * 3))
    return lines
