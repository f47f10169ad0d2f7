"""The ship-class catalogue: every design validates, prices as documented, loads idempotently."""

import csv
import json

import pytest

from factions.catalogue_loader import (
    CatalogueError,
    catalogue_files,
    catalogue_load,
    catalogue_read,
)
from factions.designs.construction import squadron_points, weapon_spec
from factions.designs.validation import design_points, design_validate
from factions.models import Faction, ShipClass
from tests.conftest import ROOT

FULLTRUST = ROOT.parent / "shared" / "fulltrust-data"

SEED_CLASSES = {
    "qatzrin": {
        "Sa'ar": "corvette",
        "Ra'am": "frégate",
        "Tzayad": "destroyer",
        "Kashat-E": "croiseur léger",
        "Yerushalayim-L": "croiseur lourd",
        "Barak": "croiseur de bataille",
        "Sabra": "vaisseau de ligne",
        "Kineret": "porte-nef léger",
    },
    "phalon": {
        "Phyaa": "protecteur",
        "Tyaph": "protecteur",
        "Phuun": "protecteur",
        "Dinth": "protecteur",
        "Silith": "protecteur",
        "Tsaara": "guerrier",
        "Huulth": "guerrier",
        "Ptath": "grand guerrier",
    },
    "collectif-g-plus": {
        "Kajna": "porte-nef lourd",
        "Brima": "porte-nef léger",
        "Garuda": "croiseur de bataille",
        "Dreda": "croiseur lourd",
        "Prana": "croiseur léger",
        "Mahida": "destroyer",
        "Drina": "frégate",
    },
}


def _catalogue():
    return {catalogue_read(p)["faction"]["slug"]: catalogue_read(p) for p in catalogue_files()}


def _designs():
    return [
        pytest.param(doc, id=f"{slug}:{doc['name']}")
        for slug, data in _catalogue().items()
        for doc in data["classes"]
    ]


def test_catalogue_has_the_four_factions():
    assert set(_catalogue()) == {"qatzrin", "phalon", "collectif-g-plus", "kongeriket-norge"}


@pytest.mark.parametrize("slug", sorted(SEED_CLASSES))
def test_every_class_the_seed_names_is_there_with_its_type_word(slug):
    classes = {d["name"]: d["type_word"] for d in _catalogue()[slug]["classes"]}
    assert classes == SEED_CLASSES[slug]


def test_norge_fleet_has_escorts_the_line_ship_and_its_heavy_cruiser_escort():
    classes = {d["name"]: d for d in _catalogue()["kongeriket-norge"]["classes"]}
    assert classes["Steffen Konalson"]["type_word"] == "vaisseau de ligne"
    assert any(d["type_word"] == "croiseur lourd" for d in classes.values())
    escorts = [d for d in classes.values() if d["mass"] <= 30]
    assert escorts
    for escort in escorts:
        beams = {s["weapon"] for s in escort["systems"] if s["kind"] == "weapon"}
        assert beams & {"beam-1", "beam-2"}
    variants = {
        s["squadron"].get("variant")
        for s in classes["Steffen Konalson"]["systems"]
        if s["kind"] == "bay"
    }
    assert variants == {"heavy-transport", "emp"}


@pytest.mark.parametrize("doc", _designs())
def test_catalogue_design_validates(doc):
    design, errors = design_validate(doc)
    assert errors == []
    assert design is not None


@pytest.mark.parametrize("doc", _designs())
def test_catalogue_design_reprices_to_its_documented_points(doc):
    assert design_points(doc) == doc["points"]


@pytest.mark.parametrize("doc", _designs())
def test_provisional_designs_give_a_rationale(doc):
    assert doc["rationale"].strip()


def test_light_units_price_as_documented():
    units = [u for data in _catalogue().values() for u in data.get("light_units", [])]
    assert {u["name"] for u in units} >= {"Nith", "Tuus"}
    for u in units:
        assert squadron_points(u["unit"], size=u["size"], variant=u.get("variant")) == u["points"]


