"""The account page's password change, and the organisers' membership history page."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from campaign.league import members
from campaign.league.models import Membership
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def test_a_logged_in_user_changes_their_password_on_the_account_page(cast):
    client = Client()
    client.force_login(cast.norge_player)
    page = client.get("/account/")
    assert page.status_code == 200 and 'id="password-change"' in page.content.decode()
    r = client.post(
        "/account/password/",
        {
            "old_password": "pw-12345!",
            "new_password1": "Gr33n-lantern-42",
            "new_password2": "Gr33n-lantern-42",
        },
    )
    assert r.status_code == 302 and r["Location"] == "/account/"
    cast.norge_player.refresh_from_db()
    assert cast.norge_player.check_password("Gr33n-lantern-42")
    # Still logged in after the change.
    assert client.get("/account/").status_code == 200


def test_a_wrong_old_password_changes_nothing_and_names_the_field(cast):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(cast.norge_player)
    r = client.post(
        "/account/password/",
        {"old_password": "nope", "new_password1": "Gr33n-l-42x", "new_password2": "Gr33n-l-42x"},
    )
    assert r.status_code == 400
    assert "old password was entered incorrectly" in r.content.decode()
    cast.norge_player.refresh_from_db()
    assert cast.norge_player.check_password("pw-12345!")


def test_anonymous_users_cannot_change_a_password():
    r = Client().post("/account/password/", {"old_password": "x"})
    assert r.status_code == 302 and r["Location"].startswith("/login/")


def _story(c):
    """The chronicler joins (via the cast), is made a player of Qatzrin, then leaves."""
    m = Membership.objects.get(user=c.chronicler)
    members.membership_change(membership=m, role="player", faction=c.qatzrin, by=c.organiser)
    members.membership_remove(membership=m, by=c.organiser)


def test_the_membership_history_lists_joins_changes_and_departures_with_who_acted(cast):
    _story(cast)
    with translation.override("en"):
        events = members.membership_history(cast.campaign)
    events = [e for e in events if e["user"] == "chronicler"]
    assert [(e["event"], e["role"], e["faction"], e["before"], e["by"]) for e in events] == [
        ("left", "player", "Qatzrin", "", "organiser"),
        ("changed", "player", "Qatzrin", "chronicler", "organiser"),
        ("joined", "chronicler", "", "", ""),
    ]
    html = (
        client_for(cast, None, "organiser", HTTP_ACCEPT_LANGUAGE="en")
        .get("/campaigns/test-league/members/history/")
        .content.decode()
    )
    assert "changed role: chronicler → player — Qatzrin" in html
    assert "left (was player) — Qatzrin" in html
    assert "joined as organiser" in html


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("norge_player", 403), ("chronicler", 403), ("outsider", 404)],
)
def test_the_membership_history_is_for_organisers(cast, who, status):
    r = client_for(cast, None, who).get("/campaigns/test-league/members/history/")
    assert r.status_code == status
    if status != 200:
        assert "joined as" not in r.content.decode()
