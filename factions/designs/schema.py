"""The ship design document (``ShipClass.design``): schema and validation.

A design is one JSON object per ship class, format ``admiralty-design/1`` (the agreed shape is
in the issue 3 brief; extend, don't rename). The pydantic models below check its shape; then
:func:`design_validate` checks that it is buildable: hull rows add up, system ids are unique,
weapons are known and their mounts cover arcs they can cover, launchers have a magazine, and the
systems add up to the ship's mass (Fleet Book design system, ``rules/ft-incursion.md §15b``,
D-24; masses in :mod:`factions.designs.construction`).

Every error names its field as a path into the document, e.g. ``systems[3].magazine``.
Units: mass in mass points, hull and armour in boxes, thrust in thrust points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from django.utils.translation import gettext as _
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from battles.rules.ships import ShipState

FORMAT: Final = "admiralty-design/1"

# The six 60° arcs, clockwise from the bow (rules/ft-incursion.md §6).
ARCS: tuple[str, ...] = ("F", "FS", "AS", "A", "AP", "FP")
Arc = Literal["F", "FS", "AS", "A", "AP", "FP"]
CommandSystem = Literal["bridge", "life-support", "core"]
COMMAND_SYSTEMS: tuple[CommandSystem, ...] = ("bridge", "life-support", "core")
# Light-unit kinds, as factions.models.LightUnitGroup.Kind (§9).
UnitKind = Literal[
    "fighter",
    "interceptor",
    "heavy-fighter",
    "long-range-fighter",
    "drone",
    "gunboat",
    "battery",
]
SYSTEM_KINDS: tuple[str, ...] = (
    "weapon",
    "magazine",
    "pd",
    "adaf",
    "bay",
    "launch-tube",
    "marines",
    "vapour-veil",
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Hull(_Strict):
    """Hull boxes and their rows, first row first (D-6 when a source gives only a count)."""

    boxes: int = Field(ge=1, le=500)
    rows: list[Annotated[int, Field(ge=0)]] = Field(min_length=1, max_length=8)

    @model_validator(mode="after")
    def _rows_add_up(self) -> Hull:
        if sum(self.rows) != self.boxes:
            raise ValueError(f"rows add up to {sum(self.rows)} boxes, the hull has {self.boxes}")
        return self


class Armour(_Strict):
    """Armour boxes per layer, outermost first (D-25, Phalon shells)."""

    layers: list[Annotated[int, Field(ge=0, le=200)]] = Field(default_factory=list, max_length=6)

    @property
    def boxes(self) -> int:
        """Total armour boxes over every layer."""
        return sum(self.layers)


class Power(_Strict):
    """Sa'vasku power points and biomass (§14)."""

    power_points: int = Field(default=0, ge=0)
    biomass: int = Field(default=0, ge=0)


class SquadronSpec(_Strict):
    """A light-unit squadron carried in a bay (or listed in a catalogue's ``light_units``).

    ``variant`` names a gunboat type (``heavy-transport``, ``emp`` — the Norwegian gunboats
    of the seed; the engine's id is ``gunboat-<variant>``) or a battery's weapon id;
    ``size`` is the number of craft (6, §9).
    """

    name: str = Field(min_length=1, max_length=120)
    unit: UnitKind
    variant: str | None = None
    size: int = Field(default=6, ge=1, le=6)


class LightUnit(SquadronSpec):
    """A squadron or battery listed in a catalogue's ``light_units`` (not carried in a bay):
    station fighters, colony batteries, gunboats based at a station. ``points`` as documented
    (checked against :func:`factions.designs.construction.squadron_points` by the tests)."""

    points: int = Field(ge=0)
    based_at: str | None = Field(default=None, max_length=200)
    tech_cost: int = Field(default=0, ge=0)
    rationale: str = Field(default="", max_length=400)


class _SystemBase(_Strict):
    id: str = Field(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9-]*$")


class WeaponSystem(_SystemBase):
    """A heavy weapon mount. ``weapon`` is an engine weapon id (DESIGN.md §3); ``class`` is the
    plasma-bolt class (1–6), ``magazine`` the id of the magazine feeding a launcher."""

    kind: Literal["weapon"]
    weapon: str = Field(min_length=1, max_length=40)
    arcs: list[Arc] = Field(min_length=1, max_length=6)
    magazine: str | None = None
    weapon_class: int | None = Field(default=None, alias="class", ge=1, le=6)


class MagazineSystem(_SystemBase):
    """A magazine: ``capacity`` loads (torpedoes, rocket packs, missiles)."""

    kind: Literal["magazine"]
    capacity: int = Field(ge=1, le=24)


class PdSystem(_SystemBase):
    kind: Literal["pd"]


class AdafSystem(_SystemBase):
    kind: Literal["adaf"]


class BaySystem(_SystemBase):
    """A hangar bay; ``squadron`` is the squadron it carries (None when empty)."""

    kind: Literal["bay"]
    squadron: SquadronSpec | None = None


class LaunchTubeSystem(_SystemBase):
    kind: Literal["launch-tube"]


