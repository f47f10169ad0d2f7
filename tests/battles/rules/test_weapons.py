"""The weapon catalogue and the one-path-per-family resolution (§8–§10)."""

import pytest

from battles.rules.dice import Dice, Roll
from battles.rules.errors import OutOfRange, RulesError, UnknownWeapon
from battles.rules.options import RuleOptions
from battles.rules.weapons import (
    CATALOGUE,
    DamageType,
    Effect,
    Family,
    fire,
    get_weapon,
    kinetic_reroll_add,
    weapon_ids,
)


class FixedDice(Dice):
    """Dice that show the given faces in order (for scenario tests), still logging them."""

    def __init__(self, faces):
        super().__init__(0)
        self._faces = list(faces)

    def d6(self, purpose):
        face = self._faces.pop(0)
        self.log.append(Roll(purpose, 6, face))
        return face

    def die(self, sides, purpose):
        return self.d6(purpose)

    def roll(self, n, purpose, sides=6):
        return [self.die(sides, f"{purpose}, die {i}") for i in range(1, n + 1)]

    def roll_chained(self, n, purpose, *, chain=True, max_rerolls=None):
        out = []
        for i in range(1, n + 1):
            faces = [self.d6(f"{purpose}, die {i}")]
            while chain and faces[-1] == 6 and (max_rerolls is None or len(faces) <= max_rerolls):
                faces.append(self.d6(f"{purpose}, die {i}, re-roll {len(faces)}"))
            out.append(faces)
        return out


def dice_of(w, r, **kw):
    return get_weapon(w).dice_at(r, **kw)


def test_beam_dice_by_band():
    assert [dice_of("beam-1", r) for r in (0, 12, 13, 24, 25, 36)] == [3, 3, 2, 2, 1, 1]
    assert [dice_of("beam-2", r) for r in (12, 13, 24)] == [2, 1, 1]
    assert dice_of("beam-3", 12) == 1
    with pytest.raises(OutOfRange, match=r"beam-3.*§8"):
        dice_of("beam-3", 13)


def test_needle_nodule_seed_example_6_pp():
    # Seed: 6 PP buy 6d6 at ≤12 mu, 3d6 at ≤24, 1d6 at ≤36 (rounded down); 32 PP reach 72 mu.
    assert [dice_of("needle-nodule", r, power_points=6) for r in (12, 24, 36, 48)] == [6, 3, 1, 0]
    assert dice_of("needle-nodule", 72, power_points=32) == 1
    with pytest.raises(OutOfRange):
        dice_of("needle-nodule", 73, power_points=64)


def test_pulser_modes_and_rocket_pack():
    assert [dice_of(f"pulser-{m}", 12) for m in ("short", "medium", "long")] == [6, 2, 1]
    assert dice_of("pulser-long", 36) == 1
    assert [dice_of("rocket-pack", r) for r in (6, 7, 12, 13, 18)] == [3, 2, 2, 1, 1]


def test_to_hit_bands():
    torp = get_weapon("plasma-torpedo")
    assert [torp.band(r).to_hit for r in (0, 3, 4, 6, 7, 12, 13, 18, 19, 24)] == [
        3,
        3,
        3,
        3,
        4,
        4,
        5,
        5,
        6,
        6,
    ]
    missile = get_weapon("missile-standard")
    assert [missile.band(r).to_hit for r in (12, 13, 18, 19, 24, 25, 36)] == [3, 4, 4, 5, 5, 6, 6]
    assert get_weapon("lance").band(9).to_hit == 6


@pytest.mark.parametrize(("prefix", "width"), [("kgun-", 6), ("kgun-hv-", 9), ("kgun-lv-", 4)])
def test_kinetic_bands(prefix, width):
    w = get_weapon(f"{prefix}2")
    assert w.kinetic_class == 2 and w.family is Family.KINETIC
    assert [(b.lo, b.hi, b.to_hit) for b in w.bands] == [
        (0 if i == 0 else width * i + 1, width * (i + 1), 2 + i) for i in range(5)
    ]


def test_kinetic_reroll_values():
    # D-15: re-roll above c adds c, at or below c adds 2c.
    assert [kinetic_reroll_add(f, 3) for f in range(1, 7)] == [6, 6, 6, 3, 3, 3]
    assert [kinetic_reroll_add(f, 1) for f in range(1, 7)] == [2, 1, 1, 1, 1, 1]


def test_every_listed_id_resolves_and_has_a_source():
    for wid in weapon_ids():
        w = get_weapon(wid)
        assert w.id == wid and w.section.startswith("§") and w.bands


def test_catalogue_covers_every_row():
    for wid in (
        "beam-1",
        "beam-2",
        "beam-3",
        "lance",
        "needle-nodule",
        "pulser",
        "plasma-torpedo",
        "rocket-pack",
        "mpc",
        "penetrator",
        "vampire",
        "interceptor-nodule",
        "missile-standard",
        "missile-heavy",
        "missile-salvo",
        "fighter-interceptor",
        "fighter-heavy",
        "drone",
        "gunboat-pd",
        "gunboat-mpc",
        "gunboat-assault",
        "gunboat-transport",
        "gunboat-heavy-transport",
        "gunboat-emp",
        "pd",
        "adaf",
        "spicule",
        "scattergun",
        "plasma-bolt",
    ):
        assert wid in CATALOGUE
    assert get_weapon("long-range-fighter").id == "fighter-long-range"
    assert get_weapon("graser-2").provisional


def test_unknown_weapon():
    with pytest.raises(UnknownWeapon, match="death-ray"):
        get_weapon("death-ray")
    with pytest.raises(UnknownWeapon):
        get_weapon("kgun-0")


