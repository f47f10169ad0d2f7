"""Row ids inside stored JSON and log text, moved between database ids and document keys.

Primary keys differ between instances, so a document names a row by its natural key or
its 1-based position in its table (:mod:`campaign.exchange.tables`). Some JSON fields hold
ids too; an :class:`IdWalk` says where, and moves them through a ``mapper(kind, value)``
(export: pk → key; import: key → new pk):

- :data:`ENGINE`: the engine names a ship ``ship-<Ship pk>`` and a defence platform
  ``lu-<LightUnitGroup pk>`` (``battles.refs``) in the log's text and ``data``, orders
  and the stored engine state, as strings and object keys; the set-up row and record
  entries hold ``"participant"`` and ``"ship"`` row ids as numbers. In a document
  ``ship-3`` is the third row of ``ships``.
- :data:`TURN_SUMMARY` and :data:`TURN_UNDO`: what a turn's close did and what reopening
  it restores (``campaign.turns.closing``), ids at known places.

Pure: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: ``ship-12``, ``lu-6`` and a launched unit's ``ship-3.bay-1-2`` (the owner's id), in text.
_REF = re.compile(r"(?<![\w-])(ship|lu)-([0-9]+)(?!\w)")

#: Object keys whose whole-number value is a row id in engine JSON: the kind each names.
ROW_ID_KEYS = {"participant": "participant", "ship": "ship"}

#: ``mapper(kind, value) -> value``: raises ``KeyError`` for an id it does not know.
Mapper = Callable[[str, Any], Any]


class UnknownRef(ValueError):
    """An id the mapper does not know; ``path`` is where it was met (``ships.ship-4``)."""

    def __init__(self, path: str, ref: str) -> None:
        super().__init__(f"{path}: {ref} names no row")
        self.path = path
        self.ref = ref


def _map(mapper: Mapper, kind: str, value: Any, path: str, shown: str) -> Any:
    try:
        return mapper(kind, value)
    except (KeyError, IndexError, TypeError, ValueError):
        raise UnknownRef(path, shown) from None


def _text(value: str, mapper: Mapper, path: str) -> str:
    if "ship-" not in value and "lu-" not in value:
        return value

    def swap(match: re.Match[str]) -> str:
        kind, number = match.group(1), int(match.group(2))
        return f"{kind}-{_map(mapper, kind, number, path, match.group(0))}"

    return _REF.sub(swap, value)


class _Miss(Exception):
    """An unknown id met on the fast walk; the slow walk then finds its path."""


def _fast(value: Any, mapper: Mapper) -> Any:
    # The walk without paths (a campaign's log has hundreds of thousands of rows).
    if isinstance(value, str):
        if "ship-" not in value and "lu-" not in value:
            return value
        try:
            return _REF.sub(lambda m: f"{m.group(1)}-{mapper(m.group(1), int(m.group(2)))}", value)
        except (KeyError, IndexError, TypeError, ValueError):
            raise _Miss from None
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            kind = ROW_ID_KEYS.get(k)
            if kind is not None and type(v) is int:
                try:
                    v = mapper(kind, v)
                except (KeyError, IndexError, TypeError, ValueError):
                    raise _Miss from None
            else:
                v = _fast(v, mapper)
            out[_fast(k, mapper) if isinstance(k, str) else k] = v
        return out
    if isinstance(value, list):
        return [_fast(v, mapper) for v in value]
    return value


def _slow(value: Any, mapper: Mapper, path: str) -> Any:
    if isinstance(value, str):
        return _text(value, mapper, path)
    if isinstance(value, list):
        return [_slow(v, mapper, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            here = f"{path}.{k}" if path else str(k)
            key = _text(k, mapper, here) if isinstance(k, str) else k
            kind = ROW_ID_KEYS.get(k) if isinstance(k, str) else None
            if kind is not None and type(v) is int:
                out[key] = _map(mapper, kind, v, here, f"{k} {v}")
            else:
                out[key] = _slow(v, mapper, here)
        return out
    return value


def engine_translate(value: Any, mapper: Mapper, path: str = "") -> Any:
    """``value`` (JSON) with every engine id in strings and object keys, and every number
    under a ``"participant"`` or ``"ship"`` key, passed through ``mapper``; a new value.
    Raises :class:`UnknownRef` naming the path of an id ``mapper`` does not know."""
    try:
        return _fast(value, mapper)
    except _Miss:
        return _slow(value, mapper, path)


def _walk(value: Any, steps: tuple[str, ...], kind: str, mapper: Mapper, path: str) -> Any:
    """``value`` with the ids at ``steps`` mapped: a name is that object entry, ``"[]"``
    each list item, ``"*"`` each object value, ``"{}"`` each object key (ids as text)."""
    if not steps:
        return None if value is None else _map(mapper, kind, value, path, f"{kind} {value}")
    step, rest = steps[0], steps[1:]
    if step == "[]" and isinstance(value, list):
        return [_walk(v, rest, kind, mapper, f"{path}[{i}]") for i, v in enumerate(value)]
    if step in ("*", "{}") and isinstance(value, dict):
        out = {}
        for k, v in value.items():
            here = f"{path}.{k}" if path else str(k)
            if step == "{}":
                number = int(k) if k.isdigit() else k
                k = str(_map(mapper, kind, number, here, f"{kind} {k}"))
                out[k] = v
            else:
                out[k] = _walk(v, rest, kind, mapper, here)
        return out
    if isinstance(value, dict) and step in value:
        here = f"{path}.{step}" if path else step
        return {**value, step: _walk(value[step], rest, kind, mapper, here)}
    return value


@dataclass(frozen=True)
class IdWalk:
    """Where a JSON field holds ids: ``paths`` (``((steps…), kind)`` pairs, see
    :func:`_walk`), or none for the engine's ids (:func:`engine_translate`); ``kinds``:
    the kinds it maps (:data:`tables.KIND_TABLES`)."""

    kinds: frozenset[str]
    paths: tuple[tuple[tuple[str, ...], str], ...] = ()

    def __call__(self, value: Any, mapper: Mapper) -> Any:
        """``value`` with its ids mapped; raises :class:`UnknownRef`."""
        if not self.paths:
            return engine_translate(value, mapper)
        for steps, kind in self.paths:
            value = _walk(value, steps, kind, mapper, "")
        return value


ENGINE = IdWalk(frozenset({"ship", "lu", "participant"}))

#: A move order's route: the star systems it passes, in order.
ROUTE = IdWalk(frozenset({"star_system"}), ((("[]",), "star_system"),))

TURN_SUMMARY = IdWalk(
    frozenset({"ship", "construction", "lu", "fleet"}),
    (
        (("repairs", "[]", "ship"), "ship"),
        (("constructions", "[]", "id"), "construction"),
        (("squadrons_lost", "[]", "id"), "lu"),
        (("moves", "[]", "fleet"), "fleet"),
        (("map_moves", "[]", "fleet"), "fleet"),
    ),
)

TURN_UNDO = IdWalk(
    frozenset(
        {
            "ship",
            "lu",
            "construction",
            "repair_order",
            "ledger",
            "fleet_move",
            "fleet",
            "territory",
            "fleet_position",
            "star_system",
            "star_link",
            "map_move",
        }
    ),
    (
        # The star map's part (``campaign.starmap.advance``): positions before and after,
        # move orders' statuses, fleets' derived territories.
        (("map", "positions", "{}"), "fleet_position"),
        (("map", "after", "{}"), "fleet_position"),
        *(
            ((("map", part, "*", name), kind))
            for part in ("positions", "after")
            for name, kind in (
                ("system_id", "star_system"),
                ("link_id", "star_link"),
                ("heading_id", "star_system"),
            )
        ),
        (("map", "moves", "{}"), "map_move"),
        (("map", "fleets", "*"), "territory"),
        (("map", "fleets", "{}"), "fleet"),
        (("ships", "{}"), "ship"),
        (("after", "{}"), "ship"),
        (("orders", "{}"), "repair_order"),
        (("builds", "*", "ship_id"), "ship"),
        (("builds", "*", "light_units_id"), "lu"),
        (("builds", "{}"), "construction"),
        (("created_ships", "[]"), "ship"),
        (("created_lights", "[]"), "lu"),
        (("lights", "{}"), "lu"),
        (("ledger", "[]"), "ledger"),
        (("moves", "*", "fleet"), "fleet"),
        (("moves", "*", "territory"), "territory"),
        (("moves", "{}"), "fleet_move"),
    ),
)
