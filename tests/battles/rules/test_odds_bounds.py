"""Odds requests are bounded by the dice they sum
(``MAX_REQUEST_DICE``), kinetic gun classes are the catalogue's (1–6), and a count below 1
is a ``RulesError`` naming the weapon instead of an endless loop in ``_power()``."""

import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command

from battles.rules.dice import Dice
from battles.rules.errors import RulesError, UnknownWeapon
from battles.rules.odds import MAX_REQUEST_DICE, odds
from battles.rules.weapons import fire, get_weapon
from tests.conftest import ROOT


@pytest.mark.parametrize("count", [0, -1, -2, -(10**9)])
@pytest.mark.parametrize("weapon", ["lance", "pd", "beam-1", "kgun-2", "needle-nodule"])
def test_a_count_below_one_names_the_weapon(weapon, count):
    with pytest.raises(RulesError, match=rf"^{weapon}: count must be a whole number ≥ 1"):
        odds(weapon, range_mu=5, count=count)


def test_negative_power_points_are_refused():
    with pytest.raises(RulesError, match=r"needle-nodule: needs a number of power points ≥ 0"):
        odds("needle-nodule", range_mu=5, power_points=-1)


@pytest.mark.parametrize(
    ("weapon", "range_mu", "kwargs", "counted"),
    [
        ("needle-nodule", 0, {"power_points": 256, "count": 100}, "25600 dice"),
        ("pulser", 0, {"count": 100}, "100 weapon(s) × 6 dice = 600 dice"),
        ("kgun-6", 0, {"count": 100}, "100 shot(s) × class 6"),
        ("missile-heavy", 12, {"count": 100}, "100 shot(s) × 4 dice (to-hit and damage)"),
        ("pd", 0, {"count": 301}, "301 weapon(s), one die each = 301 dice"),
    ],
)
def test_a_volley_above_the_dice_limit_is_refused_at_once(weapon, range_mu, kwargs, counted):
    with pytest.raises(RulesError) as exc:
        odds(weapon, range_mu=range_mu, max_dice=MAX_REQUEST_DICE, **kwargs)
    message = str(exc.value)
    assert message.startswith(f"{weapon}: ")
    assert counted in message and f"limit of {MAX_REQUEST_DICE} dice" in message


@pytest.mark.parametrize(
    ("weapon", "range_mu", "kwargs"),
    [
        ("beam-1", 0, {"count": 100}),  # 300 dice: at the limit
        ("needle-nodule", 0, {"power_points": 300}),
        ("kgun-6", 0, {"count": 50}),
        ("kgun-1", 0, {"count": 300}),
        ("missile-heavy", 12, {"count": 75}),
    ],
)
def test_volleys_at_the_limit_are_answered(weapon, range_mu, kwargs):
    result = odds(weapon, range_mu=range_mu, max_dice=MAX_REQUEST_DICE, **kwargs)
    assert result.mean > 0


def test_kinetic_gun_classes_are_the_catalogues():
    for wid in ("kgun-1", "kgun-6", "kgun-hv-6", "kgun-lv-5"):
        assert get_weapon(wid).kinetic_class == int(wid[-1])
    for wid in ("kgun-0", "kgun-7", "kgun-9", "kgun-99", "kgun-hv-99", "kgun-lv-10"):
        with pytest.raises(UnknownWeapon):
            get_weapon(wid)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--weapon", "lance", "--range", "5", "--count", "-1"], "--count must be 1–100, got -1"),
        (["--weapon", "beam-1", "--range", "12", "--count", "0"], "--count must be 1–100, got 0"),
        (["--weapon", "beam-1", "--range", "12", "--count", "1000"], "got 1000"),
        (
            ["--weapon", "needle-nodule", "--range", "5", "--power-points", "100000000"],
            "limit of 300 dice",
        ),
        (["--weapon", "pulser", "--range", "0", "--count", "100"], "600 dice"),
        (["--weapon", "kgun-99", "--range", "0"], "unknown weapon id 'kgun-99'"),
    ],
)
def test_the_command_has_the_apis_bounds(args, fragment):
    with pytest.raises(CommandError) as exc:
        call_command("odds", *args)
    assert fragment in str(exc.value)


@pytest.mark.parametrize("count", ["-1", "-2"])
def test_odds_with_a_negative_count_ends_quickly_with_an_error(count):
    # It used to loop forever in _power() (-1 >> 1 == -1): run it as a process, killed
    # after 60 s at worst.
    proc = subprocess.run(
        [sys.executable, "manage.py", "odds", "--weapon", "pd", "--range", "5", "--count", count],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert f"CommandError: pd: --count must be 1–100, got {count}" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---- messages name the weapon and the rule section ----------------------------------


def test_fire_and_odds_name_the_section_for_an_unknown_target_kind():
    expected = r"^beam-1: unknown target kind 'dragon', expected one of ship, .* \(§8–10\)$"
    with pytest.raises(RulesError, match=expected):
        fire("beam-1", Dice(1), range_mu=5, target="dragon")
    with pytest.raises(RulesError, match=expected):
        odds("beam-1", range_mu=5, target="dragon")
    with pytest.raises(CommandError, match=r"unknown target kind 'dragon'.*\(§8–10\)"):
        call_command("odds", "--weapon", "beam-1", "--range", "5", "--target", "dragon")


def test_fire_names_the_section_for_a_negative_count():
    with pytest.raises(RulesError, match=r"^beam-1: cannot fire -1 weapons, .*≥ 0 \(§8–10\)$"):
        fire("beam-1", Dice(1), range_mu=5, count=-1)
    with pytest.raises(RulesError, match=r"^beam-1: count must be .*, got -1 \(§8–10\)$"):
        odds("beam-1", range_mu=5, count=-1)


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_the_apis_not_a_number_message_names_the_weapon(client, value):
    r = client.get("/api/rules/odds", {"weapon": "beam-2", "range": value})
    assert r.status_code == 400
    assert r.json()["detail"].startswith(
        f"beam-2\u202f: la portée «\u202f{value}\u202f» n’est pas un nombre"
    )
    unknown = client.get("/api/rules/odds", {"weapon": "death-ray", "range": value})
    assert unknown.status_code == 400
    assert "unknown weapon id 'death-ray'" in unknown.json()["detail"]
