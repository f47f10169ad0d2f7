"""Fleet lists name only light units the faction has, and beam batteries of class 1–3.

Squadron names come from the faction's catalogue (``light_units`` and the squadrons in its
classes' bays, ``factions/catalogue/*.json``) and from its class designs in the database;
beam classes from rules §8. On any error nothing is written.
"""

import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from factions.catalogue_loader import catalogue_load
from factions.fleetlists import FleetListError, fleet_list_parse
from factions.models import Faction, Fleet, LightUnitGroup, Ship, ShipClass
from factions.services import faction_light_unit_names, fleet_import
from tests.conftest import ROOT

# These tests read the English messages of the parsers and services (the French ones are the
# catalogue's; requests still follow their own Accept-Language).
pytestmark = pytest.mark.usefixtures("english")


# Line 3 misspells Mijna, line 5 is a Phalon fighter, line 8 a beam class that does not exist.
BAD_G_PLUS = """- 1 porte-nef lourd classe Kajna
2
escadrilles de chasseurs Mijnaa
- 1 porte-nef léger classe Brima
1 escadrille de chasseurs Nith
- 1 croiseur de bataille classe Garuda
Les deux colonies G+ fournissent :
- 1 Faisceau classe 7
"""

GOOD_G_PLUS = """- 1 porte-nef lourd classe Kajna
3
escadrilles de chasseurs mijna
1 escadrille de chasseurs à long rayon d'action Najna
- 1 porte-nef léger classe Brima
1 escadrille d'intercepteurs Avna
Les deux colonies G+ fournissent :
- 1 Faisceau classe 3
"""


@pytest.fixture
def catalogue(cast):
    """The cast plus every catalogue faction and class (Collectif G+, Phalon…)."""
    catalogue_load()
    cast.g_plus = Faction.objects.get(slug="collectif-g-plus")
    cast.campaign.factions.add(cast.g_plus)  # the organiser imports its fleets
    return cast


def snapshot():
    return (
        list(Fleet.objects.values_list("pk", flat=True)),
        list(Ship.objects.values_list("pk", flat=True)),
        list(LightUnitGroup.objects.values_list("pk", flat=True)),
    )


EXPECTED = [
    'line 3: unknown light unit "Mijnaa" (did you mean "Mijna"?)',
    'line 5: unknown light unit "Nith"',
    "line 8: no class-7 beam battery: beams are class 1, 2 or 3 (rules/ft-incursion.md §8)",
]


def test_the_service_refuses_unknown_squadrons_and_beam_classes_and_writes_nothing(catalogue):
    before = snapshot()
    with pytest.raises(FleetListError) as info:
        fleet_import(faction=catalogue.g_plus, text=BAD_G_PLUS, fleet_name="Ganesha")
    assert [str(e) for e in info.value.errors] == EXPECTED
    assert snapshot() == before


def test_the_command_refuses_them_and_writes_nothing(catalogue, tmp_path):
    path = tmp_path / "ganesha.txt"
    path.write_text(BAD_G_PLUS, "utf-8")
    before = snapshot()
    with pytest.raises(CommandError) as info:
        call_command("import_fleet", str(path), "--faction", "collectif-g-plus")
    for line in EXPECTED:
        assert line in str(info.value)
    assert snapshot() == before


def test_the_api_refuses_them_and_writes_nothing(catalogue):
    client = Client()
    client.force_login(catalogue.organiser)
    before = snapshot()
    body = {"faction": "collectif-g-plus", "name": "Ganesha", "text": BAD_G_PLUS}
    response = client.post("/api/fleets/import", json.dumps(body), "application/json")
    assert response.status_code == 400
    # The league reads French: the API lists the same errors in French.
    assert [e["message"] for e in response.json()["errors"]] == [
        "ligne 3\u202f: unité légère inconnue «\u202fMijnaa\u202f» "
        "(vouliez-vous dire «\u202fMijna\u202f»\u202f?)",
        "ligne 5\u202f: unité légère inconnue «\u202fNith\u202f»",
        "ligne 8\u202f: pas de batterie de faisceaux de classe 7\u202f: "
        "les faisceaux sont de classe 1, 2 ou 3 (rules/ft-incursion.md §8)",
    ]
    assert snapshot() == before


