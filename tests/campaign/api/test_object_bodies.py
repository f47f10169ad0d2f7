"""Every API operation that reads a JSON body takes one object: a body that is an array,
a string, null, a number or a number out of range (``1e999``) is answered 422 naming the
body, before any view runs, and nothing is written. django-ninja read such a body as an
object with every field left out: ``PUT /api/battles/{id}/report`` with ``[]`` was an
empty edit (200, a new version, a history row, a re-render and a site refresh)."""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.test import Client

from battles.models import Battle
from battles.reports import desk as chronicle
from campaign.api import api
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db

BODIES = ["[]", '"x"', "null", "123", "1e999", "{not json"]


def _json_writes() -> list[tuple[str, str]]:
    """(method, path) of every writing operation whose body is JSON, from the schema."""
    schema = api.get_openapi_schema()
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = (operation.get("requestBody") or {}).get("content", {})
            if method in {"post", "put", "patch", "delete"} and "application/json" in content:
                found.append((method, path))
    return sorted(found)


WRITES = _json_writes()


def test_the_writes_found_include_every_kind_of_body():
    assert len(WRITES) >= 25
    assert ("put", "/api/battles/{battle_id}/report") in WRITES
    assert ("post", "/api/campaigns/{slug}/invitations/accept") in WRITES


def counts() -> dict[str, int]:
    return {m._meta.label: m._default_manager.count() for m in apps.get_models()}


@pytest.fixture
def world(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(cast.campaign, narrative="")
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    cast.battle = chronicle.report_draft_write(battle=battle)
    return cast


def _url(path: str, world) -> str:
    values = {"slug": world.campaign.slug, "ability_id": "x", "decision": "confirm"}

    def fill(match: re.Match) -> str:
        return str(values.get(match.group(1), world.battle.pk))

    return re.sub(r"\{(\w+)\}", fill, path)


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize(("method", "path"), WRITES)
def test_a_body_that_is_not_an_object_is_422_and_writes_nothing(world, method, path, body):
    client = Client()
    client.force_login(world.organiser)
    before = counts()
    response = getattr(client, method)(
        _url(path, world), body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 422, response.content
    answer = response.json()
    assert answer["detail"].startswith("body: ")
    assert answer["errors"] == [{"field": "body", "message": answer["detail"]}]
    assert counts() == before


@pytest.mark.parametrize("body", BODIES)
def test_the_report_is_not_edited_by_a_body_that_is_not_an_object(world, body):
    client = Client()
    client.force_login(world.chronicler)
    battle = world.battle
    before = (battle.version, battle.history.count(), counts())
    response = client.put(f"/api/battles/{battle.pk}/report", body, content_type="application/json")
    assert response.status_code == 422
    battle.refresh_from_db()
    assert (battle.version, battle.history.count(), counts()) == before


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ("[]", "body: expected a JSON object, got an array"),
        ('"x"', "body: expected a JSON object, got a string"),
        ("null", "body: expected a JSON object, got null"),
        ("123", "body: expected a JSON object, got a number"),
        ("1e999", "body: the number 1e999 is out of range"),
        ('{"narrative": "x", "n": -1e999}', "body: the number -1e999 is out of range"),
        ('{"narrative": NaN}', "body: NaN is not a JSON number"),
    ],
)
def test_the_refusal_says_what_the_body_was(world, body, detail):
    client = Client()
    client.force_login(world.chronicler)
    response = client.put(
        f"/api/battles/{world.battle.pk}/report",
        body,
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert (response.status_code, response.json()["detail"]) == (422, detail)
    french = client.put(
        f"/api/battles/{world.battle.pk}/report",
        "[]",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert french.json()["detail"] == "body\u202f: un objet JSON est attendu, reçu un tableau"
