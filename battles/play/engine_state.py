"""The engine's state between two turns of a turn-by-turn battle, as JSON, and which engine
played it.

:func:`dump` turns a :class:`~battles.rules.turn.BattleState` into a JSON document and
:func:`load` gives it back, so the next turn starts from the last one instead of replaying
the battle from its set-up (a turn's cost does not grow with the turns before it). The
log is not part of it: each turn's events are stored as ``Event`` rows when it is played.
What the document keeps: the ships and light units on the table (every field of their
dataclasses), the turn, initiative, contacts, classes met, veils, phase-1 settings, the
unit counter, the dice (seed, the generator's state, how many dice were stored in the
log) and the dice rolled after the last event (stored with the next event, as the
replay from the set-up stores them).

Dicts are kept as lists of pairs and tuples and sets tagged: PostgreSQL's ``jsonb`` sorts
an object's keys, and the engine's fleets act in their dicts' order.

:func:`engine_hash` names the engine: the SHA-256 of the hashes of every source of
``battles/rules`` (``battles.rules._accelerator.source_hashes``, the build's own check),
computed once per process.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from enum import Enum
from functools import cache
from typing import Any

from battles.rules import _accelerator
from battles.rules.dice import Dice, Roll
from battles.rules.options import RuleOptions
from battles.rules.phases.state import LightUnit
from battles.rules.ships import ShipState, Status, SystemState
from battles.rules.turn import BattleState

__all__ = ["FORMAT", "StateError", "dump", "engine_hash", "load"]

#: The document's form; a document of another form is refused (:class:`StateError`).
FORMAT = 1

#: The dataclasses and enums a document may hold, by the name it stores: nothing else is
#: ever built from stored JSON.
_CLASSES: dict[str, type] = {
    "ShipState": ShipState,
    "SystemState": SystemState,
    "LightUnit": LightUnit,
}
_ENUMS: dict[str, type[Enum]] = {"Status": Status}

#: BattleState fields kept (the rest is the log, caches, or built from the options).
_STATE_FIELDS = ("turn", "light_units", "initiative", "contacts", "known_classes", "veiled")
_STATE_FIELDS += ("settings", "_unit_counter")


class StateError(ValueError):
    """A stored engine state that cannot be read back (another form, an unknown type)."""


@cache
def engine_hash() -> str:
    """SHA-256 (hex) of the rules engine's sources: ``battles/rules/*.py`` by path and
    content hash. Cached: the sources of a running process do not change."""
    hashes = _accelerator.source_hashes()
    return hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()


def _enc(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, Enum):  # before str: a StrEnum is a str
        return {"~e": type(value).__name__, "v": value.value}
    if isinstance(value, (str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"~f": repr(value)}
    if isinstance(value, list):
        return [_enc(v) for v in value]
    if isinstance(value, tuple):
        return {"~t": [_enc(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"~s": [_enc(v) for v in sorted(value)]}
    if isinstance(value, dict):
        return {"~d": [[_enc(k), _enc(v)] for k, v in value.items()]}
    name = type(value).__name__
    if _CLASSES.get(name) is type(value):
        fields = dataclasses.fields(value)
        return {"~c": name, "f": {f.name: _enc(getattr(value, f.name)) for f in fields}}
    raise StateError(f"engine state: cannot store a {type(value).__qualname__}")


def _dec(value: Any) -> Any:
    if isinstance(value, list):
        return [_dec(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "~t" in value:
        return tuple(_dec(v) for v in value["~t"])
    if "~s" in value:
        return {_dec(v) for v in value["~s"]}
    if "~d" in value:
        return {_dec(k): _dec(v) for k, v in value["~d"]}
    if "~f" in value:
        return float(value["~f"])
    if "~e" in value:
        return _ENUMS[value["~e"]](value["v"])
    if "~c" in value:
        cls = _CLASSES[value["~c"]]
        return cls(**{k: _dec(v) for k, v in value["f"].items()})
    raise StateError(f"engine state: untagged object {sorted(value)[:3]}")


def dump(state: BattleState, dice_base: int = 0) -> dict[str, Any]:
    """``state`` as a JSON document (``{"format", "ships", "sides", "options", "dice",
    "fields"}``). ``dice_base``: the dice of the battle's log before the first of
    ``state.dice`` (0 for a state played from the set-up). The dice rolled after its last
    event are kept to be stored with the next event; ``dice.n`` counts the dice the log
    holds."""
    marks = state.roll_marks
    written = state.dice.written()
    stored = marks[-1] if marks else 0
    return {
        "format": FORMAT,
        "ships": _enc(state.ships),
        "sides": list(state.sides),
        "options": state.options.to_dict(),
        "fields": {name: _enc(getattr(state, name)) for name in _STATE_FIELDS},
        "dice": {
            "seed": state.dice.seed,
            "rng": _enc(state.dice._rng.getstate()),
            "n": dice_base + stored,
            "pending": [list(roll) for roll in written[stored:]],
        },
    }


def load(document: dict[str, Any]) -> tuple[BattleState, int]:
    """``(state, dice_base)``: the state :func:`dump` stored, its event log empty (its
    dice log holds the dice not stored yet), and how many dice the battle's log holds
    before them (``state.dice``'s first die is number ``dice_base + 1`` of the battle).
    Raises :class:`StateError` for a document of another form or holding a type it does
    not know, ``KeyError``/``TypeError`` for a malformed one."""
    if document.get("format") != FORMAT:
        raise StateError(f"engine state: form {document.get('format')!r}, expected {FORMAT}")
    kept = document["dice"]
    dice = Dice(kept["seed"])
    dice._rng.setstate(_dec(kept["rng"]))
    pending = [Roll(purpose, sides, face) for purpose, sides, face in kept["pending"]]
    dice.log.extend(pending)
    sides = document["sides"]
    state = BattleState(
        ships=_dec(document["ships"]),
        sides=(sides[0], sides[1]),
        dice=dice,
        options=RuleOptions.from_dict(document["options"]),
    )
    for name, value in document["fields"].items():
        setattr(state, name, _dec(value))
    return state, kept["n"]
