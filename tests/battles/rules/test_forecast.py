"""Monte-Carlo odds of who wins (battles/rules/forecast.py) and unrecorded battles.

An unrecorded battle (``record=False``) must end exactly as the recorded battle of the
same seed: the dice fall the same and every rule plays the same; only the log is gone.
"""

import gc
from dataclasses import fields

import pytest

from battles.rules.ai import resolve_battle
from battles.rules.dice import Dice, UnrecordedDice
from battles.rules.forecast import MAX_BATTLES, Forecast, win_odds
from bench.fleets import phalon_68th, qatzrin_5th
from tests.battles.rules.test_ai import beam, design, fleet


@pytest.fixture(scope="module")
def sample_fleets():
    return qatzrin_5th(), phalon_68th()


def _state(ship):
    return {f.name: getattr(ship, f.name) for f in fields(ship)}


@pytest.mark.parametrize("seed", range(12))
def test_unrecorded_battle_ends_as_the_recorded_one(sample_fleets, seed):
    qatzrin, phalon = sample_fleets
    recorded = resolve_battle(qatzrin, phalon, seed=seed)
    quiet = resolve_battle(qatzrin, phalon, seed=seed, record=False)
    assert (quiet.winner, quiet.reason, quiet.turns, quiet.strength) == (
        recorded.winner,
        recorded.reason,
        recorded.turns,
        recorded.strength,
    )
    assert {k: _state(s) for k, s in quiet.ships.items()} == {
        k: _state(s) for k, s in recorded.ships.items()
    }
    assert quiet.events == [] and quiet.rolls == [] and quiet.roll_marks == []
    assert len(recorded.events) > 100 and len(recorded.rolls) > 100


def test_unrecorded_dice_give_the_same_faces_and_keep_nothing():
    loud, quiet = Dice(7), UnrecordedDice(7)
    for dice in (loud, quiet):
        dice.d6("a")
        dice.die(20, "b")
        dice.roll(5, "c")
        dice.roll_chained(30, "d")
        list(dice.reroll_chain(6, "e"))
    assert [
        loud.d6("x"),
        loud.die(8, "x"),
        loud.roll(3, "x"),
        loud.roll_chained(4, "x", max_rerolls=1),
    ] == [
        quiet.d6("x"),
        quiet.die(8, "x"),
        quiet.roll(3, "x"),
        quiet.roll_chained(4, "x", max_rerolls=1),
    ]
    assert len(loud.log) > 40 and len(quiet.log) == 0
    with pytest.raises(ValueError, match="negative"):
        quiet.roll(-1, "x")
    with pytest.raises(ValueError, match="at least one side"):
        quiet.die(0, "x")


def test_win_odds_counts_every_battle_and_matches_single_battles(sample_fleets):
    qatzrin, phalon = sample_fleets
    forecast = win_odds(qatzrin, phalon, battles=15, seed=100)
    assert forecast.battles == 15 and forecast.seed == 100
    assert forecast.sides == ("qatzrin", "phalon")
    singles = [resolve_battle(qatzrin, phalon, seed=100 + i) for i in range(15)]
    for side in forecast.sides:
        assert forecast.wins[side] == sum(r.winner == side for r in singles)
    assert forecast.draws == sum(r.winner is None for r in singles)
    assert sum(forecast.wins.values()) + forecast.draws == 15
    assert sum(forecast.endings.values()) == 15
    assert forecast.turns == sum(r.turns for r in singles)
    assert gc.isenabled()  # the collector paused during the run is back on


def test_win_odds_is_reproducible_and_reports_progress():
    a = fleet("a", design("A1", systems=[beam("b1"), beam("b2")]))
    b = fleet("b", design("B1", systems=[beam("b1")]))
    seen = []
    first = win_odds(a, b, battles=6, seed=3, max_turns=8, progress=seen.append)
    assert seen == list(range(6))
    assert win_odds(a, b, battles=6, seed=3, max_turns=8) == first


def test_shares_and_wilson_interval_are_exact():
    f = Forecast(100, ("a", "b"), {"a": 80, "b": 15}, 5, {"destruction": 100}, 900, 0)
    assert f.share("a") == 0.8 and f.share("b") == 0.15 and f.share(None) == 0.05
    low, high = f.interval("a")
    # Wilson 95 % for 80/100: 0.7112 – 0.8666
    assert round(low, 4) == 0.7112 and round(high, 4) == 0.8666
    assert f.mean_turns == 9.0
    data = f.as_dict()
    assert [o["side"] for o in data["outcomes"]] == ["a", "b", None]
    assert data["outcomes"][0]["battles"] == 80
    assert Forecast(0, ("a", "b"), {"a": 0, "b": 0}, 0).interval("a") == (0.0, 1.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"battles": -1}, "battles"),
        ({"battles": MAX_BATTLES + 1}, "battles"),
        ({"battles": 1.5}, "battles"),
        ({"seed": -2}, "seed"),
    ],
)
def test_bad_arguments_are_refused(kwargs, message):
    a = fleet("a", design("A1", systems=[beam("b1")]))
    b = fleet("b", design("B1", systems=[beam("b1")]))
    with pytest.raises(ValueError, match=message):
        win_odds(a, b, **kwargs)
    with pytest.raises(ValueError, match="no ship"):
        win_odds([], b)


def test_win_odds_in_processes_gives_the_one_process_answer(sample_fleets):
    qatzrin, phalon = sample_fleets
    alone = win_odds(qatzrin, phalon, battles=45, seed=7, max_turns=12, workers=1)
    seen = []
    shared = win_odds(
        qatzrin, phalon, battles=45, seed=7, max_turns=12, workers=2, progress=seen.append
    )
    assert shared == alone and shared.as_dict() == alone.as_dict()
    assert seen == list(range(45))  # one call per battle, counted in order
    # Blocks of consecutive seeds: battle i still has seed 7 + i (a 3-battle slice agrees).
    part = win_odds(qatzrin, phalon, battles=3, seed=7 + 42, max_turns=12, workers=1)
    singles = [resolve_battle(qatzrin, phalon, seed=7 + 42 + i, max_turns=12) for i in range(3)]
    assert part.wins == {s: sum(r.winner == s for r in singles) for s in part.sides}
    assert gc.isenabled()


def test_win_odds_refuses_a_bad_worker_count():
    a = fleet("a", design("A1", systems=[beam("b1")]))
    b = fleet("b", design("B1", systems=[beam("b1")]))
    for workers in (0, -1, 1.5):
        with pytest.raises(ValueError, match="workers"):
            win_odds(a, b, battles=2, workers=workers)
