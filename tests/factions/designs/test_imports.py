"""Design imports: ftLibShip ships mapped to our designs, our own format in and out."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from factions.catalogue_loader import catalogue_files
from factions.designs import validation
from factions.designs.imports import (
    ImportFormatError,
    designs_parse,
    designs_save,
    detect_format,
    export_catalogue,
    export_design,
    hull_rows,
)
from factions.models import ShipClass
from tests.conftest import ROOT
from tests.factions.factories import ftl_ship, valid_design

# These tests read the English messages of the parsers and services (the French ones are the
# catalogue's; requests still follow their own Accept-Language).
pytestmark = pytest.mark.usefixtures("english")


FULLTRUST = ROOT.parent / "shared" / "fulltrust-data"
PRESETS = FULLTRUST / "perlkonig-ftLibShip-preset-fleets.json"
needs_presets = pytest.mark.skipif(not PRESETS.exists(), reason="shared ftLibShip file absent")


def test_ftlibship_ship_maps_systems_and_reports_the_rest():
    result = designs_parse(ftl_ship(), faction="qatzrin")
    assert result.format == "ftlibship"
    (design,) = result.designs
    assert design["name"] == "Test Cruiser"
    assert design["type_word"] == "heavy cruiser"
    assert design["faction"] == "qatzrin"
    assert design["hull"] == {"boxes": 18, "rows": [5, 5, 4, 4]}
    assert design["armour"] == {"layers": [2, 4]}  # outermost first
    assert (design["thrust"], design["ftl"], design["fire_controls"], design["screens"]) == (
        4,
        True,
        2,
        1,
    )
    systems = {s["id"]: s for s in design["systems"]}
    # Fleet Book class N beam -> Incursion beam-(4-N) (D-24)
    assert systems["beam-a"]["weapon"] == "beam-3"
    assert systems["beam-a"]["arcs"] == ["F", "FS", "AS", "A", "AP", "FP"]
    assert systems["beam-b"]["weapon"] == "beam-1"
    assert systems["beam-b"]["arcs"] == ["FP", "F", "FS"]
    assert systems["beam-c"] == {
        "id": "beam-c",
        "kind": "weapon",
        "weapon": "beam-2",
        "arcs": ["AP", "FP", "F"],
    }
    assert systems["pd-a"]["kind"] == "pd"
    assert systems["salvo-a"]["magazine"] == "mag-a"
    assert systems["mag-a"] == {"id": "mag-a", "kind": "magazine", "capacity": 3}
    assert systems["bay-a"]["squadron"]["unit"] == "heavy-fighter"
    reported = {(u.ship, u.system) for u in result.unmapped}
    assert reported == {
        ("Test Cruiser", "torpedoPulse"),
        ("Test Cruiser", "frobnicator"),
        ("Test Cruiser", "bay"),
    }
    assert all(u.reason for u in result.unmapped)
    assert design["provisional"] is True  # something was skipped


def test_a_launcher_whose_magazine_is_skipped_is_reported_not_dropped():
    ship = ftl_ship()
    ship["systems"] = [s for s in ship["systems"] if s["name"] != "magazine"]
    result = designs_parse(ship, faction="qatzrin")
    assert ("Test Cruiser", "missile-salvo") in {(u.ship, u.system) for u in result.unmapped}
    assert not [s for s in result.designs[0]["systems"] if s["id"].startswith("salvo")]


def test_fleet_book_class_4_beams_are_reported():
    ship = ftl_ship(weapons=[{"name": "beam", "class": 4, "leftArc": "F", "numArcs": 1}])
    result = designs_parse(ship, faction="qatzrin")
    assert ("Test Cruiser", "beam class 4") in {(u.ship, u.system) for u in result.unmapped}


def test_hull_rows_keep_the_source_row_count():
    assert hull_rows(2) == [1, 1, 0, 0]
    assert hull_rows(7) == [2, 2, 2, 1]
    assert hull_rows(9, 3) == [3, 3, 3]


def test_detect_format_rejects_other_json():
    with pytest.raises(ImportFormatError):
        detect_format({"hello": "world"})
    with pytest.raises(ImportFormatError, match="ftlibship format, not admiralty"):
        designs_parse(ftl_ship(), faction="qatzrin", format="admiralty")


@needs_presets
@pytest.mark.django_db
def test_the_91_preset_ships_all_come_in(cast):
    data = json.loads(PRESETS.read_text())
    result = designs_parse(data, faction=cast.qatzrin.slug)
    assert len(result.designs) == 91
    names = {d["name"] for d in result.designs}
    assert {"Harrison", "Excalibur", "Phuun", "Ko'San"} <= names
    # Merchant cargo bays have no Incursion system: reported by name, per ship.
    assert ("Bulk Carrier", "bay", "cargo/passenger/troop bays have no Incursion system") in (
        result.unmapped
    )
    saved = designs_save(faction=cast.qatzrin, result=result, allow_invalid=True)
    assert len(saved) == 91
    assert ShipClass.objects.filter(faction=cast.qatzrin).count() == 91
    phuun = ShipClass.objects.get(faction=cast.qatzrin, name="Phuun")
    assert phuun.design["systems"][0]["weapon"] == "pulser"
    # Ships that validate are priced; Phuun's points match its Fleet Book 2 points.
    assert phuun.points == 89


def test_own_format_round_trips(cast):
    source = valid_design()
    result = designs_parse([source], faction="qatzrin")
    assert result.invalid == []
    (sc,) = designs_save(faction=cast.qatzrin, result=result)
    exported = export_design(sc)
    assert exported["points"] == validation.design_points(source)
    # export is the exact inverse of import
    again = designs_parse(copy.deepcopy(exported), faction="qatzrin")
    assert again.designs == [exported]
    (sc2,) = designs_save(faction=cast.qatzrin, result=again)
    assert sc2.pk == sc.pk
    assert export_design(sc2) == exported
    assert (sc2.mass, sc2.hull_boxes, sc2.armour, sc2.thrust, sc2.points) == (
        source["mass"],
        9,
        2,
        6,
        exported["points"],
    )
    catalogue = export_catalogue(cast.qatzrin)
    assert catalogue["faction"] == {"slug": "qatzrin", "name": "Qatzrin"}
    assert designs_parse(catalogue, faction="qatzrin").designs == [exported]


def test_own_format_is_strict_and_names_the_field(cast):
    bad = valid_design()
    bad["systems"].append(
        {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "arcs": ["F"]}
    )
    result = designs_parse(bad, faction="qatzrin")
    assert result.designs == []
    assert ("Hanit", "systems[2].magazine") in {(e.ship, e.field) for e in result.invalid}
    with pytest.raises(ValueError, match="systems\\[2\\].magazine"):
        designs_save(faction=cast.qatzrin, result=result)
    assert not ShipClass.objects.exists()


def test_duplicate_names_write_nothing(cast):
    result = designs_parse([valid_design(), valid_design()], faction="qatzrin")
    with pytest.raises(ValueError, match="distinct slugs"):
        designs_save(faction=cast.qatzrin, result=result)
    assert not ShipClass.objects.exists()


def test_command_dry_run_reports_and_writes_nothing(cast, tmp_path):
    path = tmp_path / "ships.json"
    path.write_text(json.dumps([{"name": "NAC", "ships": [ftl_ship()]}]))
    out = StringIO()
    call_command("import_designs", str(path), "--faction", "qatzrin", "--dry-run", stdout=out)
    text = out.getvalue()
    assert "Test Cruiser — heavy cruiser, mass 60" in text
    assert "not mapped: torpedoPulse" in text
    assert "not mapped: frobnicator (no Incursion equivalent)" in text
    assert "dry run, nothing written" in text
    assert not ShipClass.objects.exists()
    call_command("import_designs", str(path), "--faction", "qatzrin", stdout=StringIO())
    assert ShipClass.objects.get().name == "Test Cruiser"


def test_command_writes_own_format(cast, tmp_path):
    path = tmp_path / "designs.json"
    path.write_text(json.dumps(valid_design()))
    out = StringIO()
    call_command("import_designs", str(path), "--faction", "qatzrin", stdout=out)
    assert "1 ship class(es) written" in out.getvalue()
    assert ShipClass.objects.get().design["rationale"] == "test frigate"


def test_command_errors_name_the_problem(cast, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('[\n{"name": }\n]')
    with pytest.raises(CommandError, match="line 2"):
        call_command("import_designs", str(path), "--faction", "qatzrin")
    with pytest.raises(CommandError, match="no faction with slug 'nobody'"):
        call_command("import_designs", str(path), "--faction", "nobody")
    bad = valid_design()
    bad["mass"] += 1
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError, match="nothing written: .*mass"):
        call_command("import_designs", str(path), "--faction", "qatzrin", stdout=StringIO())
    assert not ShipClass.objects.exists()


def test_a_catalogue_file_imports_its_classes_and_reports_its_light_units():
    files = catalogue_files()
    assert files, "factions/catalogue/ holds the four factions' files"
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        result = designs_parse(data, faction=data["faction"]["slug"])
        assert result.invalid == [], path.name
        assert [d["name"] for d in result.designs] == [c["name"] for c in data["classes"]]
        if data.get("light_units"):
            assert any(u.system.startswith("light_units") for u in result.unmapped)
