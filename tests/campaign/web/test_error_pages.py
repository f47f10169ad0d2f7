"""Error pages a user meets: a refused action and a missing or hidden page
answer in the site's frame and language, with a way back, not Django's bare English page."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_refused_action_says_why_in_french_inside_the_site(client, cast):
    client.force_login(cast.norge_player)
    response = client.get(reverse("battle-setup", args=[cast.campaign.slug]))
    assert response.status_code == 403
    html = response.content.decode()
    assert "Non autorisé" in html
    assert "Seuls les organisateurs de la campagne peuvent mettre en place des batailles." in html
    assert 'class="site-header"' in html and reverse("account") in html


def test_a_missing_page_is_404_in_the_site_frame_when_debug_is_off(client, cast, settings):
    settings.DEBUG = False
    client.force_login(cast.norge_player)
    response = client.get("/ships/999999/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page introuvable" in html and 'class="site-header"' in html
