"""Battle log lines in the reader's language for the damage kinds: hull, armour and crew
lost, hull rows completed, systems destroyed or damaged (threshold checks §10, EMP D-18),
countdowns (§4), damage control, ships destroyed, captured or derelict.

Registered into :func:`battles.log.lines.event_line` with :data:`DAMAGE_LINES`; each
function takes the event's ``data``, the log's names and the event, and raises
``UnknownShape`` (through ``match_summary``) for a data shape it does not know so that the stored
summary is shown instead. System ids stay the game's notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, ngettext

from battles.log.names import LogNames, as_int, match_summary


def _damage_control(data: dict, names: LogNames, event: Any) -> str:
    crew = as_int(data.get("crew"))
    return ngettext(
        "%(ship)s: %(crew)d crew on %(system)s",
        "%(ship)s: %(crew)d crew on %(system)s",
        crew,
    ) % {"ship": names.ship(data.get("ship")), "crew": crew, "system": data.get("system") or "?"}


def _damage_hull(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r"(.*): -(\d+) hull", data.get("detail"))
    n = int(found[2])
    return ngettext(
        "%(ship)s loses %(n)d hull box (%(source)s)",
        "%(ship)s loses %(n)d hull boxes (%(source)s)",
        n,
    ) % {"ship": names.ship(data.get("ship")), "n": n, "source": _source(found[1])}


def _damage_armour(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r"(.*): -(\d+) armour", data.get("detail"))
    n = int(found[2])
    return ngettext(
        "%(ship)s loses %(n)d armour box (%(source)s)",
        "%(ship)s loses %(n)d armour boxes (%(source)s)",
        n,
    ) % {"ship": names.ship(data.get("ship")), "n": n, "source": _source(found[1])}


def _source(text: str) -> str:
    phase = re.fullmatch(r"phase (\d+)", text)
    if phase:
        return gettext("phase %(n)d") % {"n": int(phase[1])}
    known = {
        "fire": gettext("fire"),
        "vampire": gettext("vampire"),
        "boarders": gettext("boarders"),
    }
    return known.get(text, text)


def _damage_destroyed(data: dict, names: LogNames, event: Any) -> str:
    ship = names.ship(data.get("ship"))
    if data.get("detail") == "last hull box gone (§11)":
        return gettext("%(ship)s destroyed: last hull box gone (§11)") % {"ship": ship}
    return gettext("%(ship)s destroyed") % {"ship": ship}


def _damage_captured(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(ship)s captured: boarders took the ship (§13)") % {
        "ship": names.ship(data.get("ship"))
    }


def _damage_derelict(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(ship)s is a derelict: life support failed (§4)") % {
        "ship": names.ship(data.get("ship"))
    }


def _damage_row(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r"hull row (\d+) completed, -(\d+) armour", data.get("detail"))
    ship, row, lost = names.ship(data.get("ship")), int(found[1]), int(found[2])
    if not lost:
        return gettext("%(ship)s: hull row %(row)d completed") % {"ship": ship, "row": row}
    return ngettext(
        "%(ship)s: hull row %(row)d completed, %(n)d armour box lost",
        "%(ship)s: hull row %(row)d completed, %(n)d armour boxes lost",
        lost,
    ) % {"ship": ship, "row": row, "n": lost}


def _damage_system(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r"(\S+) (destroyed|damaged) \((.*)\)", data.get("detail"))
    values = {"ship": names.ship(data.get("ship")), "system": found[1], "why": _why(found[3])}
    if found[2] == "destroyed":
        return gettext("%(ship)s: %(system)s destroyed (%(why)s)") % values
    return gettext("%(ship)s: %(system)s damaged (%(why)s)") % values


def _why(text: str) -> str:
    """Why a system failed: a threshold check's row (§10) or an EMP hit (D-18)."""
    row = re.fullmatch(r"threshold row (\d+)", text)
    if row:
        return gettext("threshold check, row %(n)d") % {"n": int(row[1])}
    if text == "EMP, D-18":
        return gettext("EMP, D-18")
    return text


def _damage_countdown(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r"(\S+): (\d+) turn\(s\) \(§4\)", data.get("detail"))
    turns = int(found[2])
    return ngettext(
        "%(ship)s countdown: %(system)s fails in %(n)d turn (§4)",
        "%(ship)s countdown: %(system)s fails in %(n)d turns (§4)",
        turns,
    ) % {"ship": names.ship(data.get("ship")), "system": found[1], "n": turns}


def _damage_crew(data: dict, names: LogNames, event: Any) -> str:
    lost = as_int(data.get("amount"))
    return ngettext(
        "%(ship)s loses %(n)d crew factor (D-9)",
        "%(ship)s loses %(n)d crew factors (D-9)",
        lost,
    ) % {"ship": names.ship(data.get("ship")), "n": lost}


DAMAGE_LINES: dict[str, Callable[[dict, LogNames, Any], str]] = {
    "damage-control": _damage_control,
    "damage-hull": _damage_hull,
    "damage-armour": _damage_armour,
    "damage-destroyed": _damage_destroyed,
    "damage-captured": _damage_captured,
    "damage-derelict": _damage_derelict,
    "damage-row": _damage_row,
    "damage-system": _damage_system,
    "damage-countdown": _damage_countdown,
    "damage-crew": _damage_crew,
}
