"""Pages a new user meets when refused, and a ship state's status read in their language
(found by trying the app as a chronicler: an English "403 Forbidden" page and "destroyed"
on a French ship timeline)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template import Context, Template
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from battles.models import Participant
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db


def test_state_status_reads_ship_statuses_and_battle_fates_in_french():
    template = Template(
        "{% load league %}{{ a|state_status }}/{{ b|state_status }}/{{ c|state_status }}"
    )
    with translation.override("fr"):
        text = template.render(Context({"a": "destroyed", "b": "fled", "c": "odd"}))
    assert text == "détruit/retiré/odd"  # an unknown value is left as it is


def test_a_ship_timeline_names_the_status_after_a_battle_in_french(client, cast):
    battle = make_battle(cast.campaign)
    participant = (
        Participant.objects.filter(side__battle=battle, fate__in=["destroyed", "damaged"])
        .select_related("ship")
        .first()
    )
    french = {"destroyed": "détruit", "damaged": "endommagé"}[participant.fate]
    response = client.get(
        reverse("ship-detail", args=[participant.ship.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    )
    html = response.content.decode()
    assert f"{french}\u202f:" in html
    assert f"{participant.fate}\u202f:" not in html


def test_a_refused_page_says_why_in_the_users_language_inside_the_site(client, cast):
    battle = make_battle(cast.campaign)
    client.force_login(cast.chronicler)
    response = client.get(reverse("battle-resolve", args=[battle.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Non autorisé" in html and "organisateurs" in html
    assert 'class="site-header"' in html  # the site's own layout, not Django's bare page


@override_settings(DEBUG=False)
def test_a_missing_page_is_a_404_in_the_sites_layout(client):
    response = client.get("/battles/999999/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Page introuvable" in html and 'class="site-header"' in html


def test_the_reports_more_entries_note_agrees_in_number_in_french():
    # The printed report's "… and 1 more entries" read "1 entrées" in French.
    template = Template(
        "{% load i18n %}{% blocktranslate count n=more %}… and {{ n }} more entry in the HTML "
        "report.{% plural %}… and {{ n }} more entries in the HTML report.{% endblocktranslate %}"
    )
    with translation.override("fr"):
        one = template.render(Context({"more": 1}))
        many = template.render(Context({"more": 18}))
    assert one == "… et 1 entrée de plus dans le rapport HTML."
    assert many == "… et 18 entrées de plus dans le rapport HTML."
    # …and the report template uses that plural form.
    source = (settings.BASE_DIR / "templates/reports/battle.html").read_text()
    assert "{% blocktranslate count n=t.more %}" in source
