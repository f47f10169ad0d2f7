"""Squadron craft followed through launches, landings and losses (battles.services)."""

from battles.services.resolve import craft_left_after as _craft_left


def _row(kind, **data):
    return {"kind": kind, "data": data}


LAUNCH = _row("launch", ship="c1", system="bay-a", unit="u1", craft=6)


def test_launched_squadron_keeps_its_craft_left_after_losses():
    rows = [LAUNCH, _row("light-unit-losses", unit="u1", craft=4)]
    assert _craft_left(rows, destroyed=set()) == {("c1", "bay-a"): 4}


def test_squadron_landed_on_a_carrier_destroyed_later_is_lost_with_it():
    rows = [LAUNCH, _row("land", unit="u1", ship="c1", system="bay-a", craft=5)]
    assert _craft_left(rows, destroyed={"c1"}) == {("c1", "bay-a"): 0}
    assert _craft_left(rows, destroyed=set()) == {("c1", "bay-a"): 5}


def test_squadron_relaunched_from_another_bay_is_booked_to_its_own_group():
    rows = [
        LAUNCH,
        _row("land", unit="u1", ship="c2", system="bay-b", craft=5),
        _row("launch", ship="c2", system="bay-b", unit="u7", craft=5),
        _row("light-unit-losses", unit="u7", craft=2),
    ]
    assert _craft_left(rows, destroyed={"c2"}) == {("c1", "bay-a"): 2}
