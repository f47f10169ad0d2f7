"""The design document schema: valid designs parse; every problem is reported with its field."""

import copy

import pytest

from battles.rules import ships as engine_ships
from factions.designs.schema import COMMAND_SYSTEMS, Design, DesignInvalid, design_system_ids
from factions.designs.validation import design_parse, design_validate

# These tests read the English messages of the parsers and services (the French ones are the
# catalogue's; requests still follow their own Accept-Language).
pytestmark = pytest.mark.usefixtures("english")


def corvette() -> dict:
    """A valid 16-mass corvette: hull 3 + armour 1 + drive 5 + FTL 2 + FC 1 + 3 systems (4)."""
    return {
        "format": "admiralty-design/1",
        "name": "Test corvette",
        "faction": "qatzrin",
        "type_word": "corvette",
        "mass": 16,
        "thrust": 6,
        "ftl": True,
        "hull": {"boxes": 3, "rows": [1, 1, 1, 0]},
        "armour": {"layers": [1]},
        "fire_controls": 1,
        "systems": [
            {"id": "beam-a", "kind": "weapon", "weapon": "beam-2", "arcs": ["FP", "F", "FS"]},
            {"id": "beam-b", "kind": "weapon", "weapon": "beam-3", "arcs": ["F"]},
            {"id": "pd-a", "kind": "pd"},
        ],
        "provisional": True,
        "rationale": "test",
    }


def torpedo_boat() -> dict:
    """A valid 30-mass torpedo boat: hull 6, a plasma torpedo fed by a 2-load magazine."""
    d = corvette()
    d.update(mass=30, hull={"boxes": 6, "rows": [2, 2, 1, 1]}, armour={"layers": [2]})
    d["systems"] = [
        {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "arcs": ["F"],
         "magazine": "mag-a"},
        {"id": "mag-a", "kind": "magazine", "capacity": 2},
        {"id": "pd-a", "kind": "pd"},
    ]  # fmt: skip
    return d


def fields(doc) -> dict[str, str]:
    _, errors = design_validate(doc)
    return {e.field: e.message for e in errors}


def test_valid_designs_parse_and_derive_crew_factors():
    design = design_parse(corvette())
    assert isinstance(design, Design)
    assert design.crew_factors == 1
    assert design_parse(torpedo_boat()).crew_factors == 2
    assert design_validate(torpedo_boat())[1] == []


def test_document_round_trips_through_the_model():
    doc = torpedo_boat()
    again = design_parse(doc).to_document()
    assert design_parse(again) == design_parse(doc)
    assert again["systems"][0]["magazine"] == "mag-a"


def test_a_design_without_hull_is_an_error_on_hull():
    doc = corvette()
    del doc["hull"]
    assert "hull" in fields(doc)


def test_hull_rows_must_add_up_to_the_boxes():
    doc = corvette()
    doc["hull"]["rows"] = [2, 1, 1, 1]
    assert "5" in fields(doc)["hull"]


def test_systems_that_do_not_add_up_to_the_mass_name_the_mass_field():
    doc = corvette()
    doc["mass"] = 18  # drive and FTL grow too, but not by 2
    msg = fields(doc)["mass"]
    assert "declares 18" in msg


def test_launcher_without_magazine_is_an_error_on_its_magazine_field():
    doc = torpedo_boat()
    del doc["systems"][0]["magazine"]
    assert "needs a magazine" in fields(doc)["systems[0].magazine"]


def test_launcher_fed_by_a_missing_or_wrong_system():
    doc = torpedo_boat()
    doc["systems"][0]["magazine"] = "mag-z"
    assert "mag-z" in fields(doc)["systems[0].magazine"]
    doc["systems"][0]["magazine"] = "pd-a"
    assert "not a magazine" in fields(doc)["systems[0].magazine"]


def test_a_beam_takes_no_magazine():
    doc = torpedo_boat()
    doc["systems"].insert(0, {"id": "beam-a", "kind": "weapon", "weapon": "beam-3",
                              "arcs": ["F"], "magazine": "mag-a"})  # fmt: skip
    assert "takes no magazine" in fields(doc)["systems[0].magazine"]


def test_arcs_a_mount_cannot_cover():
    doc = torpedo_boat()
    doc["systems"][0]["arcs"] = ["F", "FS", "AS", "A", "AP", "FP"]
    assert "at most 3" in fields(doc)["systems[0].arcs"]


def test_arcs_must_be_one_sweep_and_known():
    doc = corvette()
    doc["systems"][0]["arcs"] = ["F", "A"]
    assert "contiguous" in fields(doc)["systems[0].arcs"]
    doc["systems"][0]["arcs"] = ["F", "UP"]
    assert "systems[0].arcs[1]" in fields(doc)


