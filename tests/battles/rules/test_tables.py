"""Exact values of every rule table (rules §7, §10–§13)."""

import pytest

from battles.rules import tables as t
from battles.rules.errors import RulesError
from battles.rules.options import DEFAULT_OPTIONS, OPTION_HELP, RuleOptions


def test_beam_table_per_die():
    assert t.BEAM_TABLE == (
        (0, 0, 0, 1, 1, 2),
        (0, 0, 0, 0, 1, 2),
        (0, 0, 0, 0, 1, 1),
        (0, 0, 0, 0, 0, 1),
    )
    assert t.beam_hits(6, 0) == 2 and t.beam_hits(4, 1) == 0 and t.beam_hits(5, 3) == 0


def test_pd_table_and_gunboat_modifier():
    assert t.PD_TABLE == (0, 0, 0, 1, 1, 2)
    assert t.PD_GUNBOAT_MODIFIER == -2
    assert t.CLASS1_PD_THRESHOLD == 5


def test_threshold_rows():
    assert [t.threshold_for_row(r) for r in (1, 2, 3, 4, 5)] == [6, 5, 4, 4, 4]
    with pytest.raises(ValueError):
        t.threshold_for_row(0)


def test_damage_control_and_boarding_thresholds():
    assert t.DAMAGE_CONTROL_THRESHOLD == {1: 6, 2: 5, 3: 4}
    assert t.BOARDING_THRESHOLD == {1: 6, 2: 5, 3: 4}
    assert t.FUSILIER_BOARDING_THRESHOLD == {1: None, 2: 6, 3: 5}
    assert (t.MARINES_REPEL_THRESHOLD, t.FUSILIER_MARINES_REPEL_THRESHOLD) == (4, 5)
    assert t.crew_threshold(t.DAMAGE_CONTROL_THRESHOLD, 5) == 4  # 3 is the maximum
    assert t.crew_threshold(t.DAMAGE_CONTROL_THRESHOLD, 0) is None
    assert t.crew_threshold(t.FUSILIER_BOARDING_THRESHOLD, 1) is None


def test_area_and_scattergun_tables():
    assert t.AREA_PLASMA_TABLE == (0, 0, 0, 1, 1, 2)
    assert t.SCATTERGUN_SHIP_TABLE == (0, 0, 0, 1, 1, 2)


def test_rule_options_defaults_and_parsing():
    assert RuleOptions() == DEFAULT_OPTIONS and DEFAULT_OPTIONS.non_default() == {}
    # every §16 D-n is an option
    section_16 = {"D-1", "D-3", "D-11", "D-12", "D-14", "D-16", "D-19", "D-21", "D-26"}
    section_16 |= {"D-27", "D-30", "D-31", "D-32", "D-33", "D-34"}
    assert section_16 <= set(OPTION_HELP.values())
    assert set(OPTION_HELP) == set(DEFAULT_OPTIONS.to_dict())
    opts = RuleOptions.from_dict({"rocket_pack_reroll": True, "mpc_dice": 2})
    assert opts.non_default() == {"rocket_pack_reroll": True, "mpc_dice": 2}
    assert RuleOptions.from_dict(None) == DEFAULT_OPTIONS
    with pytest.raises(RulesError, match="unknown rule option 'laser'"):
        RuleOptions.from_dict({"laser": 1})
    with pytest.raises(RulesError, match="true or false"):
        RuleOptions.from_dict({"rocket_pack_reroll": 1})
    with pytest.raises(RulesError, match="1–6"):
        RuleOptions.from_dict({"mpc_dice": 0})
    assert RuleOptions.from_dict({"blip_fire": "forbidden"}).blip_fire == "forbidden"
    with pytest.raises(RulesError, match="'blip_fire' must be one of allowed, forbidden"):
        RuleOptions.from_dict({"blip_fire": "penalised"})
    with pytest.raises(RulesError, match="must be a mapping"):
        RuleOptions.from_dict([("mpc_dice", 2)])
