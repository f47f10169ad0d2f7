"""Fleet Book masses and points (D-24): rounding, each system's bill, the weapon table, fleets."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from battles.rules.ships import crew_factors
from battles.rules.weapons import get_weapon, weapon_ids
from factions.designs.construction import (
    WEAPONS,
    UnknownSystem,
    design_breakdown,
    round_half_up,
    squadron_points,
    weapon_points,
    weapon_spec,
)
from factions.designs.imports import FLEET_BOOK_GRASERS, design_from_ftlibship
from factions.designs.schema import Design, DesignInvalid
from factions.designs.validation import (
    design_mass,
    design_points,
    design_validate,
    embarked_points,
)

ALL_ARCS = ["F", "FS", "AS", "A", "AP", "FP"]


def mount_mass(weapon: str, arcs: int) -> int:
    """Mass of one mount of ``weapon`` over ``arcs`` arcs, read from the weapon table."""
    return weapon_spec(weapon).mass(arcs, 1)


def phalon_protector() -> dict:
    """Fleet Book 2's 24-mass Phalon protector (published at 89 points), written from scratch."""
    return {
        "name": "FB2 protector",
        "faction": "phalon",
        "mass": 24,
        "thrust": 6,
        "hull": {"boxes": 3, "rows": [1, 1, 1, 0]},
        "armour": {"layers": [2]},
        "fire_controls": 1,
        "systems": [
            {"id": "p", "kind": "weapon", "weapon": "pulser", "arcs": ["FP", "F", "FS"]},
            {"id": "b", "kind": "weapon", "weapon": "plasma-bolt", "class": 1,
             "arcs": ["FP", "F", "FS"]},
            {"id": "v", "kind": "vapour-veil"},
        ],
    }  # fmt: skip


def bill(doc) -> dict[str, tuple[int, int]]:
    """The bill by field, on the shape alone (the mass total is not checked here)."""
    lines = design_breakdown(Design.model_validate(doc))
    return {line.field: (line.mass, line.points) for line in lines}


def test_rounding_is_half_up_not_bankers():
    assert round_half_up(5, 2) == 3  # Python's round(2.5) would give 2
    assert round_half_up(7, 2) == 4
    assert round_half_up(72, 10) == 7
    assert round_half_up(0, 3) == 0


@pytest.mark.parametrize(("mass", "crew"), [(1, 1), (10, 1), (20, 1), (21, 2), (132, 7)])
def test_crew_factors_are_mass_over_20_rounded_up(mass, crew):
    assert crew_factors(mass) == crew


def test_fleet_book_protector_bill_line_by_line():
    lines = bill(phalon_protector())
    assert lines["mass"] == (0, 24)  # basic hull: 1 point per mass
    assert lines["hull"] == (3, 6)  # 2 points per box on 4 rows
    assert lines["armour.layers[0]"] == (2, 4)
    assert lines["thrust"] == (7, 14)  # 5 % × 24 × 6 = 7.2 -> 7
    assert lines["ftl"] == (2, 4)  # 10 % × 24 = 2.4 -> 2
    assert lines["fire_controls"] == (1, 4)
    assert lines["systems[0]"] == (3, 15)  # pulser, 3 arcs, 5 points per mass
    assert lines["systems[1]"] == (5, 15)  # class-1 plasma bolt, 3 arcs
    assert lines["systems[2]"] == (1, 3)  # vapour veil 5 %
    assert design_mass(phalon_protector()) == 24
    assert design_points(phalon_protector()) == 89


def test_shell_layers_cost_more_the_further_out_the_layer():
    # Layers are listed outermost first; the innermost costs 2 points per box, each layer
    # further out 2 more (ftLibShip prices its rows, listed innermost first, 2/4/6...).
    doc = phalon_protector()
    doc["armour"] = {"layers": [8, 4, 4]}
    lines = bill(doc)
    assert lines["armour.layers[0]"] == (8, 48)
    assert lines["armour.layers[1]"] == (4, 16)
    assert lines["armour.layers[2]"] == (4, 8)
    # FB2 Ptath: 8 inner boxes, then 4 and 4 -> 16 + 16 + 24 = 56 points
    doc["armour"] = {"layers": [4, 4, 8]}
    assert sum(p for f, (_, p) in bill(doc).items() if f.startswith("armour")) == 56


