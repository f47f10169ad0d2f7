"""Personal API tokens (``campaign.league.api_auth``) and the CSRF token of ``/api/docs``."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client

from battles.models import Battle
from campaign.league.api_auth import api_token_create
from campaign.league.models import ApiToken


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def test_a_token_is_created_on_the_account_page_shown_once_and_stored_hashed(cast):
    client = Client()
    client.force_login(cast.organiser)
    response = client.post("/account/tokens/", {"name": "league script"}, follow=True)
    assert response.status_code == 200
    token = re.search(r'<code id="new-token">(adm_[\w-]+)</code>', response.text).group(1)
    row = ApiToken.objects.get(user=cast.organiser)
    assert row.name == "league script" and row.prefix == token[:12]
    assert row.key_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(ApiToken.objects.values_list())  # only the hash is kept
    again = client.get("/account/")
    assert token not in again.text and "league script" in again.text


def test_an_organiser_resolves_a_battle_with_a_bearer_token_and_no_csrf(cast, battle):
    _row, token = api_token_create(user=cast.organiser, name="bot")
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/api/battles/{battle.pk}/resolve",
        {"seed": 7},
        content_type="application/json",
        **bearer(token),
    )
    assert response.status_code == 200, response.content
    battle.refresh_from_db()
    assert battle.status == Battle.Status.CONCLUDED and battle.seed == 7


def test_a_token_acts_as_its_user_only(cast, battle):
    _row, token = api_token_create(user=cast.norge_player, name="mine")
    response = Client().post(
        f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json", **bearer(token)
    )
    # A draft the Norwegian player has no side in is not theirs to see: 404, as any
    # route answers it, so no status tells the battle exists; as the organiser it would
    # have resolved.
    assert response.status_code == 404
    battle.refresh_from_db()
    assert battle.status == Battle.Status.DRAFT


@pytest.mark.parametrize("token", ["adm_wrong", "nonsense", "adm_" + "x" * 300, ""])
def test_a_bad_token_is_401(cast, battle, token):
    response = Client().post(
        f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json", **bearer(token)
    )
    assert response.status_code == 401
    battle.refresh_from_db()
    assert battle.status == Battle.Status.DRAFT


@pytest.mark.parametrize("headers", [{"HTTP_AUTHORIZATION": "Bearer adm_wrong"}, {}])
def test_without_a_user_a_write_is_401_also_when_csrf_is_enforced(cast, battle, headers):
    """The test client skips CSRF by default; a real client (curl) does not. A bad token
    or no credentials at all answered 403 "CSRF check Failed" instead of 401."""
    response = Client(enforce_csrf_checks=True).post(
        f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json", **headers
    )
    assert response.status_code == 401


def test_a_session_without_its_csrf_token_is_still_refused(cast, battle):
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast.organiser)
    response = client.post(f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    battle.refresh_from_db()
    assert battle.status == Battle.Status.DRAFT


def test_a_revoked_token_no_longer_works_and_only_its_owner_may_revoke_it(cast, battle):
    row, token = api_token_create(user=cast.organiser, name="old")
    other = Client()
    other.force_login(cast.outsider)
    assert other.post(f"/account/tokens/{row.pk}/revoke/").status_code == 404
    owner = Client()
    owner.force_login(cast.organiser)
    assert owner.post(f"/account/tokens/{row.pk}/revoke/").status_code == 302
    assert not ApiToken.objects.exists()
    response = Client().post(
        f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json", **bearer(token)
    )
    assert response.status_code == 401


def test_an_inactive_users_token_is_refused(cast, battle):
    _row, token = api_token_create(user=cast.organiser, name="x")
    cast.organiser.is_active = False
    cast.organiser.save()
    response = Client().post(
        f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json", **bearer(token)
    )
    assert response.status_code == 401


def test_the_account_page_needs_a_login():
    response = Client().get("/account/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_docs_page_sends_the_csrf_token_so_session_posts_work(cast, battle):
    """Before: ``data-csrf-token=""`` and a POST from the docs answered 403 "CSRF check
    Failed"."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(cast.organiser)
    page = client.get("/api/docs")
    token = re.search(r'data-csrf-token="([^"]+)"', page.text).group(1)
    assert 'data-api-csrf="true"' in page.text
    refused = client.post(f"/api/battles/{battle.pk}/resolve", {}, content_type="application/json")
    assert refused.status_code == 403
    response = client.post(
        f"/api/battles/{battle.pk}/resolve",
        {"seed": 3},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert response.status_code == 200, response.content


def test_the_schema_declares_both_ways_to_authenticate():
    schema = Client().get("/api/openapi.json").json()
    schemes = schema["components"]["securitySchemes"]
    assert schemes["ApiTokenAuth"] == {"type": "http", "scheme": "bearer"}
    assert schemes["SessionCsrfAuth"]["in"] == "cookie"
