"""What every battle-log line module shares (``lines``, ``damage``, ``light``): the names a
viewer sees (:class:`LogNames`, :func:`log_names`), the hidden names a side may not read,
and the checks that send an unknown data shape back to the stored summary
(:class:`UnknownShape`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext

from battles.refs import SHIP_REF_IN_TEXT


class UnknownShape(Exception):
    """A data shape this module does not know: use the stored summary."""


def distance(value: Any) -> str:
    """A distance or coordinate in mu (an engine float, or the digits of one in a stored
    summary) for a log line in the active language: rounded to a tenth as the engine
    writes it, without a needless ``.0``, with the language's decimal mark (``10``,
    ``7.5`` in English, ``7,5`` in French; Django's ``number_format``). Raises
    :class:`UnknownShape` for anything that is not a number."""
    if isinstance(value, bool):
        raise UnknownShape
    try:
        tenths = round(float(value), 1)
    except (TypeError, ValueError):
        raise UnknownShape from None
    if tenths == int(tenths):
        return number_format(int(tenths))
    return number_format(tenths, decimal_pos=1)


def position(x: Any, y: Any) -> str:
    """A point ``(x, y)`` in mu for a log line: ``(12.5, -4)``, in French ``(12,5 ; -4)``
    (a comma is the decimal mark there, so the coordinates are parted by a semicolon)."""
    return pgettext("a point on the board", "(%(x)s, %(y)s)") % {
        "x": distance(x),
        "y": distance(y),
    }


@dataclass
class LogNames:
    """What a log line may name: engine ship id -> ship name, faction slug -> name."""

    ships: dict[str, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)

    def ship(self, ship_id: Any) -> str:
        if isinstance(ship_id, str) and ship_id in self.ships:
            return self.ships[ship_id]
        raise UnknownShape

    def unit(self, unit_id: Any) -> str:
        """A ship, or a launched unit ``ship-12.hangar-1`` as ``<carrier name> hangar-1``."""
        if not isinstance(unit_id, str):
            raise UnknownShape
        if unit_id in self.ships:
            return self.ships[unit_id]
        head, dot, rest = unit_id.partition(".")
        if dot and head in self.ships:
            return f"{self.ships[head]} {rest}"
        raise UnknownShape

    def side(self, slug: Any) -> str:
        if not isinstance(slug, str) or not slug:
            raise UnknownShape
        return self.sides.get(slug, slug)

    def ids_to_names(self, text: str) -> str:
        """``text`` with each known engine ship id replaced by the ship's name."""
        return SHIP_REF_IN_TEXT.sub(lambda m: self.ships.get(m.group(0), m.group(0)), text)


def log_names(
    events: list[Any], side_names: Mapping[str, str], hidden_refs: set[str] = frozenset()
) -> LogNames:
    """The names a log may use: ships from the set-up row (``kind == "setup"``), minus
    the engine ids in ``hidden_refs`` (units the reader may not see are never named)."""
    ships: dict[str, str] = {}
    for event in events:
        if event.kind != "setup":
            continue
        data = event.data if isinstance(event.data, dict) else {}
        table = data.get("ships")
        if isinstance(table, dict):
            for ship_id, row in table.items():
                name = row.get("name") if isinstance(row, dict) else None
                if isinstance(name, str) and name and ship_id not in hidden_refs:
                    ships[ship_id] = name
        break
    return LogNames(ships=ships, sides=dict(side_names))


def hidden_unit_names(events: list[Any], hidden_refs: set[str]) -> set[str]:
    """The names the engine gave the units in ``hidden_refs`` (the set-up row's ``ships``
    map): an unnamed ship is "<class> <n>" there, and the engine's summaries name a
    target that way ("… flies towards Sa'ar 1") without its id in the data. A filter
    that hides a unit must look for these words in every printed line, or a
    hidden unit's name reaches the log by its words.
    """
    words: set[str] = set()
    for event in events:
        if event.kind != "setup":
            continue
        table = event.data.get("ships") if isinstance(event.data, dict) else None
        if isinstance(table, dict):
            for ship_id in hidden_refs & table.keys():
                row = table[ship_id]
                name = row.get("name") if isinstance(row, dict) else None
                if isinstance(name, str) and name.strip():
                    words.add(name)
        break
    return words


def as_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UnknownShape
    return int(value)


def match_summary(pattern: str, text: Any) -> re.Match[str]:
    found = re.fullmatch(pattern, text) if isinstance(text, str) else None
    if found is None:
        raise UnknownShape
    return found


_VOLLEY = r".*: (?:(?P<kills>\d+) killed|(?P<systems>\d+) system hit\(s\)|(?P<damage>\d+) damage|(?P<none>no effect))"  # noqa: E501


def volley_effect(summary: Any) -> str:
    found = match_summary(_VOLLEY, summary)
    if found["kills"]:
        n = int(found["kills"])
        return ngettext("%(n)d killed", "%(n)d killed", n) % {"n": n}
    if found["systems"]:
        n = int(found["systems"])
        return ngettext("%(n)d system hit", "%(n)d systems hit", n) % {"n": n}
    if found["damage"]:
        n = int(found["damage"])
        return ngettext("%(n)d damage", "%(n)d damage", n) % {"n": n}
    return gettext("no effect")