@pytest.mark.parametrize(
    ("rows", "points"), [([3, 3, 3], 27), ([3, 2, 2, 2], 18), ([2, 2, 2, 2, 1], 14),
                         ([2, 2, 2, 1, 1, 1], 9)]
)  # fmt: skip
def test_hull_points_per_box_depend_on_the_rows(rows, points):
    doc = phalon_protector()
    doc["hull"] = {"boxes": 9, "rows": rows}
    lines = bill(doc)
    assert lines["hull"] == (9, points)


def test_screens_cost_five_percent_per_level_with_a_minimum_of_three():
    doc = phalon_protector()
    doc["screens"] = 1
    assert bill(doc)["screens"] == (3, 9)
    doc.update(mass=120, screens=2)
    assert bill(doc)["screens"] == (12, 36)


def test_beams_are_priced_by_their_incursion_dice_not_their_class_number():
    # Incursion beam-1 rolls a Fleet Book class-3 beam's dice (3/2/1 to 36 mu).
    assert [b.dice for b in get_weapon("beam-1").bands] == [3, 2, 1]
    assert WEAPONS["beam-1"].fleet_book == "FB1 class-3 beam"
    assert mount_mass("beam-1", 1) == 4
    assert mount_mass("beam-1", 3) == 6
    assert mount_mass("beam-1", 6) == 9
    # FB1 class-2 beam (ftLibShip beam.ts): broadside 1, three arcs 2, all round 3
    assert [mount_mass("beam-2", n) for n in range(1, 7)] == [1, 1, 2, 3, 3, 3]
    assert [mount_mass("beam-3", n) for n in (1, 6)] == [1, 1]
    assert weapon_points("beam-2", 3) == 6
    assert weapon_points("beam-1", 6) > weapon_points("beam-2", 6) > weapon_points("beam-3", 6)


def minerva() -> dict:
    """FB1's NAC Minerva frigate (published 18 mass, 61 points), written from scratch."""
    return {
        "name": "Minerva",
        "faction": "test",
        "mass": 18,
        "thrust": 6,
        "ftl": True,
        "hull": {"boxes": 5, "rows": [2, 1, 1, 1]},
        "fire_controls": 1,
        "systems": [
            {"id": "pd-a", "kind": "pd"},
            {"id": "beam-a", "kind": "weapon", "weapon": "beam-3", "arcs": ALL_ARCS},
            {"id": "beam-b", "kind": "weapon", "weapon": "beam-3", "arcs": ALL_ARCS},
            {"id": "beam-c", "kind": "weapon", "weapon": "beam-2", "arcs": ["FP", "F", "FS"]},
        ],
    }


def test_fleet_book_minerva_adds_up_to_its_published_mass_and_points():
    assert design_validate(minerva())[1] == []
    assert bill(minerva())["systems[3]"] == (2, 6)
    assert (design_mass(minerva()), design_points(minerva())) == (18, 61)


def test_every_ship_weapon_of_the_engine_has_a_price():
    light_unit_or_system = ("fighter-", "drone", "gunboat-", "pulser-", "pd", "adaf")
    mountable = [w for w in weapon_ids() if not w.startswith(light_unit_or_system)]
    assert "graser-1" in mountable and "plasma-bolt" in mountable
    for weapon in mountable:
        assert weapon_points(weapon, 1) > 0, weapon


