"""What a battle's conclusion changed, kept so that a reopen can put it back.

The conclusion (``battles.services.conclude``) dumps every ship, light-unit group and
participant it is about to change (:func:`unit_dump`), then keeps, per object, only the
fields that changed, with their values before and after (:func:`unit_changes`,
:data:`SNAPSHOT_FORMAT`). A reopen (``battles.services.reopen``) checks that every "after"
is still current and puts the "before" back (:func:`restore_changes`); a snapshot of the
first form (every field, before only) puts back :data:`LEGACY_FIELDS` alone
(:func:`restore_legacy`). Both lock the units the same way (:func:`lock_units`).
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Model
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from battles.models import Battle, Participant
from battles.services.common import BULK, BattleActionError, battle_label
from factions.models import LightUnitGroup, Ship

__all__ = [
    "LEGACY_FIELDS",
    "SNAPSHOT_FORMAT",
    "lock_units",
    "restore_changes",
    "restore_legacy",
    "unit_changes",
    "unit_dump",
]


def _fields(model: type[Model]) -> list[Any]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def unit_dump(obj: Model) -> dict[str, Any]:
    """Every field of ``obj`` by attname, as JSON gives it back (lists, not tuples)."""
    return json.loads(json.dumps({f.attname: getattr(obj, f.attname) for f in _fields(type(obj))}))


def _by_attname(model: type[Model]) -> dict[str, Any]:
    return {f.attname: f for f in _fields(model)}


def unit_changes(before: dict[str, Any], obj: Model) -> dict[str, dict[str, Any]]:
    """The fields of ``obj`` whose value differs from ``before`` (a :func:`unit_dump`), as
    ``{attname: {"before": value, "after": value}}``."""
    after = unit_dump(obj)
    return {k: {"before": v, "after": after[k]} for k, v in before.items() if after[k] != v}


#: The snapshot's form: 2 keeps, per object, only the fields the conclusion changed, with
#: their values before and after it (older snapshots kept every field, before only).
SNAPSHOT_FORMAT = 2

#: What a conclusion can change, read back from a snapshot of the first form: damage and
#: status only, so a name, captain, squadron or note set since the battle is kept.
#: A ship's fleet and squadron go back only when the conclusion moved it (a capture).
LEGACY_FIELDS: dict[str, tuple[str, ...]] = {
    "ships": ("hull_lost", "armour_lost", "crew_lost", "systems_lost", "status"),
    "light_units": ("strength",),
    "participants": (
        "fate",
        "hull_lost",
        "armour_lost",
        "crew_lost",
        "systems_lost",
        "craft_lost",
    ),
}
_MODELS: dict[str, type[Model]] = {
    "ships": Ship,
    "light_units": LightUnitGroup,
    "participants": Participant,
}


def _unit_words(key: str, obj: Model) -> tuple[str, str]:
    """(what, name) naming ``obj`` in a refusal: ``("ship", "Tyr")``."""
    if key == "ships":
        return _("ship"), str(obj)
    if key == "light_units":
        return _("light units"), str(obj.name)  # type: ignore[attr-defined]
    unit = obj.ship or obj.light_units  # type: ignore[attr-defined]
    return _("participant"), str(unit)


def _check_drift(battle: Battle, key: str, objs: list[Model], rows: dict[str, Any]) -> None:
    """Refuse (:class:`BattleActionError`) when a field the conclusion wrote holds another
    value now: a reopen would silently undo that later change."""
    for obj in objs:
        for attname, change in rows[str(obj.pk)].items():
            now = json.loads(json.dumps(getattr(obj, attname)))
            if now != change["after"]:
                what, name = _unit_words(key, obj)
                field_name = _by_attname(type(obj))[attname]
                raise BattleActionError(
                    _(
                        "%(battle)s: %(what)s '%(name)s' (%(field)s) changed since the "
                        "battle was concluded: %(after)s → %(now)s; undo that first"
                    )
                    % {
                        "battle": battle_label(battle),
                        "what": what,
                        "name": name,
                        "field": field_name.verbose_name,
                        "after": change["after"],
                        "now": now,
                    }
                )


def restore_changes(battle: Battle, data: dict[str, Any]) -> None:
    """Put back the "before" of every field the conclusion changed, once every "after"
    is checked to be still current (a snapshot of :data:`SNAPSHOT_FORMAT`)."""
    loaded = {}
    for key, model in _MODELS.items():
        rows = data[key]
        objs = list(model.objects.filter(pk__in=[int(pk) for pk in rows]).order_by("pk"))
        _check_drift(battle, key, objs, rows)
        loaded[key] = objs
    for key, objs in loaded.items():
        rows = data[key]
        names: set[str] = set()
        for obj in objs:
            for attname, change in rows[str(obj.pk)].items():
                setattr(obj, attname, change["before"])
                names.add(attname)
        _save(_MODELS[key], objs, names)


def restore_legacy(data: dict[str, Any]) -> None:
    """Read back a snapshot of the first form (every field, before only): the fields of
    :data:`LEGACY_FIELDS`, and a ship's fleet and squadron when its fleet changed."""
    for key, model in _MODELS.items():
        rows = data[key]
        objs = list(model.objects.filter(pk__in=[int(pk) for pk in rows]).order_by("pk"))
        names = set(LEGACY_FIELDS[key])
        for obj in objs:
            kept = rows[str(obj.pk)]
            for name in LEGACY_FIELDS[key]:
                setattr(obj, name, kept[name])
            if key == "ships" and kept["fleet_id"] != obj.fleet_id:  # type: ignore[attr-defined]
                obj.fleet_id, obj.squadron_id = kept["fleet_id"], kept["squadron_id"]  # type: ignore[attr-defined]
                names |= {"fleet_id", "squadron_id"}
        _save(model, objs, names)


def _save(model: type[Model], objs: list[Model], attnames: set[str]) -> None:
    if not objs or not attnames:
        return
    names = sorted(_by_attname(model)[a].name for a in attnames)
    if model is Participant:
        bulk_update_with_history(objs, model, names, batch_size=BULK)
    else:
        model.objects.bulk_update(objs, names, batch_size=BULK)


def lock_units(battle: Battle) -> tuple[list[int], list[int]]:
    """Lock the battle's ships then light-unit groups (``select_for_update``, pk order);
    returns their ids."""
    rows = Participant.objects.filter(side__battle=battle).values_list("ship_id", "light_units_id")
    ship_ids = sorted({s for s, _ in rows if s})
    group_ids = sorted({g for _, g in rows if g})
    list(Ship.objects.select_for_update().filter(pk__in=ship_ids).order_by("pk").values("pk"))
    list(
        LightUnitGroup.objects.select_for_update()
        .filter(pk__in=group_ids)
        .order_by("pk")
        .values("pk")
    )
    return ship_ids, group_ids
