"""More battle log lines in the reader's language: light units (moves, landings, marks,
strikes), point defence, refused crew assignments, boarding and the rarer damage kinds.

Registered into :func:`battles.log.lines.event_line` with :data:`LIGHT_LINES`; each function
takes the event's ``data``, the log's names and the event, and raises ``UnknownShape`` for a
data shape it does not know so that :func:`battles.log.lines.event_line` falls back to the
stored summary. Weapon, system and bay ids stay the game's notation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext, ngettext

from battles.log.names import (
    LogNames,
    UnknownShape,
    as_int,
    distance,
    match_summary,
    volley_effect,
)

_CRAFT = r"\S+ \((?P<weapon>\S+) ×(?P<craft>\d+)\)"


def _land(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(unit)s lands on %(ship)s (%(bay)s), rearms until turn %(turn)d") % {
        "unit": names.unit(data.get("unit")),
        "ship": names.ship(data.get("ship")),
        "bay": data.get("system") or "?",
        "turn": as_int(data.get("ready_turn")),
    }


def _intent(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(unit)s marks %(target)s") % {
        "unit": names.unit(data.get("unit")),
        "target": names.ship(data.get("target")),
    }


def _attack_wreck(data: dict, names: LogNames, event: Any) -> str:
    return gettext("%(unit)s strikes the wreck of %(target)s") % {
        "unit": names.unit(data.get("unit")),
        "target": names.ship(data.get("target")),
    }


def _missile_strike(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(r"\S+ \((?P<weapon>\S+)\) strikes .*", event.summary)
    return gettext("%(unit)s (%(weapon)s) strikes %(target)s: %(result)s") % {
        "unit": names.unit(data.get("unit")),
        "weapon": found["weapon"],
        "target": names.ship(data.get("target")),
        "result": volley_effect(event.summary),
    }


def _light_unit_move(data: dict, names: LogNames, event: Any) -> str:
    found = match_summary(
        _CRAFT
        + r" flies (?P<mu>[\d.]+) mu (?P<way>back to|towards) (?P<to>.+?)(?P<on>, attaches)?",
        event.summary,
    )
    # The ship is named as the engine named it (the data keeps only the position).
    values = {"unit": names.unit(data.get("unit")), "mu": distance(found["mu"]), "to": found["to"]}
    if found["way"] == "back to":
        return gettext("%(unit)s flies %(mu)s mu back to %(to)s") % values
    if found["on"]:
        return gettext("%(unit)s flies %(mu)s mu towards %(to)s and attaches") % values
    return gettext("%(unit)s flies %(mu)s mu towards %(to)s") % values


def _point_defence(data: dict, names: LogNames, event: Any) -> str:
    kills = as_int(data.get("kills"))
    values = {
        "ship": names.ship(data.get("ship")),
        "system": data.get("system") or "?",
        "unit": names.unit(data.get("unit")),
        "n": kills,
    }
    if data.get("escort"):
        values["system"] = names.unit(data.get("system"))
        return (
            ngettext(
                "%(system)s escorting %(ship)s fires at %(unit)s: %(n)d killed",
                "%(system)s escorting %(ship)s fires at %(unit)s: %(n)d killed",
                kills,
            )
            % values
        )
    return (
        ngettext(
            "%(ship)s %(system)s fires at %(unit)s: %(n)d killed",
            "%(ship)s %(system)s fires at %(unit)s: %(n)d killed",
            kills,
        )
        % values
    )


def _crew_refused(data: dict, names: LogNames, event: Any) -> str:
    crew = as_int(data.get("crew"))
    return ngettext(
        "%(ship)s: %(crew)d crew on %(system)s refused (rules §12)",
        "%(ship)s: %(crew)d crew on %(system)s refused (rules §12)",
        crew,
    ) % {"ship": names.ship(data.get("ship")), "crew": crew, "system": data.get("system") or "?"}


def _damage_core_shutdown(data: dict, names: LogNames, event: Any) -> str:
    if data.get("detail") != "core shut down (§4)":
        raise UnknownShape
    return gettext("%(ship)s: core shut down (§4)") % {"ship": names.ship(data.get("ship"))}


def _damage_vampire(data: dict, names: LogNames, event: Any) -> str:
    if data.get("detail") != "vampire attached (§8)":
        raise UnknownShape
    return gettext("%(ship)s: vampire attached (§8)") % {"ship": names.ship(data.get("ship"))}


def _damage_repair(data: dict, names: LogNames, event: Any) -> str:
    ship, detail = names.ship(data.get("ship")), data.get("detail")
    if detail == "bridge back in service (§4)":
        return gettext("%(ship)s: bridge back in service (§4)") % {"ship": ship}
    if detail == "vampire neutralised (§12)":
        return gettext("%(ship)s: vampire neutralised (§12)") % {"ship": ship}
    found = match_summary(r"(\S+) repaired \(§12\)", detail)
    return gettext("%(ship)s: %(system)s repaired (§12)") % {"ship": ship, "system": found[1]}


def _damage_boarding(data: dict, names: LogNames, event: Any) -> str:
    ship, detail = names.ship(data.get("ship")), data.get("detail")
    if not isinstance(detail, str):
        raise UnknownShape
    aboard = _match_or_none(r"(\d+) (\S+) squad\(s\) aboard", detail)
    if aboard:
        n = int(aboard[1])
        return ngettext(
            "%(ship)s: %(n)d %(kind)s squad aboard",
            "%(ship)s: %(n)d %(kind)s squads aboard",
            n,
        ) % {"ship": ship, "n": n, "kind": aboard[2]}
    found = match_summary(r"(\S+) (not opposed|repelled by|not repelled) \(?([^)]*)\)?", detail)
    values = {"ship": ship, "kind": found[1], "by": found[3]}
    if found[2] == "not opposed":
        return gettext("%(ship)s: %(kind)s not opposed (%(by)s)") % values
    if found[2] == "repelled by":
        return gettext("%(ship)s: %(kind)s repelled by %(by)s") % values
    return gettext("%(ship)s: %(kind)s not repelled (%(by)s)") % values


def _match_or_none(pattern: str, text: str) -> Any:
    try:
        return match_summary(pattern, text)
    except UnknownShape:
        return None


def _fire_refused(data: dict, names: LogNames, event: Any) -> str:
    # The engine's reason is a rules error's English text; its class says it in short.
    reasons = {
        "OutOfArc": gettext("out of arc"),
        "OutOfRange": gettext("out of range"),
        "NoFireControl": gettext("no fire control"),
        "MagazineDestroyed": gettext("magazine empty or destroyed"),
    }
    reason = reasons.get(data.get("error"))
    if reason is None:
        raise UnknownShape
    return gettext("%(ship)s cannot fire %(system)s at %(target)s: %(reason)s") % {
        "ship": names.ship(data.get("ship")),
        "system": data.get("system") or "?",
        "target": names.unit(data.get("target")),
        "reason": reason,
    }


LIGHT_LINES: dict[str, Callable[[dict, LogNames, Any], str]] = {
    "land": _land,
    "intent": _intent,
    "attack-wreck": _attack_wreck,
    "missile-strike": _missile_strike,
    "light-unit-move": _light_unit_move,
    "point-defence": _point_defence,
    "crew-refused": _crew_refused,
    "damage-core-shutdown": _damage_core_shutdown,
    "damage-vampire": _damage_vampire,
    "damage-boarding": _damage_boarding,
    "damage-repair": _damage_repair,
    "fire-refused": _fire_refused,
}