def test_grasers_are_numbered_like_beams_and_priced_as_fleet_book_grasers():
    # graser-c has beam-c's dice; graser-1 is the big FB2 class-3 graser (ftLibShip graser.ts)
    assert [mount_mass("graser-1", n) for n in (1, 3, 6)] == [8, 12, 18]
    assert [mount_mass("graser-2", n) for n in (1, 3, 4, 6)] == [4, 4, 6, 6]
    assert [mount_mass("graser-3", n) for n in (1, 3, 4, 6)] == [1, 1, 2, 2]
    assert FLEET_BOOK_GRASERS == {1: "graser-3", 2: "graser-2", 3: "graser-1"}
    for c in (1, 2, 3):
        assert WEAPONS[f"graser-{c}"].fleet_book == f"FB2 class-{4 - c} graser"
        assert weapon_points(f"graser-{c}", 3) == 3 * mount_mass(f"graser-{c}", 3)
        assert weapon_points(f"graser-{c}", 6) > weapon_points(f"beam-{c}", 6)
        assert mount_mass(f"graser-{c}", 3) >= mount_mass(f"beam-{c}", 3)
        assert weapon_spec(f"graser-{c}").reading


def test_a_fleet_book_graser_imports_as_the_graser_with_its_incursion_number():
    ship = {
        "name": "G", "mass": 20, "hull": {"points": 4, "rows": 4},
        "systems": [{"name": "drive", "thrust": 4}, {"name": "fireControl"}],
        "weapons": [{"name": "graser", "class": 3, "leftArc": "F", "numArcs": 1},
                    {"name": "graser", "class": 1, "leftArc": "F", "numArcs": 6},
                    {"name": "graser", "class": 4, "leftArc": "F", "numArcs": 1}],
    }  # fmt: skip
    design, unmapped = design_from_ftlibship(ship, faction="test")
    assert [s["weapon"] for s in design["systems"]] == ["graser-1", "graser-3"]
    assert [u.system for u in unmapped] == ["graser class 4"]
    # hull 4 + drive 4 + FC 1 + class-3 graser 8 + class-1 graser all round 2 = 19
    assert design_mass(design | {"mass": 19}) == 19


def test_kinetic_guns_are_priced_as_fleet_book_k_guns():
    # ftLibShip kgun.ts: class 1 = 2 all round, class 2 = 3 + 1 per further arc (2 at most),
    # class c >= 3 = 5 + 3(c - 3) on one arc; 4 points per mass
    assert [mount_mass("kgun-1", n) for n in (1, 6)] == [2, 2]
    assert [mount_mass("kgun-2", n) for n in (1, 2)] == [3, 4]
    assert [mount_mass(f"kgun-{c}", 1) for c in (3, 4, 5, 6)] == [5, 8, 11, 14]
    assert [weapon_spec(f"kgun-{c}").max_arcs for c in (1, 2, 3, 6)] == [6, 2, 1, 1]
    assert weapon_points("kgun-3", 1) == 20
    assert mount_mass("kgun-hv-3", 1) == 10  # long range: double
    assert mount_mass("kgun-lv-3", 1) == 3  # short range: half, rounded up
    assert mount_mass("kgun-lv-1", 6) == 2  # 1.5 in the book; our masses are whole


def test_unknown_weapons_raise():
    with pytest.raises(UnknownSystem):
        weapon_spec("kgun-9")
    with pytest.raises(UnknownSystem):
        weapon_spec("death-ray")


def test_squadron_points():
    assert squadron_points("fighter") == 18
    assert squadron_points("fighter", size=3) == 9
    assert squadron_points("heavy-fighter") == 36
    assert squadron_points("long-range-fighter") == 24
    assert squadron_points("gunboat", variant="heavy-transport") == 72
    assert squadron_points("gunboat", variant="emp") == 54
    assert squadron_points("battery", size=1, variant="beam-2") == 9  # all round: 3 mass
    with pytest.raises(UnknownSystem):
        squadron_points("gunboat", variant="pirate")
    with pytest.raises(UnknownSystem):
        squadron_points("battleship")