class MarinesSystem(_SystemBase):
    kind: Literal["marines"]
    squads: int = Field(ge=1, le=12)


class VapourVeilSystem(_SystemBase):
    """Phalon vapour veil (shroud): screen level 2 that blinds the ship's own FCs (§14)."""

    kind: Literal["vapour-veil"]


System = Annotated[
    WeaponSystem
    | MagazineSystem
    | PdSystem
    | AdafSystem
    | BaySystem
    | LaunchTubeSystem
    | MarinesSystem
    | VapourVeilSystem,
    Field(discriminator="kind"),
]


def _all_command_systems() -> list[CommandSystem]:
    return list(COMMAND_SYSTEMS)


class Design(_Strict):
    """One ship class design (``ShipClass.design``), format ``admiralty-design/1``."""

    format: Literal["admiralty-design/1"] = FORMAT
    name: str = Field(min_length=1, max_length=120)
    faction: str = Field(min_length=1, max_length=120)
    type_word: str = Field(default="", max_length=60)
    mass: int = Field(ge=1, le=1000)
    thrust: int = Field(ge=0, le=12)
    ftl: bool = True
    hull: Hull
    armour: Armour = Field(default_factory=Armour)
    screens: int = Field(default=0, ge=0, le=3)
    fire_controls: int = Field(default=0, ge=0, le=12)
    sensors: Literal["standard", "advanced"] = "standard"
    ecm: int = Field(default=0, ge=0, le=3)
    command: list[CommandSystem] = Field(default_factory=_all_command_systems)
    systems: list[System] = Field(default_factory=list)
    power: Power = Field(default_factory=Power)
    tech_cost: int = Field(default=0, ge=0)
    provisional: bool = True
    rationale: str = Field(default="", max_length=400)
    readings: list[str] = Field(
        default_factory=list,
        description="project readings this design relies on (e.g. a graser profile)",
    )
    points: int | None = Field(default=None, ge=0)

    @property
    def crew_factors(self) -> int:
        """Crew factors, ``ceil(mass / 20)`` (rules/ft-incursion.md §4, D-5)."""
        return -(-self.mass // 20)

    def system(self, system_id: str) -> Any:
        """The system with this id, or None."""
        return next((s for s in self.systems if s.id == system_id), None)

    def to_document(self) -> dict[str, Any]:
        """The JSON document (aliases, no unset optional fields beyond the defaults)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


@dataclass(frozen=True)
class DesignError:
    """One problem in a design: ``field`` is a path such as ``systems[3].magazine``."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class DesignInvalid(ValueError):
    """Raised by :func:`design_parse`; ``errors`` lists every problem found."""

    def __init__(self, errors: list[DesignError]):
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors))


def _path(loc: tuple[Any, ...]) -> str:
    """Pydantic location -> ``systems[3].magazine`` (the union tag is dropped)."""
    out = ""
    prev: Any = None
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(prev, int) and part in SYSTEM_KINDS:
            pass  # discriminated-union tag
        else:
            out += f".{part}" if out else str(part)
        prev = part
    return out or "design"


def _shape_errors(exc: ValidationError) -> list[DesignError]:
    errors = []
    for err in exc.errors():
        msg = err["msg"].removeprefix("Value error, ")
        errors.append(DesignError(_path(tuple(err["loc"])), msg))
    return errors


def _arcs_contiguous(arcs: list[str]) -> bool:
    """True if the arcs form one unbroken sweep around the ship."""
    if len(arcs) >= 6:
        return True
    idx = {ARCS.index(a) for a in arcs}
    # A contiguous sweep has exactly one arc whose clockwise neighbour is missing.
    return sum(1 for i in idx if (i + 1) % 6 not in idx) == 1


