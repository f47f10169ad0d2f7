"""A fought battle's log as the rows a stored battle keeps: every event and, just before
it, every die rolled since the event before (``BattleResult.interleaved``'s order).

Compiled with the engine (mypyc): storing a battle reads every die and event, and these
rows built in plain Python cost 3.1 M instructions of the Skirmish at Mieska's stored
fight (13.3 M the fight, callgrind: ``python -m bench.instructions``). The battles app
stores them (``battles.services.engine_log.engine_rows``).
"""

from __future__ import annotations

from typing import Any

from battles.rules.phases.event import Event

__all__ = ["log_rows"]


def log_rows(
    events: list[Event], roll_marks: list[int], dice: list[tuple[str, int, int]]
) -> list[dict[str, Any]]:
    """Rows ``{game_turn, phase, kind, summary, data}`` of ``events`` (``roll_marks[k]``:
    dice rolled when event ``k`` was logged) and ``dice`` (``(purpose, sides, face)``, as
    ``Dice.written`` gives them), each die just before the first event logged after it,
    with that event's turn and phase (dice after the last event take its turn and phase).

    A ``roll`` row's ``data`` is ``{"n" (1-based), "purpose", "sides", "result"}`` and its
    summary the ``Roll.notation`` (``purpose: dSIDES=FACE``); an event's row holds its
    summary and its own ``data`` dict (JSON types only, not copied). Raises ``ValueError``
    when ``roll_marks`` and ``events`` differ in length."""
    if len(roll_marks) != len(events):
        raise ValueError(f"log_rows: {len(roll_marks)} roll marks for {len(events)} events")
    rows: list[dict[str, Any]] = []
    done = 0  # dice already in rows
    turn = phase = 0
    for k, event in enumerate(events):
        turn, phase = event.turn, event.phase
        mark = roll_marks[k]
        if mark > done:
            _add_rolls(rows, dice, done, mark, turn, phase)
            done = mark
        # The event's slots read here, not through ``Event.summary`` / ``Event.data``
        # (``phases.event._Written``, a descriptor in plain Python that compiled code
        # calls as a Python function): the same values, written and kept the same way,
        # for 1.1 M fewer instructions of the 8.7 M these rows add to Mieska's fight.
        summary = event._summary
        if type(summary) is tuple:
            summary = event._summary = summary[0](*summary[1:])
        data = event._data
        if type(data) is tuple:
            data = event._data = data[0](*data[1:])
        rows.append(
            {
                "game_turn": turn,
                "phase": phase,
                "kind": event.kind,
                "summary": summary,
                "data": data,
            }
        )
    if events and done < len(dice):
        _add_rolls(rows, dice, done, len(dice), turn, phase)
    return rows


def _add_rolls(
    rows: list[dict[str, Any]],
    dice: list[tuple[str, int, int]],
    start: int,
    stop: int,
    turn: int,
    phase: int,
) -> None:
    """Append dice ``start``…``stop - 1`` as ``roll`` rows."""
    for n in range(start, stop):
        purpose, sides, face = dice[n]
        rows.append(
            {
                "game_turn": turn,
                "phase": phase,
                "kind": "roll",
                "summary": f"{purpose}: d{sides}={face}",
                "data": {"n": n + 1, "purpose": purpose, "sides": sides, "result": face},
            }
        )