def test_known_squadrons_are_written_with_their_catalogue_spelling(catalogue):
    fleet = fleet_import(faction=catalogue.g_plus, text=GOOD_G_PLUS, fleet_name="Ganesha")
    kajna = fleet.ships.get(ship_class__name="Kajna")
    assert sorted(kajna.light_units.values_list("unit_type", flat=True)) == [
        "Mijna",
        "Mijna",
        "Mijna",
        "Najna",
    ]
    battery = fleet.light_units.get(kind="battery")
    assert (battery.unit_type, battery.location) == ("beam-3", "Les deux colonies G+ fournissent")


def test_each_faction_knows_its_catalogue_squadrons(catalogue):
    names = {f.slug: faction_light_unit_names(faction=f) for f in Faction.objects.all()}
    assert names["collectif-g-plus"] == {"Mijna", "Najna", "Avna"}
    assert names["phalon"] == {"Nith", "Tuus"}
    assert "Long-range fighters" in names["qatzrin"]
    assert "Nith" not in names["collectif-g-plus"]


def test_a_bay_squadron_of_a_class_in_the_database_is_known(cast):
    ShipClass.objects.create(
        faction=cast.qatzrin,
        name="Test carrier",
        slug="test-carrier",
        mass=60,
        hull_boxes=20,
        design={"systems": [{"id": "bay-a", "kind": "bay", "squadron": {"name": "Ofek 2"}}]},
    )
    assert "Ofek" in faction_light_unit_names(faction=cast.qatzrin)
    text = "1 porte-nef classe Test carrier\n1 escadrille de chasseurs Ofek\n"
    fleet = fleet_import(faction=cast.qatzrin, text=text, fleet_name="Ofek test")
    assert list(fleet.light_units.values_list("unit_type", flat=True)) == ["Ofek"]


@pytest.mark.parametrize("beam_class", ["0", "4", "7", "12"])
def test_the_parser_refuses_beam_batteries_outside_classes_1_to_3(beam_class):
    text = f"1 corvette classe Sa'ar\n2 Faisceau classe {beam_class}\n"
    with pytest.raises(FleetListError) as info:
        fleet_list_parse(text)
    assert [e.line for e in info.value.errors] == [2]
    assert f"no class-{int(beam_class)} beam battery" in str(info.value)


@pytest.mark.parametrize("beam_class", ["1", "2", "3"])
def test_the_parser_accepts_beam_classes_1_to_3(beam_class):
    fleet = fleet_list_parse(f"1 corvette classe Sa'ar\n1 Faisceau classe {beam_class}\n")
    assert [lu.unit_type for lu in fleet.light_units] == [f"beam-{beam_class}"]


def test_the_parser_checks_names_only_when_given_and_accepts_unnamed_squadrons():
    text = "1 porte-nef classe Kajna\n1 escadrille de chasseurs Zorg\n1 escadrille de chasseurs\n"
    assert len(fleet_list_parse(text).ships[0].light_units) == 2
    with pytest.raises(FleetListError, match='line 2: unknown light unit "Zorg"$'):
        fleet_list_parse(text, light_unit_names=["Mijna"])


def test_the_readme_example_imports_into_the_catalogue(catalogue):
    readme = (ROOT / "README.md").read_text("utf-8")
    example = readme.split("```text\n", 1)[1].split("```", 1)[0]
    fleet = fleet_import(faction=catalogue.g_plus, text=example, fleet_name="Readme")
    assert sorted(fleet.ships.values_list("ship_class__name", flat=True)) == [
        "Drina",
        "Drina",
        "Kajna",
    ]
    assert fleet.light_units.count() == 5  # 4 squadrons on the Kajna, 1 colony battery
