"""The turn page's body is built once per version of the campaign data, campaign, viewer's
scope and language (``campaign.turns.web.page_cache``): a second request of the same viewer
is answered from the cache, every kind of committed write shows at once, and nothing built
for one faction's player, or in one language, is served to another.

These tests commit for real (``transaction=True``): inside a test wrapped in a transaction
that has written, the data versions are read around (``factions.versioning.read_versions``)
and the body is built every time.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaign.league.models import Membership
from campaign.sample.loader import sample_load
from campaign.starmap.models import MapMove
from campaign.turns.closing import campaign_turn_close
from campaign.turns.demo import sample_turn_demo
from campaign.turns.models import RepairOrder
from campaign.turns.treasury import treasury_adjust
from factions.models import Fleet
from tests.campaign.turns.web.test_turn_page_queries import _grow
from tests.conftest import sample_cast

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def sample(db, django_user_model):
    """The sample after its first turn (turn 2 open, repairs queued, fleets under way),
    loaded and committed for each test (the module-wide load of this directory cannot
    commit)."""
    cache.clear()
    s = sample_cast(sample_load().campaign, django_user_model)
    sample_turn_demo(campaign=s.campaign)
    return s


def _client(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _page(client: Client, campaign) -> tuple[str, int]:
    """The page without its CSRF tokens and CSP nonces, and the queries it took; checks
    every form carries the request's own CSRF token."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/campaigns/{campaign.slug}/turn/")
    assert response.status_code == 200
    html = response.content.decode()
    values = re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html)
    # Every form has a masked token of the request (never the cache's placeholder).
    assert values and all(len(v) == 64 for v in values)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)
    return re.sub(r' nonce="[^"]*"', "", html), len(queries)


def _built(settings, client: Client, campaign) -> str:
    """The page as built with the cache off."""
    settings.TURN_CACHE_SECONDS = 0
    try:
        return _page(client, campaign)[0]
    finally:
        settings.TURN_CACHE_SECONDS = 600


def test_a_second_request_is_answered_from_the_cache(sample, settings):
    client = _client(sample.organiser)
    first, built = _page(client, sample.campaign)
    again, cached = _page(client, sample.campaign)
    assert again == first == _built(settings, client, sample.campaign)
    assert cached < built
    assert "Summary of turn 1" in first


def _close_turn(s):
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    return "Summary of turn 2"


def _ledger_entry(s):
    treasury_adjust(
        campaign=s.campaign,
        faction=s.norge,
        resources=7,
        technology=0,
        reason="Prize money from the Skagerrak",
        user=s.organiser,
    )
    return "Prize money from the Skagerrak"


def _repair_order(s):
    order = RepairOrder.objects.filter(campaign=s.campaign, status="queued").first()
    # A write no signal reports: a queryset update of a ship's name.
    type(order.ship).objects.filter(pk=order.ship_id).update(name="Olav Tryggvason II")
    return "Olav Tryggvason II"


def _fleet_moved(s):
    move = MapMove.objects.filter(campaign=s.campaign).select_related("fleet").first()
    Fleet.objects.filter(pk=move.fleet_id).update(name="Skagerrak Squadron")
    return "Skagerrak Squadron"


@pytest.mark.parametrize("write", [_close_turn, _ledger_entry, _repair_order, _fleet_moved])
def test_a_committed_write_shows_at_once(sample, settings, write):
    client = _client(sample.organiser)
    before, _ = _page(client, sample.campaign)
    _page(client, sample.campaign)  # cached now
    shown = write(sample)
    assert shown not in before
    after, _ = _page(client, sample.campaign)
    assert shown in after
    assert after == _built(settings, client, sample.campaign)


def test_no_faction_sees_another_factions_page(sample, settings):
    viewers = [sample.organiser, sample.norge_player, sample.qatzrin_player]
    built = {v.username: _built(settings, _client(v), sample.campaign) for v in viewers}
    assert len(set(built.values())) == 3
    for _ in range(2):  # each viewer served after the others warmed the cache
        for viewer in viewers:
            assert _page(_client(viewer), sample.campaign)[0] == built[viewer.username]


def test_languages_are_apart(sample, settings):
    en, fr = _client(sample.norge_player, "en"), _client(sample.norge_player, "fr")
    built = {
        "en": _built(settings, en, sample.campaign),
        "fr": _built(settings, fr, sample.campaign),
    }
    assert built["en"] != built["fr"]
    for _ in range(2):
        assert _page(en, sample.campaign)[0] == built["en"]
        assert _page(fr, sample.campaign)[0] == built["fr"]


def test_warm_pages_take_as_many_queries_when_the_campaign_grows(sample, settings):
    """Served from the cache, the turn page and the campaign page take the same queries
    after the first turn and with 100 more of everything (the cache-off counts are
    ``test_turn_page_queries``')."""
    client = _client(sample.organiser)
    urls = [f"/campaigns/{sample.campaign.slug}/turn/", f"/campaigns/{sample.campaign.slug}/"]

    def warm(url):
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    small = {url: warm(url) for url in urls}
    _grow(sample)
    assert "Grown 99" in client.get(urls[0]).content.decode()
    assert {url: warm(url) for url in urls} == small


def _campaign_page(client: Client, campaign) -> str:
    response = client.get(f"/campaigns/{campaign.slug}/")
    assert response.status_code == 200
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())
    return re.sub(r' nonce="[^"]*"', "", html)


def test_campaign_page_cached_per_viewer_and_a_write_shows(sample, settings):
    viewers = [None, sample.organiser, sample.norge_player, sample.qatzrin_player]

    def client(v):
        return Client(HTTP_ACCEPT_LANGUAGE="en") if v is None else _client(v)

    settings.TURN_CACHE_SECONDS = 0
    built = [_campaign_page(client(v), sample.campaign) for v in viewers]
    settings.TURN_CACHE_SECONDS = 600
    assert len(set(built)) > 1
    for _ in range(2):  # each served after the others warmed the cache
        assert [_campaign_page(client(v), sample.campaign) for v in viewers] == built
    Fleet.objects.filter(faction=sample.norge).update(name="Skagerrak Squadron")
    sample.campaign.__class__.objects.filter(pk=sample.campaign.pk).update(
        description="Now with a *new* description."
    )
    assert "new</em> description" in _campaign_page(client(None), sample.campaign)


def test_a_membership_removed_shows_at_once(sample):
    client = _client(sample.norge_player)
    _page(client, sample.campaign)
    _page(client, sample.campaign)  # the scope and body cached
    Membership.objects.filter(campaign=sample.campaign, user=sample.norge_player).delete()
    assert client.get(f"/campaigns/{sample.campaign.slug}/turn/").status_code == 404
