"""The engine's unit ids are made and read by ``battles.refs`` alone."""

from __future__ import annotations

import pytest

from battles.refs import (
    ENGINE_REF_IN_TEXT,
    light_units_ref,
    owner_ref,
    parse_ref,
    ship_ref,
)


@pytest.mark.parametrize("pk", [1, 7, 12, 40_321])
def test_refs_round_trip(pk):
    assert ship_ref(pk) == f"ship-{pk}"
    assert light_units_ref(pk) == f"lu-{pk}"
    assert parse_ref(ship_ref(pk)) == ("ship", pk)
    assert parse_ref(light_units_ref(pk)) == ("lu", pk)


def test_a_launched_unit_is_read_as_its_owner():
    assert parse_ref("ship-3.bay-1-2") == ("ship", 3)
    assert owner_ref("ship-3.bay-1-2") == "ship-3"
    assert owner_ref("lu-6.bay-a-1") == "lu-6"
    assert owner_ref("lu-6") == "lu-6"


@pytest.mark.parametrize(
    "junk",
    ["", "ship-", "ship-0", "ship-07", "ship-x", "lu-", "contact-1", "beam-2", " ship-3",
     "ship-3 ", "ship-3.", "SHIP-3", "ship-3.bay 1", None, 3, ["ship-3"]],
)  # fmt: skip
def test_parse_ref_refuses_junk(junk):
    with pytest.raises(ValueError, match="not an engine unit id"):
        parse_ref(junk)
    assert owner_ref(junk) is None


@pytest.mark.parametrize("pk", [0, -1, True, "3", 2.0, None])
def test_a_ref_needs_a_positive_int(pk):
    with pytest.raises(ValueError, match="positive integer"):
        ship_ref(pk)
    with pytest.raises(ValueError, match="positive integer"):
        light_units_ref(pk)


def test_refs_in_a_text():
    text = "ship-3 fires at lu-6.bay-a-1, not at xship-4 nor contact-2"
    assert ENGINE_REF_IN_TEXT.findall(text) == ["ship-3", "lu-6.bay-a-1"]
