"""One language per reader: the drafted narrative in the reader's language on the desk,
the battle page, the PDF and the site; a chronicler's own text as written, and said so;
faction names, never slugs, in the lines a person reads."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from battles.models import Battle, Event
from battles.reports import desk as chronicle
from battles.reports.context import pdf_page_html, report_context
from campaign.league.models import Campaign
from campaign.publish import site_build
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"


def _drafted(campaign: Campaign, language: str) -> Battle:
    Campaign.objects.filter(pk=campaign.pk).update(language=language)
    campaign.refresh_from_db()
    battle = make_battle(campaign, narrative="")
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    return chronicle.report_draft_write(battle=battle)


@pytest.fixture
def french(cast, settings, tmp_path):
    """A concluded battle of a French campaign, its report drafted."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return _drafted(cast.campaign, "fr")


@pytest.fixture
def english(cast, settings, tmp_path):
    """A concluded battle of an English campaign, its report drafted."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return _drafted(cast.campaign, "en")


ENGLISH = ("Objectives", "Turn by turn", "Victory: Phalon.")
FRENCH = ("Objectifs", "Tour par tour", f"Victoire{NNBSP}: Phalon.")


def _narrative(battle: Battle, language: str, user=None) -> str:
    with translation.override(language):
        return str(report_context(battle, user=user)["narrative_html"])


def test_the_draft_is_written_in_every_language(french):
    assert set(french.narrative_drafts) == {"fr", "en"}
    assert french.narrative == french.narrative_drafts["fr"]  # the campaign's, for search
    assert "## Objectives" in french.narrative_drafts["en"]
    assert "## Objectifs" in french.narrative_drafts["fr"]
    assert french.narrative_language == ""


@pytest.mark.parametrize(
    ("campaign_language", "reader", "shown", "hidden"),
    [("fr", "en", ENGLISH, FRENCH), ("en", "fr", FRENCH, ENGLISH)],
)
def test_the_battle_page_shows_the_draft_in_the_readers_language(
    cast, settings, tmp_path, campaign_language, reader, shown, hidden
):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = _drafted(cast.campaign, campaign_language)
    client = Client(HTTP_ACCEPT_LANGUAGE=reader)
    client.force_login(cast.chronicler)
    page = client.get(reverse("battle-detail", args=[battle.pk])).content.decode()
    for words in shown:
        assert words in page, words
    for words in hidden:
        assert words not in page, words
    assert "written in" not in page.lower() and "écrit en" not in page.lower()


@pytest.mark.parametrize(
    ("campaign_language", "reader", "heading"),
    [("fr", "en", "## Turn by turn"), ("en", "fr", "## Tour par tour")],
)
def test_the_desk_offers_the_draft_in_the_chroniclers_language(
    cast, settings, tmp_path, campaign_language, reader, heading
):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = _drafted(cast.campaign, campaign_language)
    client = Client(HTTP_ACCEPT_LANGUAGE=reader)
    client.force_login(cast.chronicler)
    page = client.get(reverse("report-edit", args=[battle.pk])).content.decode()
    assert heading in page  # the textarea
    other = "## Tour par tour" if reader == "en" else "## Turn by turn"
    assert other not in page


def test_saving_the_draft_unchanged_keeps_one_draft_per_reader(french):
    with translation.override("en"):
        chronicle.report_edit(battle=french, narrative=french.narrative_drafts["en"] + "\r\n")
    french.refresh_from_db()
    assert french.narrative_language == ""
    chronicle.report_publish(battle=french)
    french.refresh_from_db()
    assert "Victoire" in _narrative(french, "fr") and "Victory" not in _narrative(french, "fr")
    assert "Victory" in _narrative(french, "en") and "Victoire" not in _narrative(french, "en")


def test_the_chroniclers_own_text_stays_as_written_and_says_its_language(french):
    with translation.override("fr"):
        chronicle.report_edit(battle=french, narrative="La flotte a tenu *la ceinture*.")
    chronicle.report_publish(battle=french)
    french.refresh_from_db()
    assert french.narrative_language == "fr"
    with translation.override("en"):
        context = report_context(french, user=None)
    assert "La flotte a tenu" in str(context["narrative_html"])
    assert context["narrative_note"] == "Written in French by the chronicler."
    with translation.override("fr"):
        context = report_context(french, user=None)
    assert context["narrative_note"] == ""  # a French reader reads it as written
    with translation.override("en"):
        html = pdf_page_html(french)
    assert "Written in French by the chronicler." in html


def test_the_english_pdf_and_site_page_of_a_french_campaign_are_english(french, tmp_path):
    chronicle.report_publish(battle=french)
    french.refresh_from_db()
    with translation.override("en"):
        html = pdf_page_html(french)
    for words in ENGLISH:
        assert words in html, words
    assert "Tour par tour" not in html and "Victoire" not in html

    site_build(out_dir=tmp_path / "site", pdfs=False, search_index=False)
    en = (tmp_path / "site/en/battles/test-league/colonisation-compromise.html").read_text()
    fr = (tmp_path / "site/fr/battles/test-league/colonisation-compromise.html").read_text()
    assert "Victory: Phalon." in en and "Victoire" not in en
    assert f"Victoire{NNBSP}: Phalon." in fr and "Victory: Phalon." not in fr


def test_the_english_draft_has_english_spacing_and_the_french_its_own(english):
    drafts = english.narrative_drafts
    assert "**Primary objective**: Destroy the enemy fleet" in drafts["en"]
    assert " : " not in drafts["en"] and NNBSP not in drafts["en"]
    assert f"**Objectif principal**{NNBSP}: Destroy the enemy fleet" in drafts["fr"]


def test_no_faction_slug_in_the_no_orders_in_time_line(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(cast.campaign, narrative="", mode=Battle.Mode.TURNS)
    Event.objects.create(
        battle=battle,
        sequence=10,
        game_turn=2,
        kind="auto-orders",
        summary="collectif-g-plus gave no orders in time: its ships take the auto-resolve tactics",
        data={"side": "collectif-g-plus"},
    )
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    with translation.override("en"):
        lines = [e.line for t in report_context(battle)["turns"] for e in t["events"]]
    assert "Collectif G+ gave no orders in time: its ships take the auto-resolve tactics" in lines
    drafts = chronicle.report_draft_write(battle=battle).narrative_drafts
    assert "collectif-g-plus" not in drafts["en"] and "collectif-g-plus" not in drafts["fr"]
    assert "Collectif G+ gave no orders in time" in drafts["en"]
    assert f"Collectif G+ n’a pas donné d’ordres à temps{NNBSP}:" in drafts["fr"]


def test_the_api_gives_the_draft_in_the_callers_language(cast, french):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(cast.chronicler)
    report = client.get(f"/api/battles/{french.pk}/report").json()
    assert "## Turn by turn" in report["narrative"] and "Tour par tour" not in report["narrative"]
    detail = client.get(f"/api/battles/{french.pk}").json()
    assert "## Turn by turn" in detail["narrative"]
    french_client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    french_client.force_login(cast.chronicler)
    assert "## Tour par tour" in french_client.get(f"/api/battles/{french.pk}").json()["narrative"]
