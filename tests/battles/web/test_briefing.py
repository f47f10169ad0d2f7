"""Players are briefed: a side's players read a draft battle's scenario, place and their
own side's objectives on the battle page, the record page and the turn page; never the
other side's objectives nor its hidden fleet. Others keep their answers (404 outside)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle, BattleSide
from factions.models import Fleet, Territory

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(cast):
    place = Territory.objects.create(faction=cast.norge, name="Trøndelag", slug="trondelag")
    battle = Battle.objects.create(
        campaign=cast.campaign,
        name="Ambush at Trøndelag",
        slug="ambush",
        status="draft",
        territory=place,
        scenario="The convoy crosses the *Kjølen* gap at dawn.",
    )
    norway_fleet = Fleet.objects.create(faction=cast.norge, name="Home Fleet", slug="home")
    hidden = Fleet.objects.create(faction=cast.qatzrin, name="Shadow Wing", slug="sw", hidden=True)
    BattleSide.objects.create(
        battle=battle,
        faction=cast.norge,
        fleet=norway_fleet,
        order=0,
        primary_objective="Hold the gap for six turns.",
        secondary_objectives="Keep the tanker alive.",
    )
    BattleSide.objects.create(
        battle=battle,
        faction=cast.qatzrin,
        fleet=hidden,
        order=1,
        primary_objective="Sink the tanker unseen.",
    )
    return battle


def _get(cast, who, url):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if who:
        c.force_login(getattr(cast, who))
    return c.get(url)


@pytest.mark.parametrize(
    "who, status",
    [
        ("norge_player", 200),
        ("qatzrin_player", 200),
        ("organiser", 200),
        ("chronicler", 404),
        ("outsider", 404),
    ],
)
def test_draft_battle_page_per_role(cast, draft, who, status):
    assert _get(cast, who, reverse("battle-detail", args=[draft.pk])).status_code == status


def test_anonymous_is_sent_elsewhere_from_a_draft(cast, draft):
    assert _get(cast, None, reverse("battle-detail", args=[draft.pk])).status_code == 404


def test_a_side_player_reads_their_briefing_only(cast, draft):
    page = _get(cast, "norge_player", reverse("battle-detail", args=[draft.pk])).content.decode()
    assert "Briefing" in page
    assert "Trøndelag" in page
    assert "The convoy crosses the <em>Kjølen</em> gap at dawn." in page
    assert "Hold the gap for six turns." in page and "Keep the tanker alive." in page
    assert "Kongeriket Norge — Home Fleet" in page
    assert "<strong>Facing</strong> Qatzrin" in page
    # Neither the other side's secret objective nor its hidden fleet.
    assert "Sink the tanker unseen." not in page
    assert "Shadow Wing" not in page
    other = _get(cast, "qatzrin_player", reverse("battle-detail", args=[draft.pk]))
    text = other.content.decode()
    assert "Sink the tanker unseen." in text and "Qatzrin — Shadow Wing" in text
    assert "Hold the gap for six turns." not in text and "Keep the tanker alive." not in text
    assert "Home Fleet" not in text


def test_the_briefing_shows_on_the_record_and_turn_pages(cast, draft):
    for name in ("battle-record", "battle-turns"):
        response = _get(cast, "norge_player", reverse(name, args=[draft.pk]))
        page = response.content.decode()
        assert response.status_code == 200, name
        assert 'id="h-briefing"' in page, name
        assert "Hold the gap for six turns." in page, name
        assert "The convoy crosses the <em>Kjølen</em> gap at dawn." in page, name
        assert "Sink the tanker unseen." not in page, name
        assert "Shadow Wing" not in page, name
