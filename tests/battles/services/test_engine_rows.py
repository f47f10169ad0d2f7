"""``engine_log.engine_rows`` (what ``battle_resolve`` stores) builds its rows from the dice
as kept and the events as logged; they must equal the rows written the plain way, from
``BattleResult.interleaved()``'s ``Roll`` and ``Event`` objects (recording cost)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles.rules.ai import BattleResult, resolve_battle
from battles.services.engine_log import engine_rows
from bench.fleets import phalon_68th, qatzrin_5th
from bench.mieska import mieska_battle


def _plain_rows(result: BattleResult) -> list[dict[str, Any]]:
    """The rows from ``interleaved()``: each die just before the next event, with its
    turn and phase; dice after the last event take the last event's."""
    rows: list[dict[str, Any]] = []
    pending = []
    for event, roll, n in result.interleaved():
        if event is None:
            pending.append((roll, n))
            continue
        for r, k in pending:
            rows.append(_roll(r, k, event.turn, event.phase))
        pending.clear()
        data = json.loads(json.dumps(event.data))
        rows.append(_row(event.turn, event.phase, event.kind, event.summary, data))
    last = result.events[-1]
    rows += [_roll(r, k, last.turn, last.phase) for r, k in pending]
    return rows


def _roll(roll: Any, n: int, turn: int, phase: int) -> dict[str, Any]:
    data = {"n": n + 1, "purpose": roll.purpose, "sides": roll.sides, "result": roll.result}
    return _row(turn, phase, "roll", roll.notation(), data)


def _row(turn: int, phase: int, kind: str, summary: str, data: Any) -> dict[str, Any]:
    return {"game_turn": turn, "phase": phase, "kind": kind, "summary": summary, "data": data}


@pytest.mark.parametrize("seed", [0, 7])
def test_engine_rows_equal_the_rows_written_from_rolls_and_events(seed: int) -> None:
    fought = [resolve_battle(qatzrin_5th(), phalon_68th(), seed=seed) for _ in range(2)]
    rows = engine_rows(fought[0])
    assert len([r for r in rows if r["kind"] == "roll"]) == len(fought[1].rolls) > 300
    assert rows == _plain_rows(fought[1])
    assert json.dumps(rows) == json.dumps(_plain_rows(fought[1]))  # same key order too


def test_engine_rows_of_mieska_equal_the_plain_rows_once_the_log_was_read() -> None:
    result = mieska_battle(record=True)
    assert result.rolls  # the Roll objects made first: engine_rows reads them as tuples
    assert engine_rows(result) == _plain_rows(mieska_battle(record=True))