def carrier() -> dict:
    doc = phalon_protector()
    doc.update(name="Carrier", mass=60, hull={"boxes": 12, "rows": [3, 3, 3, 3]}, thrust=4)
    doc["systems"] = [
        {"id": "bay-a", "kind": "bay", "squadron": {"name": "A", "unit": "fighter"}},
        {"id": "bay-b", "kind": "bay", "squadron": {"name": "B", "unit": "heavy-fighter"}},
        {"id": "tube", "kind": "launch-tube"},
        {"id": "pd", "kind": "pd"},
        {"id": "b", "kind": "weapon", "weapon": "beam-2", "arcs": ["FP", "F", "FS"]},
    ]
    # hull 12 + armour 5 + drive 12 + FTL 6 + FC 1 + bays 18 + tube 3 + PD 1 + beam 2 = 60
    doc["armour"] = {"layers": [5]}
    return doc


def test_carrier_bays_and_embarked_squadrons():
    lines = bill(carrier())
    assert lines["systems[0]"] == (9, 27)
    assert lines["systems[2]"] == (3, 9)
    assert embarked_points(carrier()) == 18 + 36


def test_pricing_an_invalid_document_raises_with_its_errors():
    doc = phalon_protector()
    doc["mass"] = 25
    with pytest.raises(DesignInvalid) as info:
        design_points(doc)
    assert info.value.errors[0].field == "mass"


def test_gunboat_variant_spellings_of_fleet_lists_are_accepted():
    assert squadron_points("gunboat", variant="EMP launcher") == 54
    assert squadron_points("gunboat", variant="heavy transport") == 72


_MOUNTABLE = sorted(WEAPONS) + ["kgun-1", "kgun-2", "kgun-hv-3", "kgun-lv-5"]


@st.composite
def buildable_designs(draw):
    """A random design whose hull takes up whatever mass its systems leave."""
    systems = []
    magazines: dict[str, str] = {}
    for i in range(draw(st.integers(0, 6))):
        weapon = draw(st.sampled_from(_MOUNTABLE))
        spec = weapon_spec(weapon)
        n = draw(st.integers(1, spec.max_arcs))
        start = draw(st.integers(0, 5))
        entry = {"id": f"w{i}", "kind": "weapon", "weapon": weapon,
                 "arcs": [ALL_ARCS[(start + k) % 6] for k in range(n)]}  # fmt: skip
        if spec.classed:
            entry["class"] = draw(st.integers(1, 3))
        if spec.needs_magazine:
            if weapon not in magazines:
                magazines[weapon] = f"mag-{len(magazines)}"
                systems.append({"id": magazines[weapon], "kind": "magazine",
                                "capacity": draw(st.integers(1, 4))})  # fmt: skip
            entry["magazine"] = magazines[weapon]
        systems.append(entry)
    systems += [{"id": f"pd{i}", "kind": "pd"} for i in range(draw(st.integers(0, 2)))]
    doc = {
        "name": "Random",
        "faction": "test",
        "mass": draw(st.integers(60, 300)),
        "thrust": draw(st.integers(0, 8)),
        "ftl": draw(st.booleans()),
        "hull": {"boxes": 1, "rows": [1]},
        "armour": {"layers": draw(st.lists(st.integers(0, 8), max_size=3))},
        "screens": draw(st.integers(0, 2)),
        "fire_controls": draw(st.integers(1, 3)),
        "systems": systems,
    }
    others = sum(line.mass for line in design_breakdown(Design.model_validate(doc))) - 1
    hull = doc["mass"] - others
    assume(hull >= 1)
    doc["hull"] = {"boxes": hull, "rows": [hull - 3 * (hull // 4)] + [hull // 4] * 3}
    return doc


@settings(max_examples=60, deadline=None)
@given(buildable_designs())
def test_a_design_whose_systems_fill_its_mass_validates_and_prices_consistently(doc):
    assert design_validate(doc)[1] == []
    lines = design_breakdown(Design.model_validate(doc))
    assert sum(line.mass for line in lines) == doc["mass"]
    assert design_points(doc) == sum(line.points for line in lines) >= doc["mass"]
    first, *rest = doc["hull"]["rows"]
    heavier = {**doc, "hull": {"boxes": doc["hull"]["boxes"] + 1, "rows": [first + 1, *rest]}}
    assert "mass" in {e.field for e in design_validate(heavier)[1]}
