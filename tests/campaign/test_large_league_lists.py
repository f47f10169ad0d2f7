"""A campaign of 1 000 ships and 2 000 battles (``generate_league``) reads its lists a page
at a time with exactly the queries of a campaign of 100 ships and 3 battles."""

import csv
import io

from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from battles.models import Battle
from campaign.league.models import Campaign, Membership

URLS = (
    "/campaigns/{slug}/",
    "/campaigns/{slug}/?turn=1&page=2",
    "/campaigns/{slug}/history/",
    "/campaigns/{slug}/history/?kind=ship&page=3",
    "/campaigns/{slug}/ships.csv",
    "/campaigns/{slug}/fleets.csv",
    "/api/battles?campaign={slug}",
    "/api/battles?campaign={slug}&limit=500&offset=1",
    "/api/fleets?faction={faction}",
)


def league(django_user_model, *, ships: int, battles: int, seed: int):
    call_command("generate_league", ships=ships, battles=battles, seed=seed, stdout=io.StringIO())
    campaign = Campaign.objects.get(slug=f"generated-{seed}")
    organiser = django_user_model.objects.create_user(f"org-{seed}", password="pw-12345!")
    Membership.objects.create(campaign=campaign, user=organiser, role="organiser")
    client = Client()
    client.force_login(organiser)
    return campaign, client


def counts(campaign, client) -> dict[str, int]:
    faction = campaign.factions.order_by("pk").first().slug
    out = {}
    for url in URLS:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url.format(slug=campaign.slug, faction=faction))
        assert response.status_code == 200, url
        out[url] = len(queries)
    return out


def test_a_large_campaigns_lists_cost_what_a_small_ones_do(db, django_user_model):
    small, small_client = league(django_user_model, ships=100, battles=3, seed=1)
    large, large_client = league(django_user_model, ships=1000, battles=2000, seed=0)
    assert Battle.objects.filter(campaign=large).count() == 2000
    assert counts(large, large_client) == counts(small, small_client)
    answer = large_client.get(f"/api/battles?campaign={large.slug}&limit=500")
    assert (len(answer.json()), answer["X-Total-Count"]) == (500, "2000")
    body = large_client.get(f"/campaigns/{large.slug}/ships.csv").content.decode("utf-8")
    assert len(list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))) == 1000