def _published_npv():
    path = FULLTRUST / "perlkonig-presets-summary.csv"
    if not path.exists():
        return {}
    with path.open(encoding="utf-8") as f:
        return {
            row["name"]: int(row["points_npv"])
            for row in csv.DictReader(f)
            if row["fleet"] == "Phalon"
        }


@pytest.mark.parametrize("name", ["Phuun", "Dinth", "Tsaara", "Huulth", "Ptath"])
def test_published_phalon_designs_match_their_fleet_book_points(name):
    npv = _published_npv()
    if name not in npv:
        pytest.skip("shared Full Thrust data absent")
    doc = next(d for d in _catalogue()["phalon"]["classes"] if d["name"] == name)
    assert doc["provisional"] is False
    assert design_points(doc) == npv[name]


@pytest.mark.django_db
def test_catalogue_load_creates_factions_and_classes():
    loaded = catalogue_load()
    assert ("qatzrin", "Sa'ar") in loaded
    saar = loaded[("qatzrin", "Sa'ar")]
    assert saar.slug == "saar"
    assert saar.type_word == "corvette"
    assert saar.hull_boxes == saar.design["hull"]["boxes"]
    assert saar.points == saar.design["points"]
    ptath = loaded[("phalon", "Ptath")]
    assert ptath.armour == sum(ptath.design["armour"]["layers"]) == 16
    assert ptath.provisional is False
    assert Faction.objects.get(slug="collectif-g-plus").name == "Collectif G+"
    assert len(loaded) == ShipClass.objects.count()


@pytest.mark.django_db
def test_catalogue_load_twice_changes_nothing(cast):
    first = catalogue_load()
    before = list(ShipClass.objects.order_by("pk").values())
    factions_before = list(Faction.objects.order_by("pk").values())
    second = catalogue_load()
    assert {k: v.pk for k, v in first.items()} == {k: v.pk for k, v in second.items()}
    assert list(ShipClass.objects.order_by("pk").values()) == before
    assert list(Faction.objects.order_by("pk").values()) == factions_before
    # the cast's factions were reused, not duplicated
    assert Faction.objects.filter(slug="kongeriket-norge").count() == 1


@pytest.mark.django_db
def test_a_bad_catalogue_file_is_named_and_leaves_the_database_as_it_was(tmp_path):
    good = catalogue_files()[0]
    (tmp_path / good.name).write_text(good.read_text(encoding="utf-8"), encoding="utf-8")
    bad = json.loads(catalogue_files()[-1].read_text(encoding="utf-8"))
    del bad["classes"][0]["systems"][0]["arcs"]
    bad["classes"][1]["mass"] += 1
    bad["light_units"] = [{"name": "X", "unit": "gunboat", "variant": "pirate", "points": 1}]
    (tmp_path / "zz-bad.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(CatalogueError) as info:
        catalogue_load(directory=tmp_path)
    message = str(info.value)
    assert message.startswith("zz-bad.json: ")
    assert "classes[0].systems[0].arcs" in message
    assert "classes[1].mass" in message
    assert "light_units[0].variant" in message
    assert ShipClass.objects.count() == 0
    assert Faction.objects.count() == 0


def test_a_file_without_faction_is_rejected(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"classes": []}', encoding="utf-8")
    with pytest.raises(CatalogueError, match="x.json: faction"):
        catalogue_read(path)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CatalogueError, match="x.json"):
        catalogue_read(path)


def test_catalogue_light_units_by_faction():
    units = {
        data["faction"]["slug"]: data.get("light_units", [])
        for data in map(catalogue_read, catalogue_files())
    }
    assert {u["name"] for u in units["phalon"]} == {"Nith", "Tuus"}
    assert {u["unit"] for u in units["collectif-g-plus"]} == {"battery"}
    assert {u["variant"] for u in units["kongeriket-norge"]} == {"heavy-transport", "emp"}


@pytest.mark.parametrize("doc", _designs())
def test_designs_flag_the_project_readings_they_rely_on(doc):
    readings = " ".join(doc.get("readings", []))
    for system in doc["systems"]:
        if system["kind"] == "weapon" and weapon_spec(system["weapon"]).reading:
            assert f"{system['weapon']}: project reading" in readings