def _rule_errors(design: Design) -> list[DesignError]:
    """Checks beyond the shape: ids, weapons, arcs, magazines, bays, mass."""
    from factions.designs import construction

    errors: list[DesignError] = []
    ids: dict[str, int] = {}
    for i, s in enumerate(design.systems):
        if s.id in ids:
            errors.append(
                DesignError(
                    f"systems[{i}].id",
                    _("duplicate id '%(id)s' (see systems[%(first)s])")
                    % {"id": s.id, "first": ids[s.id]},
                )
            )
        else:
            ids[s.id] = i
    if len(set(design.command)) != len(design.command):
        errors.append(DesignError("command", _("a command system is listed twice")))

    has_weapon = False
    has_bay = any(s.kind == "bay" for s in design.systems)
    for i, s in enumerate(design.systems):
        where = f"systems[{i}]"
        if s.kind == "launch-tube" and not has_bay:
            errors.append(DesignError(where, _("a launch tube needs a bay to launch from")))
        if s.kind == "bay" and s.squadron is not None:
            try:
                construction.bay_mass(s.squadron)
            except construction.UnknownSystem as exc:
                errors.append(DesignError(f"{where}.squadron", str(exc)))
        if s.kind != "weapon":
            continue
        has_weapon = True
        try:
            spec = construction.weapon_spec(s.weapon)
        except construction.UnknownSystem as exc:
            errors.append(DesignError(f"{where}.weapon", str(exc)))
            continue
        if len(set(s.arcs)) != len(s.arcs):
            errors.append(DesignError(f"{where}.arcs", _("an arc is listed twice")))
        elif len(s.arcs) > spec.max_arcs:
            errors.append(
                DesignError(
                    f"{where}.arcs",
                    _("a %(weapon)s mount covers at most %(max)s arc(s), this one lists %(n)s")
                    % {"weapon": s.weapon, "max": spec.max_arcs, "n": len(s.arcs)},
                )
            )
        elif not _arcs_contiguous(list(s.arcs)):
            errors.append(
                DesignError(
                    f"{where}.arcs",
                    _("arcs %(arcs)s are not one contiguous sweep") % {"arcs": s.arcs},
                )
            )
        if spec.classed and s.weapon_class is None:
            errors.append(
                DesignError(
                    f"{where}.class", _("%(weapon)s needs a class (1–6)") % {"weapon": s.weapon}
                )
            )
        if not spec.classed and s.weapon_class is not None:
            errors.append(
                DesignError(f"{where}.class", _("%(weapon)s takes no class") % {"weapon": s.weapon})
            )
        if spec.needs_magazine:
            if s.magazine is None:
                errors.append(
                    DesignError(
                        f"{where}.magazine",
                        _("%(weapon)s is a launcher: it needs a magazine") % {"weapon": s.weapon},
                    )
                )
            else:
                target = ids.get(s.magazine)
                if target is None:
                    errors.append(
                        DesignError(
                            f"{where}.magazine",
                            _("no system with id '%(id)s'") % {"id": s.magazine},
                        )
                    )
                elif design.systems[target].kind != "magazine":
                    errors.append(
                        DesignError(
                            f"{where}.magazine",
                            _("'%(id)s' is a %(kind)s, not a magazine")
                            % {"id": s.magazine, "kind": design.systems[target].kind},
                        )
                    )
        elif s.magazine is not None:
            errors.append(
                DesignError(
                    f"{where}.magazine", _("%(weapon)s takes no magazine") % {"weapon": s.weapon}
                )
            )
    fed: dict[str, tuple[int, str]] = {}
    for i, s in enumerate(design.systems):
        if s.kind != "weapon" or s.magazine is None:
            continue
        first = fed.setdefault(s.magazine, (i, s.weapon))
        if first[1] != s.weapon:
            errors.append(
                DesignError(
                    f"systems[{i}].magazine",
                    _(
                        "'%(id)s' already feeds %(weapon)s (systems[%(first)s]); a magazine "
                        "holds one kind of load"
                    )
                    % {"id": s.magazine, "weapon": first[1], "first": first[0]},
                )
            )
    if has_weapon and design.fire_controls == 0:
        errors.append(
            DesignError(
                "fire_controls", _("a ship with heavy weapons needs at least one fire control")
            )
        )
    if errors:
        return errors  # masses are meaningless until the systems are known

    total = construction.design_mass(design)
    if total != design.mass:
        lines = ", ".join(
            f"{line.label} {line.mass}" for line in construction.design_breakdown(design)
        )
        errors.append(
            DesignError(
                "mass",
                _("systems add up to %(total)s mass, the design declares %(mass)s (%(lines)s)")
                % {"total": total, "mass": design.mass, "lines": lines},
            )
        )
    return errors


def design_validate(data: Any) -> tuple[Design | None, list[DesignError]]:
    """Check a design document; returns ``(design, [])`` or ``(design_or_None, errors)``.

    ``data`` is the JSON object (dict). Every error found is returned, each naming its field
    (``hull``, ``systems[3].magazine``, ``mass``…). The design is None when its shape is wrong.
    """
    if not isinstance(data, dict):
        return None, [DesignError("design", _("a design must be a JSON object"))]
    try:
        design = Design.model_validate(data)
    except ValidationError as exc:
        return None, _shape_errors(exc)
    return design, _rule_errors(design)


def design_parse(data: Any) -> Design:
    """Parse and validate a design document.

    Raises :class:`DesignInvalid` (a ``ValueError``) carrying every error.
    """
    design, errors = design_validate(data)
    if errors or design is None:
        raise DesignInvalid(errors)
    return design


def design_system_ids(design: Mapping[str, Any]) -> list[str]:
    """Every system id a ship of ``design`` has, in the engine's order: the ids listed in
    ``design["systems"]``, then the synthesised ``fc-N`` and ``screen-N`` (one per fire
    control and screen), ``drive`` (thrust above 0) and the command systems of
    ``design["command"]`` (default all three: ``bridge``, ``life-support``, ``core``).

    These are the ids ``Ship.systems_lost`` and battle results may name, and what threshold
    checks can destroy (rules/ft-incursion.md §4, §11). Built by the engine itself
    (``battles.rules.ships.ShipState.from_design``) so the two never disagree; raises its
    ``DesignError`` (a ``ValueError``) naming the field when the design cannot be built.
    """
    return list(ShipState.from_design(design, ship_id="design", side="design").systems)
