"""The engine's ids of a battle's units, made and read in one place.

The engine knows a fielded ship as ``ship-<Ship pk>`` and a station or colony defence
platform as ``lu-<LightUnitGroup pk>``; a unit launched from either carries the owner's
id before a dot (``ship-3.bay-1-2``, ``lu-6.bay-a-1``). The set-up row, the stored log,
stored orders, the board's markers and the hidden sets all use these strings, so every
reader builds and parses them here. Pure: no Django.
"""

from __future__ import annotations

import re
from typing import Any, Literal

__all__ = [
    "ENGINE_REF_IN_TEXT",
    "LIGHT_UNITS",
    "SHIP",
    "SHIP_REF_IN_TEXT",
    "light_units_ref",
    "owner_ref",
    "parse_ref",
    "ship_ref",
]

SHIP: Literal["ship"] = "ship"
LIGHT_UNITS: Literal["lu"] = "lu"

_REF = re.compile(r"(ship|lu)-([1-9][0-9]*)(?:\.[\w-]+)?")
#: An engine id of a ship, platform or unit launched from one, inside a longer text.
ENGINE_REF_IN_TEXT = re.compile(r"(?<![\w-])(?:ship|lu)-\d+(?:\.[\w-]+)?")
#: A ship's engine id inside a longer text (a log summary).
SHIP_REF_IN_TEXT = re.compile(r"\bship-\d+\b")


def _pk(pk: int) -> int:
    # bool is an int: ship_ref(True) would read "ship-True".
    if isinstance(pk, bool) or not isinstance(pk, int) or pk < 1:
        raise ValueError(f"an engine id needs a positive integer primary key, got {pk!r}")
    return pk


def ship_ref(pk: int) -> str:
    """``"ship-<pk>"``: the engine id of the ``factions.models.Ship`` ``pk``. Raises
    ``ValueError`` unless ``pk`` is a positive int."""
    return f"{SHIP}-{_pk(pk)}"


def light_units_ref(pk: int) -> str:
    """``"lu-<pk>"``: the engine id of the defence platform fielded for the
    ``factions.models.LightUnitGroup`` ``pk``. Raises ``ValueError`` unless ``pk`` is a
    positive int."""
    return f"{LIGHT_UNITS}-{_pk(pk)}"


def parse_ref(ref: str) -> tuple[str, int]:
    """``(kind, pk)`` of an engine id: ``"ship-12"`` → ``("ship", 12)``, ``"lu-6"`` →
    ``("lu", 6)``; a launched unit is read as its owner's (``"ship-3.bay-1-2"`` →
    ``("ship", 3)``). Raises ``ValueError`` for anything else (``"contact-1"``,
    ``"ship-"``, ``"ship-0"``, a non-string)."""
    match = _REF.fullmatch(ref) if isinstance(ref, str) else None
    if match is None:
        raise ValueError(f"not an engine unit id: {ref!r}")
    return match.group(1), int(match.group(2))


def owner_ref(ref: Any) -> str | None:
    """The engine id of the ship or platform ``ref`` belongs to (``"ship-3.bay-1-2"`` →
    ``"ship-3"``, ``"lu-6"`` → ``"lu-6"``), or None when ``ref`` is no engine unit id
    (a system id, a side's opaque key, None)."""
    try:
        kind, pk = parse_ref(ref)
    except ValueError:
        return None
    return f"{kind}-{pk}"
