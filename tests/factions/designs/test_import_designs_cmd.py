"""``manage.py import_designs`` and ``POST /api/designs/import`` on bad files and payloads,
and on classes that ships already use (kept unless --replace; a replacement must keep every
system id a ship has lost)."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from factions.catalogue_loader import catalogue_load
from factions.designs.imports import DesignReplaceError, designs_parse, designs_save
from factions.models import Faction, Fleet, Ship, ShipClass
from tests.conftest import ROOT
from tests.factions.factories import ftl_ship, valid_design

# These tests read the English messages of the parsers and services (the French ones are the
# catalogue's; requests still follow their own Accept-Language).
pytestmark = pytest.mark.usefixtures("english")


PRESETS = ROOT.parent / "shared" / "fulltrust-data" / "perlkonig-ftLibShip-preset-fleets.json"


def classes_state():
    return list(ShipClass.objects.order_by("pk").values())


def import_cmd(path, *args):
    out = StringIO()
    call_command("import_designs", str(path), "--faction", "qatzrin", *args, stdout=out)
    return out.getvalue()


# --- unreadable files --------------------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        bytes(range(256)),  # binary
        json.dumps(valid_design(), ensure_ascii=False).encode("latin-1"),
    ],
    ids=["binary", "latin-1"],
)
def test_a_file_that_is_not_utf8_is_a_command_error_naming_it(cast, tmp_path, content):
    path = tmp_path / "ships.bin"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=r"ships\.bin: not a UTF-8 text file"):
        import_cmd(path)
    assert not ShipClass.objects.exists()


def test_a_ship_with_values_of_the_wrong_type_is_rejected_not_a_crash(cast, tmp_path):
    path = tmp_path / "ships.json"
    bad = ftl_ship(name="Broken", mass="heavy")
    odd = ftl_ship(name="Odd", systems=["drive"])
    path.write_text(json.dumps([{"name": "NAC", "ships": [bad, odd, ftl_ship(), 7]}]))
    text = import_cmd(path)
    assert "Broken: rejected: ship: unreadable ftLibShip ship (ValueError" in text
    assert "Odd: rejected: ship: unreadable ftLibShip ship (AttributeError" in text
    assert "#4: rejected: ship: a ship must be an object" in text
    assert list(ShipClass.objects.values_list("name", flat=True)) == ["Test Cruiser"]


# --- the API with bad payloads -----------------------------------------------------------


def organiser_client(cast):
    client = Client()
    client.force_login(cast.organiser)
    return client


def post(client, body):
    return client.post("/api/designs/import", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize(
    "data",
    [None, "text", 5, [], [1, 2], {"classes": 5}, {"hull": "big"}, [[[]]]],
    ids=["null", "string", "number", "empty", "numbers", "classes-number", "hull-text", "nest"],
)
def test_api_import_of_a_payload_that_is_no_design_file_is_a_400(cast, data):
    response = post(organiser_client(cast), {"faction": "qatzrin", "data": data})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("pas un fichier de conceptions\u202f: ")
    assert not ShipClass.objects.exists()


def test_api_import_of_malformed_ships_lists_them_and_writes_the_rest(cast):
    data = {"name": "NAC", "ships": [ftl_ship(name="Broken", hull={"points": "x"}), ftl_ship()]}
    response = post(organiser_client(cast), {"faction": "qatzrin", "data": data})
    assert response.status_code == 201
    body = response.json()
    assert body["written"] == 1
    assert [e["ship"] for e in body["invalid"] if e["field"] == "ship"] == ["Broken"]
    assert [d["name"] for d in body["designs"]] == ["Test Cruiser"]


@pytest.mark.parametrize(
    "body",
    [{"faction": "qatzrin"}, {"faction": ["qatzrin"], "data": {}}, {"data": {}}, "not json"],
)
def test_api_import_with_a_malformed_body_is_refused(cast, body):
    client = organiser_client(cast)
    raw = body if isinstance(body, str) else json.dumps(body)
    response = client.post("/api/designs/import", raw, content_type="application/json")
    assert response.status_code in (400, 422)
    assert not ShipClass.objects.exists()


def test_api_import_of_admiralty_data_that_is_not_objects_is_a_400(cast):
    data = {"faction": {"slug": "x", "name": "X"}, "classes": [1, "two"]}
    response = post(organiser_client(cast), {"faction": "qatzrin", "data": data})
    assert response.status_code == 400
    assert {e["ship"] for e in response.json()["invalid"]} == {"#1", "#2"}
    assert not ShipClass.objects.exists()


# --- classes in use ----------------------------------------------------------------------


@pytest.fixture
def hanit_in_use(cast):
    """Hanit, with two ships of a fleet; one has lost its beam."""
    (hanit,) = designs_save(
        faction=cast.qatzrin, result=designs_parse(valid_design(), faction="qatzrin")
    )
    fleet = Fleet.objects.create(faction=cast.qatzrin, name="5th", slug="5th")
    Ship.objects.create(ship_class=hanit, fleet=fleet, name="Eilat", systems_lost=["beam-a"])
    Ship.objects.create(ship_class=hanit, fleet=fleet, name="Haifa")
    cast.hanit = hanit
    return cast


def changed_hanit(*, drop_beam=False):
    design = copy.deepcopy(valid_design())
    design["rationale"] = "refit"
    if drop_beam:
        design["systems"][0]["id"] = "beam-b"
    return design


def test_without_replace_a_class_with_ships_is_kept_and_reported(hanit_in_use, tmp_path):
    before = classes_state()
    path = tmp_path / "hanit.json"
    path.write_text(json.dumps([changed_hanit(), valid_design("Lahav")]))
    text = import_cmd(path)
    assert "kept: Hanit has 2 ships; use --replace" in text
    assert "1 ship class(es) written, 1 kept" in text
    assert ShipClass.objects.get(name="Hanit").design["rationale"] == "test frigate"
    assert ShipClass.objects.filter(name="Lahav").exists()
    assert classes_state()[0] == before[0]


def test_an_identical_design_is_no_change_and_is_not_reported(hanit_in_use, tmp_path):
    path = tmp_path / "hanit.json"
    path.write_text(json.dumps(ShipClass.objects.get(name="Hanit").design))
    text = import_cmd(path)
    assert "kept" not in text
    assert "1 ship class(es) written" in text


def test_with_replace_a_design_keeping_the_lost_systems_is_written(hanit_in_use, tmp_path):
    path = tmp_path / "hanit.json"
    path.write_text(json.dumps(changed_hanit()))
    text = import_cmd(path, "--replace")
    assert "kept" not in text
    assert ShipClass.objects.get(name="Hanit").design["rationale"] == "refit"


def test_with_replace_a_design_dropping_a_lost_system_is_refused(hanit_in_use, tmp_path):
    before = classes_state()
    path = tmp_path / "hanit.json"
    path.write_text(json.dumps([valid_design("Lahav"), changed_hanit(drop_beam=True)]))
    with pytest.raises(CommandError, match=r"nothing written: Hanit: ship Eilat .* 'beam-a'"):
        import_cmd(path, "--replace")
    assert classes_state() == before
    with pytest.raises(DesignReplaceError, match="Eilat"):
        designs_save(
            faction=hanit_in_use.qatzrin,
            result=designs_parse(changed_hanit(drop_beam=True), faction="qatzrin"),
            replace=True,
        )


def test_with_replace_synthesised_systems_a_ship_has_lost_are_kept(hanit_in_use):
    eilat = Ship.objects.get(name="Eilat")
    eilat.systems_lost = ["beam-a", "fc-1", "drive", "bridge"]
    eilat.save()
    (hanit,) = designs_save(
        faction=hanit_in_use.qatzrin,
        result=designs_parse(changed_hanit(), faction="qatzrin"),
        replace=True,
    )
    assert hanit.design["rationale"] == "refit"


def test_api_import_keeps_classes_in_use_unless_replace(hanit_in_use):
    client = organiser_client(hanit_in_use)
    body = {"faction": "qatzrin", "data": changed_hanit()}
    response = post(client, body)
    assert response.status_code == 201
    assert response.json()["kept"] == ['kept: Hanit has 2 ships; use "replace": true']
    assert response.json()["written"] == 0
    assert ShipClass.objects.get(name="Hanit").design["rationale"] == "test frigate"
    dropped = post(client, {**body, "data": changed_hanit(drop_beam=True), "replace": True})
    assert dropped.status_code == 400
    assert "Eilat" in dropped.json()["detail"] and "beam-a" in dropped.json()["detail"]
    assert ShipClass.objects.get(name="Hanit").design["rationale"] == "test frigate"
    replaced = post(client, {**body, "replace": True})
    assert (replaced.status_code, replaced.json()["written"]) == (201, 1)
    assert ShipClass.objects.get(name="Hanit").design["rationale"] == "refit"


@pytest.mark.skipif(not PRESETS.exists(), reason="shared ftLibShip file absent")
def test_the_presets_leave_the_catalogue_tsaara_of_miranda_alone(cast, tmp_path):
    catalogue_load()
    phalon = Faction.objects.get(slug="phalon")
    tsaara = ShipClass.objects.get(faction=phalon, name="Tsaara")
    fleet = Fleet.objects.create(faction=phalon, name="68th", slug="68th")
    for name in ("Tsaara 1", "Tsaara 2"):
        Ship.objects.create(ship_class=tsaara, fleet=fleet, name=name, systems_lost=["veil"])
    out = StringIO()
    call_command("import_designs", str(PRESETS), "--faction", "phalon", stdout=out)
    assert "kept: Tsaara has 2 ships; use --replace" in out.getvalue()
    tsaara.refresh_from_db()
    assert "veil" in {s["id"] for s in tsaara.design["systems"]}
    with pytest.raises(CommandError, match=r"Tsaara: ship Tsaara 1 .* 'veil'"):
        call_command("import_designs", str(PRESETS), "--faction", "phalon", "--replace")
