"""The ship design document (``ShipClass.design``): schema and validation.

A design is one JSON object per ship class, format ``admiralty-design/1`` (the agreed shape:
extend it, don't rename). The pydantic models below check its shape; then
:func:`design_validate` checks that it is buildable: hull rows add up, system ids are unique,
weapons are known and their mounts cover arcs they can cover, launchers have a magazine, and the
systems add up to the ship's mass (Fleet Book design system, rules §15b,
D-24; masses in :mod:`factions.designs.construction`).

Every error names its field as a path into the document, e.g. ``systems[3].magazine``.
Units: mass in mass points, hull and armour in boxes, thrust in thrust points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from battles.rules.ships import ShipState, crew_factors

FORMAT: Final = "admiralty-design/1"

# The six 60° arcs, clockwise from the bow (rules §6).
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
    """A heavy weapon mount. ``weapon`` is an engine weapon id
    (``battles.rules.weapon_catalogue``); ``class`` is the plasma-bolt class (1–6),
    ``magazine`` the id of the magazine feeding a launcher."""

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
        """Crew factors of the design's mass (the engine's rule, §4, D-5)."""
        return crew_factors(self.mass)

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


def shape_errors(exc: ValidationError) -> list[DesignError]:
    errors = []
    for err in exc.errors():
        msg = err["msg"].removeprefix("Value error, ")
        errors.append(DesignError(_path(tuple(err["loc"])), msg))
    return errors


def design_system_ids(design: Mapping[str, Any]) -> list[str]:
    """Every system id a ship of ``design`` has, in the engine's order: the ids listed in
    ``design["systems"]``, then the synthesised ``fc-N`` and ``screen-N`` (one per fire
    control and screen), ``drive`` (thrust above 0) and the command systems of
    ``design["command"]`` (default all three: ``bridge``, ``life-support``, ``core``).

    These are the ids ``Ship.systems_lost`` and battle results may name, and what threshold
    checks can destroy (rules §4, §11). Built by the engine itself
    (``battles.rules.ships.ShipState.from_design``) so the two never disagree; raises its
    ``DesignError`` (a ``ValueError``) naming the field when the design cannot be built.
    """
    return list(ShipState.from_design(design, ship_id="design", side="design").systems)
