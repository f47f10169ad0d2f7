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


def _json_only(value: Any) -> bool:
    """True when ``value`` is made of JSON's own types alone (str keys, lists, no tuple,
    no NaN): what JSON gives back is then equal to it, and of the same types."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _json_only(v) for k, v in value.items())
    if kind is list:
        return all(_json_only(v) for v in value)
    if kind is float:
        return value == value  # noqa: PLR0124  (NaN is not equal to itself)
    return value is None or kind in (str, int, bool)


def test_engine_rows_hold_only_json_types_and_share_no_object() -> None:
    """engine_rows hands the events' data over as the engine wrote it (no JSON round
    trip): every row's data is JSON's own types, and no two rows share a dict or list."""
    battles = [mieska_battle(record=True)]
    battles += [resolve_battle(qatzrin_5th(), phalon_68th(), seed=s) for s in range(6)]
    for result in battles:
        rows = engine_rows(result)
        assert all(_json_only(row["data"]) for row in rows)
        assert [row["data"] for row in rows] == json.loads(json.dumps([r["data"] for r in rows]))
        seen: set[int] = set()
        for row in rows:
            stack: list[Any] = [row["data"]]
            while stack:
                value = stack.pop()
                if type(value) in (dict, list):
                    assert id(value) not in seen
                    seen.add(id(value))
                    stack.extend(value.values() if type(value) is dict else value)