def test_wrap_around_sweep_is_contiguous():
    doc = corvette()
    doc["systems"][0]["arcs"] = ["AP", "FP", "F"]
    assert fields(doc) == {}


def test_unknown_weapon_and_duplicate_ids_are_named():
    doc = corvette()
    doc["systems"][1]["weapon"] = "death-ray"
    doc["systems"][2]["id"] = "beam-a"
    errs = fields(doc)
    assert "death-ray" in errs["systems[1].weapon"]
    assert "duplicate" in errs["systems[2].id"]


def test_every_error_is_reported_at_once():
    doc = torpedo_boat()
    del doc["systems"][0]["magazine"]
    doc["systems"][2]["id"] = "mag-a"
    doc["systems"].append({"id": "x", "kind": "weapon", "weapon": "nope", "arcs": ["F"]})
    assert {"systems[0].magazine", "systems[2].id", "systems[3].weapon"} <= set(fields(doc))


def test_shape_errors_name_the_system_field_without_the_union_tag():
    doc = corvette()
    doc["systems"][2] = {"id": "mag-b", "kind": "magazine", "capacity": 0}
    doc["thrust"] = -1
    errs = fields(doc)
    assert "systems[2].capacity" in errs
    assert "thrust" in errs


def test_unknown_kind_and_unknown_field_are_rejected():
    doc = corvette()
    doc["systems"][2] = {"id": "x", "kind": "teleporter"}
    doc["warp"] = 9
    errs = fields(doc)
    assert "systems[2]" in errs
    assert "warp" in errs


def test_weapons_need_a_fire_control():
    doc = corvette()
    doc["fire_controls"] = 0
    doc["hull"] = {"boxes": 4, "rows": [1, 1, 1, 1]}
    assert "fire_controls" in fields(doc)


def test_plasma_bolt_needs_a_class_and_beams_take_none():
    doc = corvette()
    doc["systems"][1] = {"id": "pbl", "kind": "weapon", "weapon": "plasma-bolt", "arcs": ["F"]}
    assert "systems[1].class" in fields(doc)
    doc = corvette()
    doc["systems"][1]["class"] = 2
    assert "systems[1].class" in fields(doc)


def test_launch_tube_needs_a_bay():
    doc = corvette()
    doc["systems"][2] = {"id": "tube-a", "kind": "launch-tube"}
    assert "bay" in fields(doc)["systems[2]"]


def test_bay_with_unknown_gunboat_variant():
    doc = corvette()
    squadron = {"name": "X", "unit": "gunboat", "variant": "pirate"}
    doc["systems"][2] = {"id": "bay-a", "kind": "bay", "squadron": squadron}
    assert "pirate" in fields(doc)["systems[2].squadron"]


def test_design_parse_raises_with_every_error():
    doc = copy.deepcopy(torpedo_boat())
    del doc["systems"][0]["magazine"]
    doc["fire_controls"] = 0
    with pytest.raises(DesignInvalid) as info:
        design_parse(doc)
    assert {e.field for e in info.value.errors} == {"systems[0].magazine", "fire_controls"}


def test_non_object_is_rejected():
    design, errors = design_validate(["not", "a", "design"])
    assert design is None
    assert errors[0].field == "design"


def test_a_magazine_holds_one_kind_of_load():
    doc = torpedo_boat()
    doc["systems"][2] = {"id": "pack-a", "kind": "weapon", "weapon": "rocket-pack",
                         "arcs": ["F"], "magazine": "mag-a"}  # fmt: skip
    assert "one kind of load" in fields(doc)["systems[2].magazine"]


def test_system_ids_are_the_listed_systems_plus_the_synthesised_ones():
    design = {**corvette(), "screens": 1}
    assert design_system_ids(design) == [
        *("beam-a", "beam-b", "pd-a", "fc-1", "screen-1", "drive"),
        *("bridge", "life-support", "core"),
    ]


def test_system_ids_follow_thrust_and_command():
    design = {**corvette(), "thrust": 0, "command": ["bridge"], "fire_controls": 2}
    assert design_system_ids(design) == ["beam-a", "beam-b", "pd-a", "fc-1", "fc-2", "bridge"]


def test_system_ids_of_a_design_without_hull_raise_naming_the_field():
    design = corvette()
    del design["hull"]
    with pytest.raises(ValueError, match="hull"):
        design_system_ids(design)


def test_command_systems_are_the_engines():
    # The schema needs them as literals; the engine synthesises them (§4).
    assert COMMAND_SYSTEMS == engine_ships.COMMAND_SYSTEMS