def test_damage_types():
    assert get_weapon("beam-1").damage_type is DamageType.PENETRATING
    assert get_weapon("plasma-torpedo").damage_type is DamageType.SEMI_PIERCING
    assert get_weapon("kgun-3").damage_type is DamageType.PIERCING
    assert get_weapon("mpc").damage_type is DamageType.PIERCING
    assert get_weapon("lance").effect is Effect.SYSTEM


def test_class_2_beam_seed_example():
    # Seed: a class-2 beam at 12 mu rolls 2d6 against an unscreened ship; 1–3 no hit, 4–5 one
    # hit, a 6 two hits and a re-roll. Faces 6, 4 then re-roll 5 → 2 + 1 + 1 = 4 hits.
    dice = FixedDice([6, 4, 5])
    v = fire("beam-2", dice, range_mu=12, screen=0, target_name="Ra'am")
    assert v.value == 4 and v.dice == 2
    assert [h.reroll for h in v.hits] == [False, False, False, True]
    assert v.notation() == "beam-2 @12mu s0 vs ship: 2 dice → 4 damage (1 re-roll)"
    assert [r.purpose for r in dice.log] == [
        "beam-2 vs Ra'am, die 1",
        "beam-2 vs Ra'am, die 1, re-roll 1",
        "beam-2 vs Ra'am, die 2",
    ]


def test_screens_change_the_row_and_rocket_packs_ignore_them():
    assert fire("beam-2", FixedDice([4, 6, 1]), range_mu=5, screen=1).value == 2
    assert fire("rocket-pack", FixedDice([4, 6, 6]), range_mu=5, screen=3).value == 5
    v = fire("rocket-pack", FixedDice([4, 6, 6]), range_mu=5)
    assert len(v.hits) == 1 and v.hits[0].damage_type is DamageType.SEMI_PIERCING


def test_reroll_options():
    # D-11 alternative: no re-roll against screens.
    opts = RuleOptions(reroll_against_screens=False)
    assert fire("beam-3", FixedDice([6]), range_mu=5, screen=1, options=opts).value == 2
    # D-11 alternative: one re-roll only.
    opts = RuleOptions(reroll_chains=False)
    assert fire("beam-3", FixedDice([6, 6]), range_mu=5, options=opts).value == 4
    assert fire("beam-3", FixedDice([6, 6, 1]), range_mu=5).value == 4


def test_kinetic_chain():
    # class 2 at 5 mu (2+): 6 → re-roll 6 (> 2: +2) → re-roll 1 (≤ 2: +4) = 8, one hit.
    v = fire("kgun-2", FixedDice([6, 6, 1]), range_mu=5)
    assert [h.damage for h in v.hits] == [8]
    assert fire("kgun-2", FixedDice([1]), range_mu=5).value == 0


def test_to_hit_and_lance():
    assert fire("plasma-torpedo", FixedDice([3, 5]), range_mu=6).value == 5
    assert fire("plasma-torpedo", FixedDice([3]), range_mu=7).value == 0
    v = fire("lance", FixedDice([6]), range_mu=9)
    assert v.systems == 1 and not v.hits
    assert fire("vampire", FixedDice([3]), range_mu=2).value == 2
    assert fire("missile-salvo", FixedDice([3, 1] * 6), range_mu=12, count=6).value == 6


def test_pd_family_and_gunboat_modifier():
    assert fire("pd", FixedDice([6]), range_mu=3).kills == 2
    assert fire("pd", FixedDice([6]), range_mu=3, target="gunboat").kills == 1
    assert fire("adaf", FixedDice([3]), range_mu=3).kills == 0
    with pytest.raises(RulesError, match="light units"):
        fire("pd", Dice(0), range_mu=3, target="ship")


def test_class_one_as_pd():
    assert fire("beam-1", FixedDice([5, 4]), range_mu=6, count=2, as_pd=True).kills == 1
    assert fire("kgun-1", FixedDice([5]), range_mu=2, as_pd=True).kills == 1
    with pytest.raises(RulesError, match="PD"):
        fire("beam-2", Dice(0), range_mu=3, as_pd=True)


def test_area_family():
    assert fire("interceptor-nodule", FixedDice([5]), range_mu=12).kills == 5
    assert fire("interceptor-nodule", FixedDice([5]), range_mu=1, target="heavy-fighter").kills == 3
    assert fire("scattergun", FixedDice([6]), range_mu=6, target="plasma").kills == 2
    assert fire("scattergun", FixedDice([6]), range_mu=6).value == 2  # ship target


def test_emp_hits_are_system_checks():
    v = fire("gunboat-emp", FixedDice([4]), range_mu=12)
    assert v.systems == 1 and not v.hits


def test_missiles_never_lock_on_gunboats():
    with pytest.raises(RulesError, match="gunboats"):
        fire("missile-heavy", Dice(0), range_mu=5, target="gunboat")


def test_pulser_picks_its_best_mode():
    assert fire("pulser", Dice(1), range_mu=10).weapon == "pulser-short"
    assert fire("pulser", Dice(1), range_mu=20).weapon == "pulser-medium"
    assert fire("pulser", Dice(1), range_mu=30).weapon == "pulser-long"
    with pytest.raises(OutOfRange):
        fire("pulser", Dice(1), range_mu=37)


def test_needle_nodule_needs_power_points():
    with pytest.raises(RulesError, match="power points"):
        fire("needle-nodule", Dice(0), range_mu=5)
    v = fire("needle-nodule", Dice(0), range_mu=30, power_points=8)
    assert v.dice == 2  # 8 PP at 25–36 mu: 4 PP per die
