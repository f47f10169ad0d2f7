"""Load the ship-class catalogue (``factions/catalogue/*.json``) into the database.

Each file is ``{"faction": {"slug", "name"}, "classes": [design, …], "light_units": [unit, …]}``
where a design is an ``admiralty-design/1`` document (:mod:`factions.designs.schema`) and a
light unit
is ``{"name", "unit", "size", "variant"?, "based_at"?, "points", "rationale"?}`` (free squadrons
and batteries; carried squadrons sit in the carriers' bays instead).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from pydantic import ValidationError

from factions.designs.construction import UnknownSystem, squadron_points
from factions.designs.schema import DesignInvalid, LightUnit
from factions.designs.validation import design_validate
from factions.models import Faction, ShipClass

CATALOGUE_DIR = Path(__file__).resolve().parent / "catalogue"


class CatalogueError(ValueError):
    """A catalogue file that cannot be loaded; the message names the file and the field."""


def catalogue_files(directory: Path = CATALOGUE_DIR) -> list[Path]:
    """The catalogue files, sorted by name."""
    return sorted(directory.glob("*.json"))


def catalogue_read(path: Path) -> dict[str, Any]:
    """Read and check one catalogue file; returns its JSON with every design validated.

    Raises :class:`CatalogueError` naming the file and each bad field
    (``qatzrin.json: classes[2].systems[3].magazine: …``).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CatalogueError(f"{path.name}: {exc}") from exc
    faction = data.get("faction") if isinstance(data, dict) else None
    if not isinstance(faction, dict) or not faction.get("slug") or not faction.get("name"):
        raise CatalogueError(f"{path.name}: faction: needs a slug and a name")
    problems: list[str] = []
    names: set[str] = set()
    for i, doc in enumerate(data.get("classes", [])):
        design, errors = design_validate(doc)
        problems += [f"classes[{i}].{e}" for e in errors]
        if design is None:
            continue
        if design.faction != faction["slug"]:
            problems.append(f"classes[{i}].faction: '{design.faction}' in {faction['slug']} file")
        if design.name in names:
            problems.append(f"classes[{i}].name: duplicate class '{design.name}'")
        names.add(design.name)
    for i, unit in enumerate(data.get("light_units", [])):
        try:
            lu = LightUnit.model_validate(unit)
            squadron_points(lu.unit, size=lu.size, variant=lu.variant)
        except ValidationError as exc:
            problems += [
                f"light_units[{i}].{'.'.join(str(x) for x in e['loc'])}: {e['msg']}"
                for e in exc.errors()
            ]
        except UnknownSystem as exc:
            problems.append(f"light_units[{i}].variant: {exc}")
    if problems:
        raise CatalogueError(f"{path.name}: " + "; ".join(problems))
    return data


def catalogue_load(*, directory: Path = CATALOGUE_DIR) -> dict[tuple[str, str], ShipClass]:
    """Upsert every catalogue faction (by slug, name only) and ship class (by faction + slug).

    Sets each class's name, type word and provisional flag from its design, and the design
    with its figures through ``ShipClass.set_design``. Idempotent; one transaction, so a bad
    file leaves the database as it was. Returns ``{(faction slug, class name): ShipClass}``.
    Raises :class:`CatalogueError` (every design is validated before anything is written).
    """
    files = [catalogue_read(p) for p in catalogue_files(directory)]
    loaded: dict[tuple[str, str], ShipClass] = {}
    with transaction.atomic():
        for data in files:
            fac = data["faction"]
            faction, _ = Faction.objects.get_or_create(
                slug=fac["slug"], defaults={"name": fac["name"]}
            )
            for doc in data.get("classes", []):
                design, _ = design_validate(doc)
                if design is None:  # pragma: no cover - catalogue_read checked it
                    raise DesignInvalid([])
                slug = slugify(design.name)
                ship_class = ShipClass.objects.filter(faction=faction, slug=slug).first()
                ship_class = ship_class or ShipClass(faction=faction, slug=slug)
                ship_class.name, ship_class.type_word = design.name, design.type_word
                ship_class.provisional = design.provisional
                ship_class.set_design(doc)
                ship_class.save()
                loaded[(faction.slug, design.name)] = ship_class
    return loaded
