"""Bad input: ``dice``, ``tables`` and ``forecast`` refuse wrong
arguments with ``BadArgument`` (a ``RulesError``) naming the field, never a plain
``ValueError`` / ``TypeError`` — and the right arguments still give the same answers."""

import random

import pytest

from battles.rules import tables
from battles.rules.dice import Dice, UnrecordedDice
from battles.rules.errors import BadArgument
from battles.rules.forecast import MAX_BATTLES, win_odds
from tests.battles.rules.test_ai import beam, design, fleet


@pytest.mark.parametrize("dice_class", [Dice, UnrecordedDice])
@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda d: d.roll(1.5, "volley"), r"n must be a whole number ≥ 0, got 1\.5"),
        (lambda d: d.roll("3", "volley"), r"n must be a whole number ≥ 0, got '3'"),
        (lambda d: d.roll(-1, "volley"), r"cannot roll a negative number of dice: n"),
        (lambda d: d.roll(True, "volley"), r"n must be a whole number"),
        (lambda d: d.roll(2, "volley", sides=0), r"at least one side: sides .* got 0"),
        (lambda d: d.die(None, "d3"), r"sides must be a whole number ≥ 1, got None"),
        (lambda d: d.die(2.0, "d3"), r"sides must be a whole number ≥ 1, got 2\.0"),
        (lambda d: d.roll_chained(2.5, "beam"), r"^roll_chained \(beam\): n must"),
        (lambda d: d.roll_chained(2, "beam", max_rerolls=-1), r"max_rerolls must be"),
        (lambda d: d.roll_chained(2, "beam", max_rerolls="1"), r"max_rerolls must be"),
    ],
)
def test_dice_name_the_bad_argument(dice_class, call, field):
    dice = dice_class(5)
    with pytest.raises(BadArgument, match=field):
        call(dice)
    # Nothing was rolled by the refused call: the stream continues as from a fresh seed.
    assert dice.d6("next") == dice_class(5).d6("next")


def test_dice_still_roll_what_they_rolled():
    # The faces are those of random.Random(seed): int(random() × sides) + 1 (dice.py).
    rng = random.Random(11)
    expected = [int(rng.random() * 6) + 1 for _ in range(3)] + [int(rng.random() * 3) + 1]
    loud = Dice(11)
    assert loud.roll(3, "v") + [loud.die(3, "d3")] == expected
    assert [r.purpose for r in loud.log] == ["v, die 1", "v, die 2", "v, die 3", "d3"]
    rng = random.Random(11)
    firsts = [[int(rng.random() * 6) + 1] for _ in range(3)]
    assert Dice(11).roll_chained(3, "v", max_rerolls=0) == firsts


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tables.beam_hits(0, 1), r"^beam_hits: face must be 1–6 .* got 0"),
        (lambda: tables.beam_hits(7, 1), r"^beam_hits: face must be 1–6"),
        (lambda: tables.beam_hits("6", 1), r"^beam_hits: face must be a whole number"),
        (lambda: tables.beam_hits(6, -1), r"^beam_hits: screen must be 0–3, got -1"),
        (lambda: tables.beam_hits(6, 4), r"^beam_hits: screen must be 0–3, got 4"),
        (lambda: tables.beam_hits(6, 1.0), r"^beam_hits: screen must be a whole number"),
        (lambda: tables.threshold_for_row(0), r"^threshold_for_row: .*row_number must be"),
        (lambda: tables.threshold_for_row(1.0), r"row_number must be a whole number ≥ 1"),
        (lambda: tables.crew_threshold(tables.BOARDING_THRESHOLD, None), r"crew must be"),
        (lambda: tables.crew_threshold(tables.BOARDING_THRESHOLD, 2.5), r"crew must be"),
    ],
)
def test_tables_name_the_bad_argument(call, message):
    with pytest.raises(BadArgument, match=message):
        call()


def test_tables_still_answer_as_the_seed_says():
    assert [tables.beam_hits(f, 0) for f in range(1, 7)] == [0, 0, 0, 1, 1, 2]  # §7
    assert tables.beam_hits(6, 3) == 1
    assert [tables.threshold_for_row(r) for r in (1, 2, 3)] == [6, 5, 4]  # §11
    assert tables.crew_threshold(tables.BOARDING_THRESHOLD, 0) is None  # §13
    assert tables.crew_threshold(tables.BOARDING_THRESHOLD, 5) == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"battles": 1.5}, r"^win_odds: battles must be a whole number"),
        ({"battles": "10"}, r"^win_odds: battles must be a whole number"),
        ({"battles": MAX_BATTLES + 1}, rf"^win_odds: battles must be 0–{MAX_BATTLES}"),
        ({"seed": -2}, r"^win_odds: seed must be a whole number ≥ 0, got -2"),
        ({"seed": None}, r"^win_odds: seed must be"),
        ({"max_turns": 0}, r"^win_odds: max_turns must be a whole number ≥ 1"),
        ({"workers": 0}, r"^win_odds \(None: every core\): workers must be"),
        ({"workers": 1.5}, r"workers must be a whole number ≥ 1"),
    ],
)
def test_win_odds_names_the_bad_argument(kwargs, message):
    a = fleet("a", design("A1", systems=[beam("b1")]))
    b = fleet("b", design("B1", systems=[beam("b1")]))
    with pytest.raises(BadArgument, match=message):
        win_odds(a, b, **kwargs)


@pytest.mark.parametrize(
    ("fleet_a", "message"),
    [
        ([], r"^win_odds: fleet_a has no ship"),
        (None, r"^win_odds: fleet_a must be a sequence of ShipState, got NoneType"),
        ("a1", r"^win_odds: fleet_a must be a sequence of ShipState, got str"),
        ([{"name": "a1"}], r"^win_odds: fleet_a must be a sequence of ShipState$"),
    ],
)
def test_win_odds_names_the_bad_fleet(fleet_a, message):
    b = fleet("b", design("B1", systems=[beam("b1")]))
    with pytest.raises(BadArgument, match=message):
        win_odds(fleet_a, b, battles=2)
