"""Dice: seeded, recorded, never the global random."""

import random

from battles.rules.dice import Dice, Roll


def test_same_seed_gives_the_same_faces_and_log():
    a, b = Dice(42), Dice(42)
    assert a.roll(50, "beam-1 vs Ra'am") == b.roll(50, "beam-1 vs Ra'am")
    assert a.log == b.log
    assert a.transcript() == b.transcript()


def test_different_seeds_differ():
    assert Dice(1).roll(30, "x") != Dice(2).roll(30, "x")


def test_every_roll_is_logged_with_its_purpose():
    dice = Dice(7)
    faces = dice.roll(3, "beam-2 vs Sa'ar")
    assert [r.result for r in dice.log] == faces
    assert dice.log[1] == Roll("beam-2 vs Sa'ar, die 2", 6, faces[1])
    dice.die(3, "heavy fighters lost")
    assert dice.log[-1].sides == 3 and 1 <= dice.log[-1].result <= 3


def test_faces_cover_one_to_six_evenly():
    dice = Dice(3)
    faces = dice.roll(60_000, "spread")
    counts = [faces.count(f) for f in range(1, 7)]
    assert all(abs(c - 10_000) < 400 for c in counts), counts


def test_global_random_is_untouched():
    random.seed(99)
    expected = random.random()
    random.seed(99)
    Dice(5).roll(10, "x")
    assert random.random() == expected


def test_reroll_chain_continues_on_sixes_only():
    dice = Dice(0)
    assert list(dice.reroll_chain(5, "die")) == []
    chain = list(dice.reroll_chain(6, "die"))
    assert chain and all(f == 6 for f in chain[:-1]) and chain[-1] != 6
    assert dice.log[0].purpose == "die, re-roll 1"


def test_roll_notation():
    assert Roll("beam-1 vs Ra'am, die 2", 6, 4).notation() == "beam-1 vs Ra'am, die 2: d6=4"


def test_roll_chained_follows_sixes_and_logs_rerolls():
    dice = Dice(11)
    chains = dice.roll_chained(2000, "beam-1 vs Ra'am")
    assert len(chains) == 2000
    for faces in chains:
        assert all(f == 6 for f in faces[:-1]) and faces[-1] != 6
    assert len(dice.log) == sum(len(c) for c in chains)
    assert any(len(c) > 2 for c in chains)
    again = Dice(11)
    assert again.roll_chained(2000, "beam-1 vs Ra'am") == chains
    capped = Dice(11).roll_chained(2000, "x", max_rerolls=1)
    assert max(len(c) for c in capped) == 2
    assert all(len(c) == 1 for c in Dice(11).roll_chained(50, "x", chain=False))
