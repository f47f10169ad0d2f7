"""A faction's page lists the battles it fought that the viewer may see."""

import pytest
from django.urls import reverse

from battles.models import Battle
from tests.battles.reports.report_fixtures import make_battle


@pytest.fixture
def fought(cast):
    concluded = make_battle(cast.campaign, name="Miranda Gate")
    draft = make_battle(cast.campaign, name="Secret Draft", slug="secret-draft")
    Battle.objects.filter(pk=draft.pk).update(status=Battle.Status.DRAFT)
    return concluded, draft


def test_the_faction_page_lists_its_concluded_battles_to_anyone(client, fought):
    concluded, draft = fought
    html = client.get(reverse("faction-detail", kwargs={"slug": "phalon"})).content.decode()
    assert 'id="h-battles"' in html
    assert f'href="{concluded.get_absolute_url()}">Miranda Gate</a>' in html
    assert "Secret Draft" not in html


def test_the_faction_page_lists_a_draft_to_the_organiser(client, cast, fought):
    concluded, draft = fought
    client.force_login(cast.organiser)
    html = client.get(reverse("faction-detail", kwargs={"slug": "phalon"})).content.decode()
    assert f'href="{draft.get_absolute_url()}">Secret Draft</a>' in html
    assert html.count('href="' + concluded.get_absolute_url() + '"') == 1  # once, not per side
