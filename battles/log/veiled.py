"""Log lines of what an enemy seen only as a blip does to a side's units (rules §5).

A blip shows its position and its mass in blips, nothing else: the side it shoots at
learns that it was shot at, from how far and with what effect, never which system or
weapon fired (the ids ``beam-a`` … ``beam-e`` and their kinds tell the class apart).
Used by ``battles.play.board`` for a ``side`` viewer; :func:`veiled_line` answers
``None`` for a kind or data shape it does not know, and the caller then prints nothing
(the stored summary names the weapons: it is no fallback here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, ngettext

from battles.log.names import LogNames, UnknownShape, as_int, distance, volley_effect

__all__ = ["VEILED_KINDS", "veiled_line"]


def _fire(data: dict, names: LogNames, event: Any) -> str:
    range_mu = data.get("range")
    if isinstance(range_mu, bool) or not isinstance(range_mu, int | float):
        raise UnknownShape
    return gettext("%(ship)s fires at %(target)s, %(range)s mu: %(result)s") % {
        "ship": names.ship(data.get("ship")),
        "target": names.unit(data.get("target")),
        "range": distance(range_mu),
        "result": volley_effect(event.summary),
    }


def _launch(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(ship)s launches light units at %(target)s") % {
        "ship": names.ship(data.get("ship")),
        "target": names.unit(data.get("target")),
    }


def _point_defence(data: dict, names: LogNames, event: Any) -> str:
    kills = as_int(data.get("kills"))
    return ngettext(
        "%(ship)s fires at %(unit)s: %(n)d killed",
        "%(ship)s fires at %(unit)s: %(n)d killed",
        kills,
    ) % {"ship": names.ship(data.get("ship")), "unit": names.unit(data.get("unit")), "n": kills}


def _missile_strike(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(unit)s strikes %(target)s: %(result)s") % {
        "unit": names.unit(data.get("unit")),
        "target": names.ship(data.get("target")),
        "result": volley_effect(event.summary),
    }


_LINES: dict[str, Callable[[dict, LogNames, Any], str]] = {
    "fire": _fire,
    "launch": _launch,
    "point-defence": _point_defence,
    "missile-strike": _missile_strike,
}
#: The kinds whose line names the acting ship's systems or weapons (a missile's type).
VEILED_KINDS = frozenset(_LINES)


def veiled_line(event: Any, names: LogNames) -> str | None:
    """``event`` (``kind``, ``data``, ``summary``; its ``data["ship"]`` the blip) as its
    target's side may read it: no system nor weapon id; ``None`` when not to be printed
    (a kind outside :data:`VEILED_KINDS`, an unknown shape, an id missing from
    ``names``)."""
    build = _LINES.get(event.kind)
    if build is None or not isinstance(event.data, dict):
        return None
    try:
        return build(event.data, names, event)
    except (UnknownShape, KeyError, TypeError, ValueError):
        return None
