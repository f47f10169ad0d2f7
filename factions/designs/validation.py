"""A design document checked against the rules, and priced (Fleet Book design system, D-24).

:func:`design_validate` / :func:`design_parse` check a JSON document: its shape
(:class:`~factions.designs.schema.Design`) and then the rules (ids, weapons, arcs,
magazines, bays, and the declared mass against the systems'
(:mod:`factions.designs.construction`)). :func:`design_mass`, :func:`design_points` and
:func:`embarked_points` price a parsed design or a document
(validated first; :class:`~factions.designs.schema.DesignInvalid` if it does not validate).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from pydantic import ValidationError

from factions.designs import construction
from factions.designs.construction import design_breakdown, squadron_points
from factions.designs.schema import (
    ARCS,
    Design,
    DesignError,
    DesignInvalid,
    shape_errors,
)


def _arcs_contiguous(arcs: list[str]) -> bool:
    """True if the arcs form one unbroken sweep around the ship."""
    if len(arcs) >= 6:
        return True
    idx = {ARCS.index(a) for a in arcs}
    # A contiguous sweep has exactly one arc whose clockwise neighbour is missing.
    return sum(1 for i in idx if (i + 1) % 6 not in idx) == 1


def _rule_errors(design: Design) -> list[DesignError]:
    """Checks beyond the shape: ids, weapons, arcs, magazines, bays, mass."""
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

    total = design_mass(design)
    if total != design.mass:
        lines = ", ".join(f"{line.label} {line.mass}" for line in design_breakdown(design))
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
        return None, shape_errors(exc)
    return design, _rule_errors(design)


def design_parse(data: Any) -> Design:
    """Parse and validate a design document.

    Raises :class:`DesignInvalid` (a ``ValueError``) carrying every error.
    """
    design, errors = design_validate(data)
    if errors or design is None:
        raise DesignInvalid(errors)
    return design


#: The ``ShipClass`` columns a design document gives (:func:`design_figures`).
FIGURES: tuple[str, ...] = ("mass", "hull_boxes", "armour", "thrust", "points")


def design_figures(data: Any, *, lenient: bool = False) -> dict[str, int | None]:
    """The figures of a design document, as the ``ShipClass`` columns keep them: ``mass``
    (mass points), ``hull_boxes``, ``armour`` (boxes, every layer), ``thrust`` (thrust
    points) and ``points``: as the document states them, else the Fleet Book price of a
    valid design (:func:`design_points`), else None.

    Raises :class:`DesignInvalid` (a ``ValueError``) carrying every error, each naming its
    field. With ``lenient`` only a document whose shape does not parse is refused: an
    imported ship kept provisional although a rule check fails still has its figures.
    """
    design, errors = design_validate(data)
    if design is None or (errors and not lenient):
        raise DesignInvalid(errors)
    points = design.points
    if points is None and not errors:
        points = design_points(design)
    return {
        "mass": design.mass,
        "hull_boxes": design.hull.boxes,
        "armour": design.armour.boxes,
        "thrust": design.thrust,
        "points": points,
    }


def _as_design(design: Design | Mapping[str, Any]) -> Design:
    return design if isinstance(design, Design) else design_parse(dict(design))


def design_mass(design: Design | Mapping[str, Any]) -> int:
    """Total mass of the design's hull, armour, drives and systems (mass points)."""
    return sum(line.mass for line in design_breakdown(_as_design(design)))


def design_points(design: Design | Mapping[str, Any]) -> int:
    """Points value of one ship of the design, without the squadrons in its bays.

    Accepts a :class:`~factions.designs.schema.Design` or its JSON document (validated first;
    :class:`~factions.designs.schema.DesignInvalid` if it does not validate).
    """
    return sum(line.points for line in design_breakdown(_as_design(design)))


def embarked_points(design: Design | Mapping[str, Any]) -> int:
    """Points of the squadrons carried in the design's bays."""
    d = _as_design(design)
    return sum(
        squadron_points(s.squadron.unit, size=s.squadron.size, variant=s.squadron.variant)
        for s in d.systems
        if s.kind == "bay" and s.squadron is not None
    )
