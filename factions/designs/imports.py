"""Ship designs in and out: ftLibShip / ftShipBuilder JSON and the project's own format.

- ``ftlibship``: the ship JSON of the open-source Full Thrust tools ftLibShip and
  ftShipBuilder, read by ``factions/designs/ftlibship.py`` (one mapping table). Each ship becomes an
  ``admiralty-design/1`` document; systems with no Incursion equivalent are reported by name,
  per ship, in ``ImportResult.unmapped`` and skipped — never silently dropped.
- ``admiralty``: our own design documents (``factions/designs/schema.py``): one design, a list of
  designs, or a catalogue ``{"faction": {...}, "classes": [...]}``. :func:`export_design` is
  its exact inverse.

Parsing (:func:`designs_parse`) touches no database; :func:`designs_save` writes the ship
classes of a result in one transaction.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from campaign.core.limits import DESIGN_FILE_MAX_DESIGNS
from factions.designs import validation
from factions.designs.ftlibship import (
    FLEET_BOOK_BEAMS,
    FLEET_BOOK_GRASERS,
    FTLIBSHIP_SYSTEMS,
    Unmapped,
    design_from_ftlibship,
    ftlibship_ships,
    hull_rows,
    is_ftlibship_ship,
)
from factions.designs.schema import FORMAT, design_system_ids
from factions.designs.validation import design_validate
from factions.models import Faction, ShipClass

FORMATS = ("auto", "ftlibship", "admiralty")


class ImportFormatError(ValueError):
    """The file is not in a format we read (or not in the one asked for)."""


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


class PointsMismatch(NamedTuple):
    """A valid design whose printed points differ from its Fleet Book price by the
    construction rules (``factions.designs.validation.design_points``, bays empty, D-24).
    The printed figure is kept (a published list may price what we do not model); the
    import says so, and the class's page flags it."""

    ship: str
    printed: int
    computed: int

    def __str__(self) -> str:
        return (
            f"{self.ship}: printed points {self.printed}, "
            f"{self.computed} by construction (the printed figure is stored)"
        )


class DesignReplaceError(ValueError):
    """A replacement design lacks a system id that an existing ship has lost."""


@dataclass
class ImportResult:
    """What a parse produced.

    ``designs``: ``admiralty-design/1`` documents, in file order. ``unmapped``: systems
    skipped, per ship. ``invalid``: validation errors of the produced designs (field paths as
    :func:`factions.designs.validation.design_validate` gives them). ``format``: the format read.
    ``kept``: filled by :func:`designs_save`, the designs it skipped to keep classes in use.
    ``points_mismatch``: valid designs whose printed points differ from their construction.
    """

    designs: list[dict[str, Any]] = field(default_factory=list)
    unmapped: list[Unmapped] = field(default_factory=list)
    invalid: list[Invalid] = field(default_factory=list)
    format: str = ""
    kept: list[Kept] = field(default_factory=list)
    points_mismatch: list[PointsMismatch] = field(default_factory=list)

    def errors_for(self, name: str) -> list[Invalid]:
        """Validation errors of the design called ``name``."""
        return [e for e in self.invalid if e.ship == name]


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
    if is_ftlibship_ship(first):
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
    A valid design without points gets its computed points (Fleet Book system, D-24); one
    whose printed points differ from them is listed in ``result.points_mismatch``.
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
    else:
        computed = validation.design_points(parsed)
        printed = doc.get("points")
        if printed is None:
            doc["points"] = computed
        elif printed != computed:
            result.points_mismatch.append(PointsMismatch(name, printed, computed))
    result.designs.append(doc)


def _check_design_count(count: int) -> None:
    """Raise :class:`ImportFormatError` beyond ``campaign.core.limits.DESIGN_FILE_MAX_DESIGNS``."""
    if count > DESIGN_FILE_MAX_DESIGNS:
        raise ImportFormatError(
            _("the file holds %(count)s designs; the limit is %(max)s a file")
            % {"count": count, "max": DESIGN_FILE_MAX_DESIGNS}
        )


def designs_parse(data: Any, *, faction: str, format: str = "auto") -> ImportResult:
    """Turn a parsed JSON document into designs for the faction with slug ``faction``.

    ``format``: ``auto`` (detect), ``ftlibship`` or ``admiralty``. Every design is validated
    (``factions.designs.validation.design_validate``); errors land in ``result.invalid`` with
    their field,
    systems that could not be mapped in ``result.unmapped``. Our own format is strict: an
    invalid design is not kept. ftLibShip ships are kept when their shape parses even if a
    rule check fails (a Fleet Book ship may not add up once its unmapped systems are gone):
    they are marked provisional, without points; a ship with values of the wrong type (a text
    mass, a system that is not an object) is not kept and is listed in ``result.invalid``
    with field ``ship``. No database access.
    Raises :class:`ImportFormatError` for an unknown or mismatched format, or a file of more
    than ``campaign.core.limits.DESIGN_FILE_MAX_DESIGNS`` designs.
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
        ships = list(ftlibship_ships(data))
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


def _write_class(faction: Faction, slug: str, design: dict[str, Any]) -> ShipClass:
    """Create or update the class ``slug`` of ``faction`` from ``design``: name, type word
    and provisional flag from it, the design and its figures through ``set_design`` (lenient:
    :func:`designs_parse` already applied the format's strictness)."""
    sc = ShipClass.objects.filter(faction=faction, slug=slug).first()
    sc = sc or ShipClass(faction=faction, slug=slug)
    sc.name, sc.type_word = design["name"], design.get("type_word", "")
    sc.provisional = design.get("provisional", True)
    sc.set_design(design, lenient=True)
    sc.save()
    return sc


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
            saved.append(_write_class(faction, slug, design))
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
    "PointsMismatch",
    "Unmapped",
    "design_from_ftlibship",
    "designs_parse",
    "designs_save",
    "detect_format",
    "export_catalogue",
    "export_design",
    "hull_rows",
]
