"""The log written when read (recording cost): dice keep plain tuples until
``Dice.log`` is read, events their ``(write, *args)`` summary and data until read."""

from __future__ import annotations

from battles.rules.dice import Dice, Roll, UnrecordedDice
from battles.rules.phases.state import Event


def test_dice_log_writes_each_purpose_as_before() -> None:
    dice = Dice(3)
    dice.d6("threshold A-1")
    dice.roll(2, "initiative a, roll 1")
    chains = dice.roll_chained(40, "beam-1 vs X")
    assert dice.rolled == 3 + sum(len(c) for c in chains)
    log = dice.log
    assert log[0] == Roll("threshold A-1", 6, log[0].result)
    assert [r.purpose for r in log[1:3]] == [
        "initiative a, roll 1, die 1",
        "initiative a, roll 1, die 2",
    ]
    expected = []
    for i, chain in enumerate(chains, 1):
        expected.append((f"beam-1 vs X, die {i}", chain[0]))
        expected += [(f"beam-1 vs X, die {i}, re-roll {k}", f) for k, f in enumerate(chain[1:], 1)]
    assert [(r.purpose, r.result) for r in log[3:]] == expected
    assert any(len(c) > 1 for c in chains)  # seed 3 rolls at least one 6 in 40 dice


def test_dice_log_is_kept_and_cleared_as_a_list() -> None:
    dice = Dice(1)
    dice.d6("a")
    first = dice.log
    dice.d6("b")
    assert dice.log is first and [r.purpose for r in first] == ["a", "b"]
    dice.log.clear()
    dice.die(20, "c")
    assert [r.purpose for r in dice.log] == ["c"] and dice.rolled == 1


def test_reroll_chain_logs_re_rolls() -> None:
    dice = Dice(0)
    faces = list(dice.reroll_chain(6, "shot 1"))
    assert [r.purpose for r in dice.log] == [
        f"shot 1, re-roll {k}" for k in range(1, 1 + len(faces))
    ]


def test_unrecorded_dice_keep_nothing() -> None:
    quiet, loud = UnrecordedDice(5), Dice(5)
    assert quiet.roll_chained(6, "x") == loud.roll_chained(6, "x")
    assert quiet.log == [] and quiet.rolled == 0 and loud.rolled >= 6


def test_event_writes_summary_and_data_once_when_read() -> None:
    calls = []

    def write(a: int, b: int) -> dict[str, int]:
        calls.append((a, b))
        return {"sum": a + b}

    event = Event(2, 9, "fire", (str.upper, "hit"), (write, 1, 2))
    assert calls == []
    assert event.data == {"sum": 3} and event.data is event.data
    assert calls == [(1, 2)]
    assert event.summary == "HIT"
    assert event.as_dict() == {
        "turn": 2,
        "phase": 9,
        "kind": "fire",
        "summary": "HIT",
        "data": {"sum": 3},
    }
    assert Event(2, 9, "fire", "HIT", {"sum": 3}) == event


def test_dice_written_gives_the_log_as_tuples_without_making_rolls() -> None:
    dice = Dice(5)
    dice.d6("a")
    read = list(dice.log)  # one die read (a Roll), the rest still kept as tuples
    dice.roll(2, "b")
    dice.roll_chained(30, "c")
    written = dice.written()
    assert dice._new  # written() made no Roll of the dice not read yet
    assert written == [(r.purpose, r.sides, r.result) for r in dice.log]
    assert written[:3] == [read[0], ("b, die 1", 6, written[1][2]), ("b, die 2", 6, written[2][2])]
    assert any(", re-roll 1" in purpose for purpose, _, _ in written)  # seed 5: a 6 in 30
