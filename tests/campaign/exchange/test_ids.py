"""Ids inside stored JSON move between database ids and document keys, and back."""

from __future__ import annotations

import pytest

from campaign.exchange.ids import ENGINE, TURN_SUMMARY, TURN_UNDO, UnknownRef


def shift(by):
    def mapper(kind, value):
        if kind == "territory":
            return {7: "norge/trondelag", "norge/trondelag": 7}[value]
        if value > 100:
            raise KeyError(value)
        return value + by

    return mapper


def test_engine_ids_in_text_keys_and_row_ids_move():
    data = {
        "ships": {"ship-12": {"participant": 4, "ship": 12, "name": "Tyr"}},
        "fleets": [["ship-12", "lu-3.bay-a-1"]],
        "summary": "ship-12 fires at lu-3; relationship-5 and ship-12x stay",
        "turn": 2,
    }
    out = ENGINE(data, shift(10))
    assert out == {
        "ships": {"ship-22": {"participant": 14, "ship": 22, "name": "Tyr"}},
        "fleets": [["ship-22", "lu-13.bay-a-1"]],
        "summary": "ship-22 fires at lu-13; relationship-5 and ship-12x stay",
        "turn": 2,
    }
    assert ENGINE(out, shift(-10)) == data
    assert data["ships"]["ship-12"]["ship"] == 12  # the value given is left as it was


def test_an_unknown_engine_id_names_its_path():
    with pytest.raises(UnknownRef) as caught:
        ENGINE({"fleets": [["ship-1", "ship-101"]]}, shift(0))
    assert (caught.value.path, caught.value.ref) == ("fleets[0][1]", "ship-101")


def test_a_turns_summary_and_undo_record_move():
    summary = {
        "repairs": [{"ship": 5, "name": "Phyaa #5"}],
        "constructions": [{"id": 2}],
        "squadrons_lost": [{"id": 9}],
        "moves": [{"fleet": 1}],
        "income": [{"faction": "Qatzrin", "resources": 3}],
    }
    assert TURN_SUMMARY(summary, shift(1)) == {
        "repairs": [{"ship": 6, "name": "Phyaa #5"}],
        "constructions": [{"id": 3}],
        "squadrons_lost": [{"id": 10}],
        "moves": [{"fleet": 2}],
        "income": [{"faction": "Qatzrin", "resources": 3}],
    }
    undo = {
        "ships": {"5": {"hull_lost": 2}},
        "after": {"5": {"hull_lost": 0}},
        "orders": {"3": {"hull_done": 0}},
        "builds": {"2": {"ship_id": None, "light_units_id": 4, "turns_left": 1}},
        "created_ships": [],
        "created_lights": [4],
        "lights": {"9": 6},
        "ledger": [11, 12],
        "moves": {"8": {"fleet": 1, "territory": 7}},
    }
    moved = TURN_UNDO(undo, shift(1))
    assert moved == {
        "ships": {"6": {"hull_lost": 2}},
        "after": {"6": {"hull_lost": 0}},
        "orders": {"4": {"hull_done": 0}},
        "builds": {"3": {"ship_id": None, "light_units_id": 5, "turns_left": 1}},
        "created_ships": [],
        "created_lights": [5],
        "lights": {"10": 6},
        "ledger": [12, 13],
        "moves": {"9": {"fleet": 2, "territory": "norge/trondelag"}},
    }
    assert TURN_UNDO(moved, shift(-1)) == undo
    assert TURN_UNDO({}, shift(1)) == {}  # an open turn's empty record
