"""A draft battle is seen by organisers only, on pages, in the API and on the home page."""

import pytest
from django.urls import reverse

from battles.models import Battle


@pytest.fixture
def draft(cast):
    return Battle.objects.create(
        campaign=cast.campaign, name="Secret ambush", slug="secret-ambush", status="draft"
    )


@pytest.mark.parametrize("who", ["norge_player", "chronicler", "outsider", None])
def test_draft_battle_is_404_for_non_organisers(client, cast, draft, who):
    if who:
        client.force_login(getattr(cast, who))
    assert client.get(reverse("battle-detail", args=[draft.pk])).status_code == 404
    assert client.get(f"/api/battles/{draft.pk}").status_code == 404
    assert "Secret ambush" not in client.get(reverse("home")).content.decode()


def test_organiser_sees_the_draft(client, cast, draft):
    client.force_login(cast.organiser)
    assert client.get(reverse("battle-detail", args=[draft.pk])).status_code == 200
    assert client.get(f"/api/battles/{draft.pk}").status_code == 200
    assert "Secret ambush" in client.get(reverse("home")).content.decode()
