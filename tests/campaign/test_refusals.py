"""Refusals answer alike: a member of the campaign without the right gets 403 on every
page and endpoint of an action they may not take; anyone outside the campaign gets 404
(the campaign's objects do not exist for them); the API's error body is the one
``ErrorOut``."""

from __future__ import annotations

import pytest
from django.test import Client

from battles.models import Battle
from campaign.core.api_errors import ErrorOut
from campaign.core.refusals import Kind, Refused, error_body
from campaign.league.models import Campaign
from tests.conftest import sample_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def sample(sample_module, db, django_user_model):
    """tests/conftest.py's ``sample``, its rows loaded once per module (``sample_module``)."""
    return sample_cast(Campaign.objects.get(pk=sample_module), django_user_model)


#: Members without the right, and outsiders (another campaign's organiser, a user with no
#: campaign).
MEMBERS = ["chronicler", "norge_player"]
OUTSIDERS = ["outsider", "other_org"]


def _client(s, who) -> Client:
    c = Client()
    c.force_login(getattr(s, who))
    return c


def _concluded(s) -> Battle:
    return Battle.objects.filter(campaign=s.campaign, status="concluded").order_by("pk").first()


def organiser_pages(s) -> list[tuple[str, str]]:
    """(method, url) of organisers' pages and endpoints of the sample campaign."""
    b = _concluded(s).pk
    return [
        ("get", "/campaigns/sample/battles/new/"),
        ("get", "/campaigns/sample/battles/record-other/"),
        ("get", "/campaigns/sample/members/"),
        ("get", "/api/campaigns/sample/members"),
        ("post", f"/api/battles/{b}/resolve"),
        ("get", f"/api/battles/{b}/forecast"),
    ]


@pytest.mark.parametrize("who", MEMBERS + OUTSIDERS)
def test_organisers_pages_403_for_members_404_for_others(sample, who):
    expected = 403 if who in MEMBERS else 404
    c = _client(sample, who)
    got = {
        url: getattr(c, method)(url, content_type="application/json").status_code
        for method, url in organiser_pages(sample)
    }
    assert got == dict.fromkeys(got, expected)


@pytest.mark.parametrize("who, expected", [("chronicler", 403), *((w, 404) for w in OUTSIDERS)])
def test_the_turn_page_and_endpoint_403_for_a_chronicler_404_for_others(sample, who, expected):
    c = _client(sample, who)
    assert c.get("/campaigns/sample/turn/").status_code == expected
    assert c.get("/api/campaigns/sample/turn").status_code == expected


@pytest.mark.parametrize("who, expected", [("norge_player", 403), *((w, 404) for w in OUTSIDERS)])
def test_the_report_desk_403_for_a_player_404_for_others(sample, who, expected):
    b = _concluded(sample).pk
    c = _client(sample, who)
    assert c.get(f"/battles/{b}/report/").status_code == expected


def test_a_404_never_says_why_and_a_403_says_what_is_refused(sample):
    s = sample
    b = _concluded(s).pk
    refused = _client(s, "norge_player").post(
        f"/api/battles/{b}/resolve", content_type="application/json"
    )
    hidden = _client(s, "other_org").post(
        f"/api/battles/{b}/resolve", content_type="application/json"
    )
    assert refused.status_code == 403 and "sample" in refused.json()["detail"]
    assert (hidden.status_code, set(hidden.json())) == (404, {"detail"})
    ErrorOut(**refused.json())  # the one schema every router documents
    ErrorOut(**hidden.json())


def test_one_exception_one_body():
    exc = Refused("bad", kind=Kind.INVALID, errors=[("hull", "too many")])
    assert (exc.status, exc.body()) == (
        422,
        {"detail": "bad", "errors": [{"field": "hull", "message": "too many"}]},
    )
    assert [Refused(kind=k).status for k in Kind] == [403, 404, 422, 409]
    assert error_body("no") == {"detail": "no"}


def test_the_designs_and_fleet_errors_document_what_they_send(sample):
    from campaign.api import api

    schema = api.get_openapi_schema()
    errors = schema["components"]["schemas"]["ErrorOut"]["properties"]["errors"]
    assert errors["items"] == {"$ref": "#/components/schemas/FieldError"}
    body = {"faction": "qatzrin", "name": "5th", "text": "7 Sa'arr\n"}
    r = _client(sample, "organiser").post(
        "/api/fleets/import", body, content_type="application/json"
    )
    assert r.status_code == 400
    assert [e["field"] for e in r.json()["errors"]] == ["text"]
