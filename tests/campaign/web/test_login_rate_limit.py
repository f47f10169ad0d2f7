"""Log-in is rate-limited (django-axes) with a clear message."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("player", password="right-pw-123!")


def attempt(client: Client, password: str):
    return client.post("/login/", {"username": "player", "password": password})


def test_five_failures_lock_the_account_from_that_address_with_a_clear_page(player, settings):
    settings.LANGUAGE_CODE = "en"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = attempt(client, "wrong")
        assert response.status_code == 200  # the form again, with its error
    response = attempt(client, "wrong")
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.text
    assert "failed 5 times in a row" in response.text
    assert "Try again in 15 minutes." in response.text and "0:15:00" not in response.text
    # Even the right password is refused while locked out.
    locked = attempt(client, "right-pw-123!")
    assert locked.status_code == 429 and "_auth_user_id" not in client.session


def test_a_success_resets_the_count(player, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, "wrong")
    assert attempt(client, "right-pw-123!").status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, "wrong").status_code == 200


def test_the_lockout_page_is_in_french_by_default(player, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = attempt(client, "wrong")
    assert response.status_code == 429
    assert "Trop d’échecs de connexion" in response.text
    assert "Réessayez dans 15 minutes." in response.text
