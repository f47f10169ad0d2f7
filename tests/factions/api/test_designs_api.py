"""``/api/designs``: list, read, SSD, create, validate, import — with access checks."""

import copy
import json
import xml.etree.ElementTree as ET

import pytest

from factions.designs import validation
from factions.designs.imports import export_design
from factions.models import ShipClass
from tests.conftest import ROOT
from tests.conftest import logged_in as client_for
from tests.db_rows import row_counts, rows_of
from tests.factions.factories import valid_design as design

FULLTRUST = ROOT.parent / "shared" / "fulltrust-data"
PRESETS = FULLTRUST / "perlkonig-ftLibShip-preset-fleets.json"


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


@pytest.fixture
def hanit(cast):
    doc = design()
    response = post(client_for(cast.organiser), "/api/designs", doc)
    assert response.status_code == 201, response.content
    return ShipClass.objects.get(pk=response.json()["id"])


def test_list_and_detail_are_public(hanit, django_assert_num_queries):
    client = client_for()
    with django_assert_num_queries(2):  # how many (X-Total-Count), the page's rows
        response = client.get("/api/designs")
    assert response.status_code == 200
    (row,) = response.json()
    assert row["name"] == "Hanit" and row["faction"] == "qatzrin"
    assert row["points"] == validation.design_points(design())
    detail = client.get(f"/api/designs/{hanit.pk}").json()
    assert detail["design"]["systems"][0]["id"] == "beam-a"
    assert detail["crew_factors"] == -(-hanit.mass // 20)
    assert client.get("/api/designs/99999").status_code == 404


def test_ssd_is_served_as_svg(hanit):
    response = client_for().get(f"/api/designs/{hanit.pk}/ssd.svg")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    root = ET.fromstring(response.content)
    assert {el.get("data-system") for el in root.iter() if el.get("data-system")} >= {
        "beam-a",
        "pd-a",
    }


def test_validate_returns_every_error_with_its_field(cast):
    bad = design()
    bad["systems"].append({"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo"})
    bad["systems"].append({"id": "beam-a", "kind": "pd"})
    bad["hull"]["rows"] = [1, 1]
    response = post(client_for(), "/api/designs/validate", bad)
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    fields = {e["field"] for e in body["errors"]}
    assert {"systems[2].arcs", "hull"} <= fields
    assert all(e["message"] for e in body["errors"])

    bad = design()
    bad["systems"].append(
        {"id": "torp-a", "kind": "weapon", "weapon": "plasma-torpedo", "arcs": ["F"]}
    )
    bad["systems"].append({"id": "beam-a", "kind": "pd"})
    body = post(client_for(), "/api/designs/validate", bad).json()
    fields = {e["field"] for e in body["errors"]}
    assert {"systems[2].magazine", "systems[3].id"} <= fields


def test_validate_a_good_design_gives_points_and_mass():
    doc = design()
    body = post(client_for(), "/api/designs/validate", doc).json()
    assert body == {
        "valid": True,
        "errors": [],
        "points": validation.design_points(doc),
        "mass": doc["mass"],
    }


def test_create_needs_a_login_and_an_organiser(cast):
    doc = design()
    before = row_counts()
    assert post(client_for(), "/api/designs", doc).status_code == 401
    for user in (cast.norge_player, cast.qatzrin_player, cast.chronicler, cast.outsider):
        response = post(client_for(user), "/api/designs", doc)
        assert response.status_code == 403, user.username
    assert not ShipClass.objects.exists()
    assert row_counts() == before


def test_create_rejects_invalid_designs_with_fields(cast):
    bad = design()
    bad["mass"] += 1
    before = row_counts()
    response = post(client_for(cast.organiser), "/api/designs", bad)
    assert response.status_code == 422
    assert [e["field"] for e in response.json()["errors"]] == ["mass"]
    unknown = design(faction="nobody")
    assert post(client_for(cast.organiser), "/api/designs", unknown).status_code == 404
    assert not ShipClass.objects.exists()
    assert row_counts() == before


def test_create_refuses_a_second_class_of_the_same_name(hanit, cast):
    before, first = row_counts(), rows_of(ShipClass)
    response = post(client_for(cast.organiser), "/api/designs", design())
    assert response.status_code == 409
    assert ShipClass.objects.count() == 1
    assert rows_of(ShipClass) == first and row_counts() == before


def ftl_fleet():
    ship = {
        "name": "Arapaho",
        "class": "Corvette",
        "mass": 12,
        "points": 41,
        "hull": {"points": 2, "rows": 4, "stealth": "0", "streamlining": "none"},
        "armour": [[1, 0]],
        "systems": [
            {"name": "drive", "thrust": 6, "advanced": False},
            {"name": "ftl", "advanced": False},
            {"name": "fireControl"},
        ],
        "weapons": [
            {"name": "beam", "class": 1, "leftArc": "F", "numArcs": 6},
            {"name": "pds"},
            {"name": "warpCannon", "leftArc": "F", "numArcs": 1},
        ],
        "ordnance": [],
        "fighters": [],
    }
    return [{"name": "NAC", "ships": [ship]}]


def test_import_needs_an_organiser(cast):
    body = {"faction": "qatzrin", "data": ftl_fleet()}
    before = row_counts()
    assert post(client_for(), "/api/designs/import", body).status_code == 401
    assert post(client_for(cast.qatzrin_player), "/api/designs/import", body).status_code == 403
    assert not ShipClass.objects.exists()
    assert row_counts() == before


def test_import_ftlibship_reports_unmapped_systems(cast):
    client = client_for(cast.organiser)
    body = {"faction": "qatzrin", "data": ftl_fleet(), "dry_run": True}
    response = post(client, "/api/designs/import", body)
    assert response.status_code == 200
    assert response.json()["written"] == 0
    assert not ShipClass.objects.exists()
    body["dry_run"] = False
    response = post(client, "/api/designs/import", body)
    assert response.status_code == 201
    out = response.json()
    assert out["format"] == "ftlibship" and out["written"] == 1
    assert out["unmapped"] == [
        {"ship": "Arapaho", "system": "warpCannon", "reason": "no Incursion equivalent"}
    ]
    arapaho = ShipClass.objects.get(faction=cast.qatzrin)
    assert arapaho.design["systems"][0]["weapon"] == "beam-3"  # FB class 1 (D-24)


def test_import_own_format_is_all_or_nothing(cast):
    client = client_for(cast.organiser)
    good, bad = design("Hanit"), design("Eilat")
    bad["systems"][0]["arcs"] = ["F", "A"]
    body = {"faction": "qatzrin", "data": [good, bad], "format": "admiralty"}
    before = row_counts()
    response = post(client, "/api/designs/import", body)
    assert response.status_code == 400
    assert response.json()["invalid"][0]["field"] == "systems[0].arcs"
    assert not ShipClass.objects.exists()
    assert row_counts() == before
    body["data"] = [good, design("Eilat")]
    assert post(client, "/api/designs/import", body).status_code == 201
    assert ShipClass.objects.count() == 2


def test_import_rejects_unknown_formats_and_factions(cast):
    client = client_for(cast.organiser)
    before = row_counts()
    body = {"faction": "qatzrin", "data": {"hello": "world"}}
    assert post(client, "/api/designs/import", body).status_code == 400
    body = {"faction": "qatzrin", "data": ftl_fleet(), "format": "xml"}
    assert post(client, "/api/designs/import", body).status_code == 400
    body = {"faction": "nobody", "data": ftl_fleet()}
    assert post(client, "/api/designs/import", body).status_code == 404
    assert row_counts() == before


@pytest.mark.skipif(not PRESETS.exists(), reason="shared ftLibShip file absent")
def test_import_the_preset_file_through_the_api(cast):
    data = json.loads(PRESETS.read_text())
    response = post(
        client_for(cast.organiser), "/api/designs/import", {"faction": "qatzrin", "data": data}
    )
    assert response.status_code == 201
    out = response.json()
    assert out["written"] == 91
    assert {"ship": "Excalibur", "system": "torpedoPulse"} in [
        {k: u[k] for k in ("ship", "system")} for u in out["unmapped"]
    ]


def test_export_of_a_created_class_round_trips_through_create(hanit, cast):
    exported = export_design(hanit)
    hanit.delete()
    response = post(client_for(cast.organiser), "/api/designs", copy.deepcopy(exported))
    assert response.status_code == 201
    assert response.json()["design"] == exported


def test_export_endpoints_give_back_what_import_takes(hanit, cast):
    client = client_for()
    one = client.get(f"/api/designs/{hanit.pk}/export").json()
    assert one == hanit.design
    catalogue = client.get("/api/designs/export", {"faction": "qatzrin"}).json()
    assert catalogue["classes"] == [one]
    assert client.get("/api/designs/export", {"faction": "nobody"}).status_code == 404
    body = {"faction": "kongeriket-norge", "data": catalogue, "format": "admiralty"}
    response = post(client_for(cast.organiser), "/api/designs/import", body)
    assert response.status_code == 201
    copied = ShipClass.objects.get(faction=cast.norge)
    assert copied.design == {**one, "faction": "kongeriket-norge"}
