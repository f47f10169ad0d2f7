"""Text no column can store (NUL, lone surrogate, over-long) and
over-size input get a clear 4xx on every write path, nothing written, identically on
SQLite and PostgreSQL (run this module with DATABASE_URL=postgres://… too), and sizes are
bounded with a readable message (``campaign.core.limits``)."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from battles.models import Battle
from campaign.core import limits
from campaign.league.models import ApiToken
from factions.models import Fleet, LightUnitGroup, Ship, ShipClass
from factions.services import FleetImportError, fleet_import
from tests.factions.api.test_fleet_import_api import GANESHA_PART, counts
from tests.factions.factories import valid_design

SURROGATE = "\ud800"


def organiser(cast) -> Client:
    client = Client()
    client.force_login(cast.organiser)
    return client


def post_json(client: Client, url: str, body) -> object:
    # ensure_ascii (the default) writes a lone surrogate as the escape "\ud800", as a
    # client would; json.dumps never fails on it.
    return client.post(url, json.dumps(body), content_type="application/json")


FLEET = {"faction": "qatzrin", "name": "Raiders", "text": "3 corvettes classe Sa'ar"}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": "Rai\x00ders"}, "name"),
        ({"name": f"Raiders {SURROGATE}"}, "name"),
        ({"admiral": "Adm\x00iral"}, "admiral"),
        ({"admiral": "A" * 201}, "admiral"),
        ({"name": "R" * 201}, "name"),
        ({"text": "3 corvettes classe Sa'ar\x00"}, "text"),
    ],
)
def test_fleet_import_api_refuses_unstorable_text(classes, change, field):
    before = counts()
    response = post_json(organiser(classes), "/api/fleets/import", FLEET | change)
    assert 400 <= response.status_code < 500 and response.status_code != 404
    assert field in response.json()["detail"], response.content
    assert counts() == before


def test_a_fleet_list_heading_longer_than_its_column_is_refused(classes):
    heading = "Les colonies " + "G" * 300 + " fournissent :"
    with pytest.raises(FleetImportError, match="location"):
        fleet_import(
            faction=classes.g_plus,
            text=GANESHA_PART.replace("Les deux colonies G+ fournissent :", heading),
            fleet_name="Ganesha",
        )
    assert counts() == (0, 0, 0)


def test_the_import_fleet_command_reports_unstorable_text(classes, tmp_path):
    path = tmp_path / "raiders.txt"
    path.write_text("3 corvettes classe Sa'ar\n", encoding="utf-8")
    with pytest.raises(CommandError, match="admiral"):
        call_command("import_fleet", str(path), faction="qatzrin", admiral="x\x00y")
    assert counts() == (0, 0, 0)


def test_design_import_refuses_nul_in_the_file(cast):
    body = {"faction": "qatzrin", "data": [valid_design() | {"rationale": "a\x00b"}]}
    response = post_json(organiser(cast), "/api/designs/import", body)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "data[0].rationale"
    assert not ShipClass.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"outcome": "won\x00"}, "outcome"),
        ({"narrative": f"A {SURROGATE} story"}, "narrative"),
        ({"results": [{"participant": 1, "notes": "x\x00"}]}, "results[0].notes"),
        ({"narrative": "n" * (limits.TEXT_MAX_CHARS + 1)}, "narrative"),
    ],
)
def test_recording_a_battle_refuses_unstorable_text(cast, battle, body, field):
    response = post_json(organiser(cast), f"/api/battles/{battle.pk}/record", body)
    assert response.status_code == 422, response.content
    assert field in response.text
    battle.refresh_from_db()
    assert battle.status == Battle.Status.DRAFT and not battle.narrative


def test_a_5_mb_narrative_gets_a_readable_json_413(cast, battle):
    body = {"outcome": "x", "narrative": "n" * 5_000_000}
    response = post_json(organiser(cast), f"/api/battles/{battle.pk}/record", body)
    assert response.status_code == 413
    assert response.json() == {
        "detail": "La requête est trop grande\u202f: la limite est de 2 Mio."
    }
    battle.refresh_from_db()
    assert battle.status == Battle.Status.DRAFT


def test_an_over_size_form_gets_a_readable_page(cast):
    response = organiser(cast).post(
        "/account/tokens/", {"name": "x" * 3_000_000}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 413
    assert "The request is too large: the limit is 2 MiB." in response.text
    assert not ApiToken.objects.exists()


def test_a_nul_in_a_token_name_is_refused_by_the_account_page(cast):
    response = organiser(cast).post("/account/tokens/", {"name": "bot\x00"}, follow=True)
    assert "NUL" in response.text and not ApiToken.objects.exists()


@pytest.mark.parametrize("url", ["/api/fleets/a%00b", "/api/factions/x%00", "/fleets/a%00/"])
def test_a_nul_in_the_address_is_a_400_not_a_500(db, url):
    assert Client().get(url).status_code == 400


def test_a_nul_in_the_query_string_is_a_400(db):
    assert Client().get("/api/designs/export?faction=a%00").status_code == 400


def test_a_fleet_list_beyond_the_ship_limit_is_refused_quickly(classes):
    lines = ["100 corvettes classe Sa'ar"] * (limits.FLEET_MAX_SHIPS // 100 + 1)
    text = "\n".join(lines)
    response = post_json(organiser(classes), "/api/fleets/import", FLEET | {"text": text})
    assert response.status_code == 400
    assert f"la limite est de {limits.FLEET_MAX_SHIPS} par flotte" in response.json()["detail"]
    assert counts() == (0, 0, 0)


def test_a_fleet_list_beyond_the_line_limit_is_refused(classes):
    text = "1 corvette classe Sa'ar\n" * (limits.FLEET_LIST_MAX_LINES + 1)
    response = post_json(organiser(classes), "/api/fleets/import", FLEET | {"text": text})
    assert response.status_code == 400
    assert f"la limite est de {limits.FLEET_LIST_MAX_LINES}" in response.json()["detail"]
    assert not Ship.objects.exists() and not Fleet.objects.exists()


def test_a_design_file_beyond_the_limit_is_refused(cast):
    body = {"faction": "qatzrin", "data": [{"format": "admiralty-design/1"}] * 1001}
    response = post_json(organiser(cast), "/api/designs/import", body)
    assert response.status_code == 400
    assert "la limite est de 1000 par fichier" in response.json()["detail"]


def test_a_light_unit_group_text_is_checked_before_save(cast):
    with pytest.raises(Exception, match="name"):
        LightUnitGroup.objects.create(name="x\x00", kind="fighter", faction=cast.qatzrin)
