"""The notification pages and API: the permission matrix (the campaign's webhook and
deliveries: organisers and staff; preferences: each user their own), exact answers,
refusals naming the field with nothing written, and flat query counts."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.notify.models import CampaignWebhook, Delivery, NotificationPreference
from campaign.notify.webhooks import campaign_webhook_save
from tests.conftest import client_for

# The pages and API answer in the client's language: French, the site's default.
WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", "other_org"]
WHO += ["staff", None]
PAGE = "/campaigns/test-league/notifications/"
API = "/api/campaigns/test-league"
PUBLIC = "https://93.184.215.14/api/webhooks/1/token"


def _json(client, method, url, body=None):
    return getattr(client, method)(url, body, content_type="application/json")


def _page_status(who, ok):
    return {None: 302, "organiser": ok, "staff": ok}.get(
        who, 403 if who in ("norge_player", "qatzrin_player", "chronicler") else 404
    )


@pytest.mark.parametrize("who", WHO)
def test_the_webhook_page_is_for_the_organisers(mailed, rival, who):
    client = client_for(mailed, rival, who)
    assert client.get(PAGE).status_code == _page_status(who, 200)
    r = client.post(PAGE, {"url": PUBLIC, "kinds": ["turn_opened"], "enabled": "1"})
    assert r.status_code == _page_status(who, 302)
    saved = CampaignWebhook.objects.filter(campaign=mailed.campaign).exists()
    assert saved is (who in ("organiser", "staff"))
    r = client.post(PAGE + "test/")
    assert r.status_code == _page_status(who, 302)
    assert Delivery.objects.filter(kind="test").exists() is (who in ("organiser", "staff"))


@pytest.mark.parametrize("who", WHO)
def test_the_webhook_api_is_for_the_organisers(mailed, rival, who):
    client = client_for(mailed, rival, who)
    expected = {None: 401, "organiser": 200, "staff": 200}.get(
        who, 403 if who in ("norge_player", "qatzrin_player", "chronicler") else 404
    )
    body = {"url": PUBLIC, "kinds": ["battle_concluded"], "enabled": True}
    assert _json(client, "get", f"{API}/webhook").status_code == expected
    assert _json(client, "put", f"{API}/webhook", body).status_code == expected
    assert _json(client, "get", f"{API}/deliveries").status_code == expected
    test = _json(client, "post", f"{API}/webhook/test")
    assert test.status_code == (202 if expected == 200 else expected)
    if expected != 200:
        assert not CampaignWebhook.objects.exists() and not Delivery.objects.exists()


def test_the_webhook_api_answers_exactly(mailed):
    client = client_for(mailed, None, "organiser")
    r = _json(
        client,
        "put",
        f"{API}/webhook",
        {"url": PUBLIC, "kinds": ["report_published", "turn_opened"], "enabled": True},
    )
    assert r.json() == {
        "url": PUBLIC,
        "kinds": ["turn_opened", "report_published"],
        "enabled": True,
        "last_status": "",
        "last_error": "",
        "last_at": None,
    }
    r = _json(client, "put", f"{API}/webhook", {"url": "", "kinds": []})
    assert r.status_code == 200 and r.json()["url"] == ""
    assert not CampaignWebhook.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://10.0.0.1/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
        "http://localhost/hook",
    ],
)
def test_a_private_address_is_422_naming_url_and_nothing_is_written(mailed, url):
    client = client_for(mailed, None, "organiser")
    campaign_webhook_save(
        campaign=mailed.campaign, user=mailed.organiser, url=PUBLIC, kinds=["turn_opened"]
    )
    r = _json(client, "put", f"{API}/webhook", {"url": url, "kinds": ["turn_opened"]})
    assert r.status_code == 422
    (error,) = r.json()["errors"]
    assert error["field"] == "url" and "une adresse d’un réseau privé" in error["message"]
    assert CampaignWebhook.objects.get().url == PUBLIC
    page = client.post(PAGE, {"url": url, "kinds": ["turn_opened"], "enabled": "1"})
    assert page.status_code == 400
    assert b'id="webhook-error"' in page.content and "réseau privé" in page.content.decode()
    assert CampaignWebhook.objects.get().url == PUBLIC


def test_a_kind_the_webhook_may_not_post_is_422_naming_kinds(mailed):
    client = client_for(mailed, None, "organiser")
    r = _json(client, "put", f"{API}/webhook", {"url": PUBLIC, "kinds": ["orders_due"]})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "kinds"
    assert not CampaignWebhook.objects.exists()


def _queries(client) -> list[int]:
    """Queries of the deliveries' API answer and page (the log emptied first: a long run
    fills the connection's bounded log, and a capture then reads nothing)."""
    counts = []
    for url in (f"{API}/deliveries", PAGE):
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    return counts


