"""Who may export and import a campaign, on the pages and in the API.

Export: the campaign's organisers and staff (the document holds hidden fleets and every
side's orders); its other members 403, anyone else 404 (another campaign's organiser
too), no user: the login page (401 in the API). Import: staff only (403 for everyone
else, 401 without a user in the API)."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from campaign.league.models import Campaign
from factions.models import Faction, Fleet
from tests.conftest import client_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

EXPORT = {
    "organiser": 200,
    "staff": 200,
    "norge_player": 403,
    "qatzrin_player": 403,
    "chronicler": 403,
    "outsider": 404,
    "other_org": 404,
}

IMPORTERS = {
    "staff": True,
    "organiser": False,
    "norge_player": False,
    "qatzrin_player": False,
    "chronicler": False,
    "outsider": False,
    "other_org": False,
}


def small_document(slug: str = "new-league") -> dict:
    """A document with every optional field left out: a campaign, a faction, a fleet."""
    return {
        "schema": "admiralty-campaign",
        "version": 1,
        "campaign": {"name": "New league", "slug": slug},
        "factions": [{"name": "Zeta", "slug": "zeta"}],
        "fleets": [{"faction": "zeta", "name": "First", "slug": "zeta-first", "hidden": True}],
    }


@pytest.fixture
def hidden(cast):
    """A hidden Qatzrin fleet in the cast's campaign: what an export must not give away."""
    return Fleet.objects.create(faction=cast.qatzrin, name="Shadow", slug="shadow", hidden=True)


def test_the_page_download(cast, rival, hidden):
    url = "/campaigns/test-league/export.json"
    for who, status in EXPORT.items():
        response = client_for(cast, rival, who).get(url)
        assert response.status_code == status, who
        if status == 200:
            assert response["Content-Disposition"] == 'attachment; filename="test-league.json"'
            document = json.loads(response.content)
            assert [f["slug"] for f in document["fleets"]] == ["shadow"]
        else:
            assert b"shadow" not in response.content
    response = client_for(cast, rival, None).get(url)
    assert (response.status_code, response["Location"].split("?")[0]) == (302, "/login/")
    # Another campaign's slug: its organiser only.
    assert (
        client_for(cast, rival, "organiser").get("/campaigns/other-league/export.json").status_code
        == 404
    )
    assert (
        client_for(cast, rival, "other_org").get("/campaigns/other-league/export.json").status_code
        == 200
    )
    assert (
        client_for(cast, rival, "organiser").get("/campaigns/no-such/export.json").status_code
        == 404
    )


def test_the_download_link_is_for_organisers(cast, rival):
    for who in ("organiser", "norge_player", "chronicler", None):
        page = client_for(cast, rival, who).get("/campaigns/test-league/")
        assert (b'id="export-link"' in page.content) == (who == "organiser"), who


def test_the_api_export(cast, rival, hidden):
    url = "/api/campaigns/test-league/export"
    for who, status in EXPORT.items():
        response = client_for(cast, rival, who).get(url)
        assert response.status_code == status, who
        assert (b"shadow" in response.content) == (status == 200), who
    assert client_for(cast, rival, None).get(url).status_code == 401
    assert (
        client_for(cast, rival, "organiser").get("/api/campaigns/other-league/export").status_code
        == 404
    )


def test_the_import_page(cast, rival):
    for who, allowed in IMPORTERS.items():
        response = client_for(cast, rival, who).get("/campaign-import/")
        assert response.status_code == (200 if allowed else 403), who
    response = client_for(cast, rival, None).get("/campaign-import/")
    assert (response.status_code, response["Location"].split("?")[0]) == (302, "/login/")
    body = json.dumps(small_document()).encode()
    for who, allowed in IMPORTERS.items():
        if allowed:
            continue
        upload = SimpleUploadedFile("league.json", body, content_type="application/json")
        response = client_for(cast, rival, who).post("/campaign-import/", {"document": upload})
        assert response.status_code == 403, who
    assert not Campaign.objects.filter(slug="new-league").exists()
    upload = SimpleUploadedFile("league.json", body, content_type="application/json")
    response = client_for(cast, rival, "staff").post("/campaign-import/", {"document": upload})
    assert (response.status_code, response["Location"]) == (302, "/campaigns/new-league/")
    assert Faction.objects.get(slug="zeta").campaigns.get().slug == "new-league"
    assert Fleet.objects.get(slug="zeta-first").hidden is True


def test_the_import_page_lists_every_refused_path(cast, rival):
    document = small_document(slug="test-league")
    document["fleets"][0]["faction"] = "nobody"
    staff = client_for(cast, rival, "staff", HTTP_ACCEPT_LANGUAGE="en")
    upload = SimpleUploadedFile("league.json", json.dumps(document).encode())
    response = staff.post("/campaign-import/", {"document": upload})
    assert response.status_code == 422
    text = response.content.decode()
    assert "<code>fleets[0].faction</code> no row &#x27;nobody&#x27; in factions" in text
    upload = SimpleUploadedFile("league.json", b"{not json")
    response = staff.post("/campaign-import/", {"document": upload})
    assert response.status_code == 422
    assert "not a JSON file (line 1)" in response.content.decode()
    assert Campaign.objects.count() == 2


def test_the_api_import(cast, rival):
    url = "/api/campaigns/import"
    body = json.dumps(small_document())
    for who, allowed in IMPORTERS.items():
        if not allowed:
            response = client_for(cast, rival, who).post(url, body, "application/json")
            assert response.status_code == 403, who
    assert client_for(cast, rival, None).post(url, body, "application/json").status_code == 401
    assert not Campaign.objects.filter(slug="new-league").exists()
    staff = client_for(cast, rival, "staff", HTTP_ACCEPT_LANGUAGE="en")
    response = staff.post(url, body, "application/json")
    assert response.status_code == 201
    assert response.json() == {
        "slug": "new-league",
        "rows": {**dict.fromkeys(response.json()["rows"], 0), "factions": 1, "fleets": 1},
        "users_created": [],
    }
    again = staff.post(url, body, "application/json")
    assert again.status_code == 409
    assert again.json()["errors"][0] == {
        "field": "campaign.slug",
        "message": "a campaign 'new-league' exists already",
    }
    wrong = staff.post(url, json.dumps({**small_document("x"), "version": 7}), "application/json")
    assert wrong.status_code == 422
    assert [e["field"] for e in wrong.json()["errors"]] == ["version"]
    assert staff.post(url, "[1]", "application/json").status_code == 422


def test_the_api_import_refuses_a_body_that_is_not_json(cast, rival):
    staff = client_for(cast, rival, "staff", HTTP_ACCEPT_LANGUAGE="en")
    for body in ("", "{not json"):
        response = staff.post("/api/campaigns/import", body, "application/json")
        assert response.status_code == 422
        assert response.json()["errors"][0]["field"] == "body"
        assert response.json()["detail"].startswith("body: not JSON (")
    # The body's shape is read first (as on every write of the API), then who may import.
    organiser = client_for(cast, rival, "organiser")
    assert organiser.post("/api/campaigns/import", "", "application/json").status_code == 422
    assert organiser.post("/api/campaigns/import", "{}", "application/json").status_code == 403


def test_the_import_page_asks_for_the_file(cast, rival):
    staff = client_for(cast, rival, "staff", HTTP_ACCEPT_LANGUAGE="en")
    response = staff.post("/campaign-import/", {})
    assert response.status_code == 422
    assert 'id="document-error">This field is required.' in response.content.decode()
