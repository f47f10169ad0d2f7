"""Property tests (hypothesis): volleys resolve, boxes never go negative, destroyed systems
never fire, and a seed replays the same log byte for byte."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.rules.damage import apply_hits, repel_boarders, tick_countdowns, tick_vampires
from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.rules.ships import ShipState, Status
from battles.rules.weapons import Effect, Family, fire, get_weapon, weapon_ids

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DESIGN = {
    "name": "Prop",
    "mass": 60,
    "thrust": 4,
    "hull": {"boxes": 12},
    "armour": {"layers": [2, 1]},
    "screens": 1,
    "fire_controls": 2,
    "systems": [
        {"id": "beam-a", "kind": "weapon", "weapon": "beam-1", "arcs": ["F"]},
        {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "magazine": "mag-a"},
        {"id": "mag-a", "kind": "magazine", "capacity": 2},
        {"id": "k-a", "kind": "weapon", "weapon": "kgun-2"},
        {"id": "pd-a", "kind": "pd"},
    ],
}


@st.composite
def volleys(draw):
    wid = draw(st.sampled_from(weapon_ids()))
    w = get_weapon(wid)
    range_mu = draw(st.integers(0, w.max_range))
    screen = draw(st.integers(0, 3))
    if w.effect is Effect.KILLS:
        target = draw(st.sampled_from(["fighter", "heavy-fighter", "gunboat", "plasma"]))
        if wid == "scattergun":
            target = draw(st.sampled_from([target, "ship"]))
    else:
        target = "ship"
    kw = {"power_points": draw(st.integers(0, 40))} if w.power_points else {}
    return wid, range_mu, screen, target, draw(st.integers(1, 4)), kw


@SETTINGS
@given(volleys(), st.integers(0, 2**32))
def test_any_valid_volley_resolves(volley, seed):
    wid, range_mu, screen, target, count, kw = volley
    v = fire(wid, Dice(seed), range_mu=range_mu, screen=screen, target=target, count=count, **kw)
    assert v.value >= 0 and v.damage >= 0 and v.kills >= 0 and v.systems >= 0
    if get_weapon(v.weapon).family is Family.BEAM and get_weapon(v.weapon).effect is Effect.DAMAGE:
        assert v.value == v.damage


@SETTINGS
@given(
    st.lists(st.tuples(st.sampled_from(weapon_ids()), st.integers(0, 72)), max_size=25),
    st.integers(0, 2**32),
    st.integers(0, 12),
    st.integers(0, 3),
)
def test_hull_and_armour_never_below_zero(shots, seed, hull_lost, armour_lost):
    ship = ShipState.from_design(
        DESIGN, ship_id="p", side="a", hull_lost=hull_lost, armour_lost=armour_lost
    )
    dice = Dice(seed)
    for wid, range_mu in shots:
        w = get_weapon(wid)
        if w.effect is not Effect.DAMAGE or range_mu > w.max_range:
            continue
        kw = {"power_points": 8} if w.power_points else {}
        v = fire(wid, dice, range_mu=range_mu, screen=ship.screen_level, **kw)
        apply_hits(ship, v.hits, dice)
        tick_vampires(ship, dice)
        tick_countdowns(ship, dice)
        repel_boarders(ship, dice)
        assert all(r >= 0 for r in ship.hull_rows) and all(a >= 0 for a in ship.armour)
        assert 0 <= ship.hull_left <= ship.hull_max and 0 <= ship.crew_left <= ship.crew_max
        if ship.hull_left == 0:
            assert ship.destroyed or ship.captured


@SETTINGS
@given(
    st.dictionaries(
        st.sampled_from(["beam-a", "torp-a", "mag-a", "k-a"]), st.sampled_from(list(Status))
    )
)
def test_a_system_that_is_not_working_never_fires(statuses):
    ship = ShipState.from_design(DESIGN, ship_id="p", side="a")
    for sid, status in statuses.items():
        ship.systems[sid].status = status
    for sid in ("beam-a", "torp-a", "k-a"):
        system = ship.systems[sid]
        blocked = not system.working or (sid == "torp-a" and not ship.systems["mag-a"].working)
        try:
            ship.ready_weapon(sid)
        except RulesError:
            assert blocked
        else:
            assert not blocked


@SETTINGS
@given(st.lists(volleys(), min_size=1, max_size=8), st.integers(0, 2**32))
def test_same_seed_replays_the_same_log(shots, seed):
    def run():
        dice = Dice(seed)
        ship = ShipState.from_design(DESIGN, ship_id="p", side="a")
        for wid, range_mu, screen, target, count, kw in shots:
            v = fire(wid, dice, range_mu=range_mu, screen=screen, target=target, count=count, **kw)
            apply_hits(ship, v.hits, dice)
        return dice.transcript().encode(), ship.notation()

    assert run() == run()