def test_the_deliveries_list_costs_the_same_queries_for_3_or_30(mailed):
    client = client_for(mailed, None, "organiser")

    def add(n):
        for i in range(n):
            Delivery.objects.create(
                campaign=mailed.campaign,
                kind="turn_opened",
                channel="email",
                user=mailed.norge_player,
                address="norge_player@example.org",
                language="en",
                subject=f"s{i}",
                body="b",
            )

    add(3)
    (row,) = client.get(f"{API}/deliveries").json()[:1]
    assert (row["recipient"], row["address"], row["status"]) == ("norge_player", "", "queued")
    few = _queries(client)
    add(27)
    assert len(client.get(f"{API}/deliveries").json()) == 30
    assert _queries(client) == few
    # A page at a time, newest first, the total in the header; bad bounds are 422.
    page = client.get(f"{API}/deliveries", {"limit": 5, "offset": 2})
    assert [r["subject"] for r in page.json()] == ["s24", "s23", "s22", "s21", "s20"]
    assert page["X-Total-Count"] == "30"
    assert client.get(f"{API}/deliveries", {"limit": -1}).status_code == 422
    assert client.get(f"{API}/deliveries", {"offset": -1}).status_code == 422


@pytest.mark.parametrize("who", ["organiser", "norge_player", "chronicler", "outsider", None])
def test_preferences_are_each_users_own(mailed, who):
    client = client_for(mailed, None, who)
    r = _json(client, "put", "/api/account/notifications", {"email": {"turn_played": False}})
    if who is None:
        assert r.status_code == 401
        assert client.post("/account/notifications/", {}).status_code == 302
        assert not NotificationPreference.objects.exists()
        return
    user = getattr(mailed, who)
    assert r.status_code == 200
    assert r.json()["email"]["turn_played"] is False and r.json()["email"]["turn_opened"]
    assert list(NotificationPreference.objects.values_list("user__username", "kind", "email")) == [
        (who, "turn_played", False)
    ]
    assert _json(client, "get", "/api/account/notifications").json() == {
        "email": {
            "turn_opened": True,
            "deadline_near": True,
            "orders_due": True,
            "turn_played": False,
            "entry_awaiting": True,
            "battle_concluded": True,
            "report_published": True,
        },
        "language": "",
    }
    # The page's form (htmx): ticked boxes on, the others off; the fragment comes back.
    r = client.post(
        "/account/notifications/",
        {"email_turn_opened": "1", "email_report_published": "1", "language": "en"},
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 200 and "Enregistré." in r.content.decode()
    on = dict(NotificationPreference.objects.filter(user=user).values_list("kind", "email"))
    assert on == {
        "turn_opened": True,
        "deadline_near": False,
        "orders_due": False,
        "turn_played": False,
        "entry_awaiting": False,
        "battle_concluded": False,
        "report_published": True,
    }
    assert user.notification_profile.language == "en"
    # Nobody else's preferences changed.
    assert set(NotificationPreference.objects.values_list("user__username", flat=True)) == {who}
    page = client.get("/account/")
    assert b'id="notify-preferences"' in page.content


def test_bad_preferences_are_refused_naming_the_field(mailed):
    client = client_for(mailed, None, "norge_player")
    r = _json(client, "put", "/api/account/notifications", {"email": {"nonsense": True}})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "email.nonsense"
    r = _json(client, "put", "/api/account/notifications", {"language": "de"})
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "language"
    r = client.post("/account/notifications/", {"language": "de"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and b'id="notify-error"' in r.content
    assert not NotificationPreference.objects.exists()
