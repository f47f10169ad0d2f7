"""Fleet-list import: the service, ``manage.py import_fleet`` and ``POST /api/fleets/import``.

On any error nothing is written: the tests compare row counts before and after.
"""

import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from factions.fleetlists import FleetListError
from factions.models import Fleet, LightUnitGroup, Ship
from factions.services import FleetImportError, fleet_import
from tests.conftest import logged_in

# The service and command tests read the English messages (requests follow their own
# Accept-Language: French by default).
pytestmark = pytest.mark.usefixtures("english")


GANESHA_PART = """Composition de la flotte :
- 1 porte-nef lourd classe Kajna
3
escadrilles de chasseurs Mijna
1
escadrille de chasseurs à long rayon d'action Najna
- 2 porte-nefs légers classe Brima
1
escadrille d'intercepteurs Avna
- 2 destroyers classe Mahida
Les deux colonies G+ fournissent :
- 2 Faisceau classe 2
"""

# Line 7 misspells a class.
BAD_LIST = """# 5th fleet
3 corvettes classe Sa'ar
2 frégates classe Ra'am
2 destroyers classe Tzayad

1 croiseur lourd classe Yerushalayim-L
3 corvettes classe Sa'arr
0 croiseurs classe Barak
"""


def counts():
    return (Fleet.objects.count(), Ship.objects.count(), LightUnitGroup.objects.count())


def test_import_creates_ships_and_squadrons_on_their_carriers(classes):
    fleet = fleet_import(faction=classes.g_plus, text=GANESHA_PART, fleet_name="Ganesha force")
    assert (fleet.slug, fleet.faction.slug) == ("ganesha-force", "collectif-g-plus")
    assert sorted(fleet.ships.values_list("ship_class__name", flat=True)) == [
        "Brima",
        "Brima",
        "Kajna",
        "Mahida",
        "Mahida",
    ]
    kajna = fleet.ships.get(ship_class__name="Kajna")
    assert sorted(kajna.light_units.values_list("name", "kind")) == [
        ("Mijna 1", "fighter"),
        ("Mijna 2", "fighter"),
        ("Mijna 3", "fighter"),
        ("Najna", "long-range-fighter"),
    ]
    # one Avna squadron under a line of two Brima: each carrier carries one.
    for brima in fleet.ships.filter(ship_class__name="Brima"):
        assert [lu.unit_type for lu in brima.light_units.all()] == ["Avna"]
    batteries = fleet.light_units.filter(kind="battery")
    assert [(b.unit_type, b.carrier, b.location) for b in batteries] == [
        ("beam-2", None, "Les deux colonies G+ fournissent")
    ] * 2
    assert {lu.size for lu in fleet.light_units.exclude(kind="battery")} == {6}


def test_import_error_lists_every_line_and_writes_nothing(classes):
    before = counts()
    with pytest.raises(FleetListError) as info:
        fleet_import(faction=classes.qatzrin, text=BAD_LIST, fleet_name="5th fleet")
    assert [str(e) for e in info.value.errors] == [
        'line 7: unknown ship class "Sa\'arr" (did you mean "Sa\'ar"?)',
        'line 8: bad count "0" (a whole number from 1 to 100)',
    ]
    assert counts() == before


def test_squadrons_beyond_a_carriers_bays_are_refused(classes):
    text = "1 porte-nef léger classe Brima\n1 escadrille d'intercepteurs Avna\n"
    text += "1 escadrille de chasseurs Mijna\n"
    before = counts()
    with pytest.raises(FleetListError) as info:
        fleet_import(faction=classes.g_plus, text=text, fleet_name="Too many")
    assert [str(e) for e in info.value.errors] == [
        "line 3: a Brima has 1 bay: 2 squadrons do not fit"
    ]
    assert counts() == before


def test_classes_of_another_faction_are_unknown(classes):
    with pytest.raises(FleetListError, match='line 1: unknown ship class "Kajna"'):
        fleet_import(faction=classes.qatzrin, text="1 porte-nef classe Kajna", fleet_name="X")


def test_a_taken_fleet_slug_is_refused_and_nothing_written(classes):
    fleet_import(faction=classes.qatzrin, text="3 corvettes classe Sa'ar", fleet_name="Patrol")
    before = counts()
    with pytest.raises(FleetImportError, match='"patrol" already exists'):
        fleet_import(faction=classes.qatzrin, text="2 frégates classe Ra'am", fleet_name="patrol")
    with pytest.raises(FleetImportError, match="needs a name"):
        fleet_import(faction=classes.qatzrin, text="2 frégates classe Ra'am", fleet_name=" ")
    assert counts() == before


