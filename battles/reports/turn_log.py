"""The turn log of an after-action report: a battle's ``Event`` rows grouped by game turn,
each turn's highlights and one-line summary (:func:`turn_log`), and the shorter log the PDF
prints (:func:`trim_for_print`). Used by :func:`battles.reports.context.report_context`."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from battles.log.lines import ship_named
from battles.log.names import LogNames

#: Volleys per turn the PDF lists (the summary line counts them all).
PDF_VOLLEYS_PER_TURN = 8
#: Highlights the PDF keeps besides those volleys; system hits, repairs, countdowns, crew
#: losses, PD and light-unit attacks stay in the HTML report (a long battle would run to
#: dozens of pages).
PRINT_KINDS = frozenset(
    {
        "setup", "result", "withdraw", "launch", "damage-destroyed", "damage-captured",
        "damage-derelict", "damage-core-shutdown", "damage-core-explosion", "damage-boarding",
    }
)  # fmt: skip

#: Engine event kinds left out of a turn's highlights (they stay in the full log):
#: bookkeeping, movement, sensors, the dice themselves and damage the fire lines already
#: tell (rules/turn.py lists every kind).
ROUTINE_KINDS = frozenset(
    {
        "roll", "deploy", "orders", "move", "light-unit-move", "contact", "contact-lost",
        "intent", "veil", "screens", "initiative-roll", "fire-refused", "damage-armour",
        "damage-hull", "damage-threshold", "damage-control", "crew-refused",
        "light-unit-spent", "light-unit-losses",
    }
)  # fmt: skip


def _highlight(event: Any) -> bool:
    if event.kind in ROUTINE_KINDS:
        return False
    if event.kind == "fire":
        return bool((event.data or {}).get("value"))  # a volley with no effect is routine
    return True


def _turn_summary(
    events: list[Any], side_names: dict[str, str], names: LogNames | None = None
) -> str:
    """One line for a turn of an engine log: initiative, volleys and damage, ships lost."""
    parts = []
    lost: dict[str, list[str]] = {"destroyed": [], "captured": [], "withdrew": []}
    volleys = damage = 0
    for e in events:
        data = e.data or {}
        if e.kind == "initiative" and data.get("winner"):
            name = side_names.get(data["winner"], data["winner"])
            parts.append(gettext("initiative: %(side)s") % {"side": name})
        elif e.kind == "fire":
            volleys += 1
            damage += int(data.get("value") or 0)
        elif e.kind in ("damage-destroyed", "damage-captured"):
            name = ship_named(e, names) if names else None
            lost[e.kind.removeprefix("damage-")].append(
                name or e.summary.split(" destroyed:")[0].split(" captured:")[0]
            )
        elif e.kind == "withdraw":
            name = ship_named(e, names) if names else None
            lost["withdrew"].append(name or e.summary.removesuffix(" withdraws"))
    if volleys:
        parts.append(
            ngettext("%(n)d volley, %(damage)d damage", "%(n)d volleys, %(damage)d damage", volleys)
            % {"n": volleys, "damage": damage}
        )
    labels = {
        "destroyed": gettext("destroyed: %(names)s"),
        "captured": gettext("captured: %(names)s"),
        "withdrew": gettext("withdrew: %(names)s"),
    }
    for what, names in lost.items():
        if names:
            parts.append(labels[what] % {"names": ", ".join(names)})
    # The list separator is punctuation French spaces (" ; "), so it is translated.
    return pgettext("punctuation", "; ").join(parts)


def turn_log(
    events: list[Any],
    *,
    engine: bool,
    side_names: dict[str, str] | None = None,
    names: LogNames | None = None,
) -> list[dict[str, Any]]:
    """A battle's ``Event`` rows grouped by game turn, for the report.

    Returns ``[{"turn": n, "events": [...], "summary": str, "log": [...], "rolls": int}]``.
    For a log written by people (``engine=False``) ``events`` is every row and the rest is
    empty. For an engine log (``battles.services.resolve``): ``events`` are the highlights (no
    :data:`ROUTINE_KINDS`, no volley without effect), ``summary`` one line (initiative,
    volleys and damage, ships destroyed / captured / withdrawn), ``log`` every row of the
    turn including each die (``kind == "roll"``) and ``rolls`` how many dice.
    """
    turns: list[dict[str, Any]] = []
    for event in events:
        if not turns or turns[-1]["turn"] != event.game_turn:
            turns.append({"turn": event.game_turn, "events": [], "summary": "", "log": []})
        turns[-1]["log" if engine else "events"].append(event)
    for turn in turns:
        turn["rolls"] = sum(1 for e in turn["log"] if e.kind == "roll")
        if engine:
            turn["events"] = [e for e in turn["log"] if _highlight(e)]
            turn["summary"] = _turn_summary(turn["log"], side_names or {}, names)
    return turns


def trim_for_print(turns: list[dict[str, Any]], *, volleys: int) -> None:
    """Shorten an engine log's highlights for the PDF, in place: keep the
    :data:`PRINT_KINDS` (set-up, ships lost or gone, launches, result) and at most
    ``volleys`` volleys per turn, in log order; how many highlights were left out goes to
    ``turn["more"]`` (the summary line still counts every volley). A log written by people
    is left whole."""
    for turn in turns:
        if not turn["log"]:
            continue
        kept, fired = [], 0
        for e in turn["events"]:
            if e.kind == "fire":
                fired += 1
                if fired > volleys:
                    continue
            elif e.kind not in PRINT_KINDS:
                continue
            kept.append(e)
        turn["more"] = len(turn["events"]) - len(kept)
        turn["events"] = kept