def test_import_fleet_command_creates_the_fleet(classes, tmp_path):
    path = tmp_path / "patrol.txt"
    path.write_text("3 corvettes classe Sa’ar\n1 croiseur de bataille classe Barak\n", "utf-8")
    call_command("import_fleet", str(path), "--faction", "qatzrin", "--name", "Home guard")
    fleet = Fleet.objects.get(slug="home-guard")
    assert fleet.ships.count() == 4


def test_import_fleet_command_reports_line_errors_and_writes_nothing(classes, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(BAD_LIST, "utf-8")
    before = counts()
    with pytest.raises(CommandError, match=r"line 7: unknown ship class \"Sa'arr\""):
        call_command("import_fleet", str(path), "--faction", "qatzrin")
    with pytest.raises(CommandError, match='unknown faction "atlantis"'):
        call_command("import_fleet", str(path), "--faction", "atlantis")
    assert counts() == before


def post(client, body):
    return client.post("/api/fleets/import", json.dumps(body), content_type="application/json")


def test_api_import_is_for_organisers(classes):
    body = {"faction": "qatzrin", "name": "Raiders", "text": "3 corvettes classe Sa'ar"}
    before = counts()
    assert post(Client(), body).status_code == 401
    for user in (classes.qatzrin_player, classes.chronicler, classes.outsider):
        assert post(logged_in(user), body).status_code == 403
    assert counts() == before
    response = post(logged_in(classes.organiser), body)
    assert response.status_code == 201
    created = response.json()
    assert (created["slug"], created["ship_count"]) == ("raiders", 3)
    assert [s["ship_class"]["name"] for s in created["ships"]] == ["Sa'ar"] * 3


def test_api_import_returns_the_line_errors_and_writes_nothing(classes):
    before = counts()
    response = post(
        logged_in(classes.organiser), {"faction": "qatzrin", "name": "5th", "text": BAD_LIST}
    )
    assert response.status_code == 400
    # French, the league's language (the service tests above read the English).
    assert [e["message"] for e in response.json()["errors"]] == [
        "ligne 7\u202f: classe de vaisseau inconnue «\u202fSa'arr\u202f» "
        "(vouliez-vous dire «\u202fSa'ar\u202f»\u202f?)",
        "ligne 8\u202f: nombre invalide «\u202f0\u202f» (un nombre entier de 1 à 100)",
    ]
    empty = post(logged_in(classes.organiser), {"faction": "qatzrin", "name": "E", "text": ""})
    assert [e["message"] for e in empty.json()["errors"]] == [
        "ligne 1\u202f: la liste de flotte n’a aucun vaisseau"
    ]
    unknown = post(logged_in(classes.organiser), {"faction": "nope", "name": "E", "text": "x"})
    assert unknown.status_code == 404
    assert counts() == before


def test_api_import_enforces_csrf_for_session_users(classes):
    client = Client(enforce_csrf_checks=True)
    client.force_login(classes.organiser)
    body = {"faction": "qatzrin", "name": "Raiders", "text": "3 corvettes classe Sa'ar"}
    assert post(client, body).status_code == 403
    assert not Fleet.objects.filter(slug="raiders").exists()


def test_import_fleet_command_lists_the_faction_slugs_for_an_unknown_one(classes, tmp_path):
    path = tmp_path / "patrol.txt"
    path.write_text("3 corvettes classe Sa'ar\n", "utf-8")
    with pytest.raises(CommandError) as info:
        call_command("import_fleet", str(path), "--faction", "nosuch")
    assert str(info.value) == (
        'unknown faction "nosuch" (factions: collectif-g-plus, kongeriket-norge, qatzrin)'
    )
    response = post(logged_in(classes.organiser), {"faction": "nosuch", "name": "E", "text": "x"})
    assert response.status_code == 404
    assert "collectif-g-plus, kongeriket-norge, qatzrin" in response.json()["detail"]


def test_a_fleet_name_without_letters_or_digits_is_explained(classes, tmp_path):
    path = tmp_path / "patrol.txt"
    path.write_text("3 corvettes classe Sa'ar\n", "utf-8")
    before = counts()
    with pytest.raises(CommandError, match='"!!!" must contain letters or digits to make a slug'):
        call_command("import_fleet", str(path), "--faction", "qatzrin", "--name", "!!!")
    assert counts() == before
