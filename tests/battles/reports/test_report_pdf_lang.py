"""The battle page links the PDF in the reader's language; another language
than the campaign's is served by ``/battles/<id>/report.<lang>.pdf`` (battles/web/media.py)
with the battle page's access rule, rendered when first asked for, never a 500."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from battles.models import Battle, Report
from battles.reports import context as reports
from battles.reports.keys import report_pdf_keys
from battles.reports.pdfs import report_pdf_ensure
from battles.reports.queue import report_request
from battles.reports.tasks import render_report_pdf_in
from tests.battles.reports.conftest import pdf_text
from tests.battles.reports.report_fixtures import make_battle

WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", None]


def client_for(cast, rival, who):
    client = Client()
    if who == "other_organiser":
        client.force_login(rival.organiser)
    elif who:
        client.force_login(getattr(cast, who))
    return client


@pytest.fixture
def concluded(cast, media):
    """A concluded battle of the (French) cast campaign with its French PDF rendered."""
    battle = make_battle(cast.campaign)
    assert report_pdf_ensure(battle=battle) is not None
    return battle


#: The one real PDF of this module's tests of who may fetch a PDF (not of what it says).
_ONE_PDF: list[bytes] = []


@pytest.fixture
def any_pdf(monkeypatch, cast, media):
    """``concluded`` for the tests of who gets a PDF, not of what it says: every render
    returns the same real PDF, rendered once for the module (a render is ~1 s of CPU)."""
    original = reports.pdf_from_html

    def once(html: str) -> bytes:
        if not _ONE_PDF:
            _ONE_PDF.append(original(html))
        return _ONE_PDF[0]

    monkeypatch.setattr(reports, "pdf_from_html", once)
    battle = make_battle(cast.campaign)
    assert report_pdf_ensure(battle=battle) is not None
    return battle


def test_the_english_reader_of_a_french_campaign_gets_an_english_pdf(cast, concluded):
    client = Client()
    page = client.get(f"/battles/{concluded.pk}/", HTTP_ACCEPT_LANGUAGE="en").text
    links = re.findall(r'<a href="([^"]+)" class="pdf-link"', page)
    assert links == [f"/battles/{concluded.pk}/report.en.pdf"]
    response = client.get(links[0], HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "private, max-age=0, must-revalidate"
    assert response["X-Content-Type-Options"] == "nosniff"
    text = pdf_text(b"".join(response.streaming_content))
    assert "Forces and objectives" in text and "Victory: Phalon" in text
    assert "Forces et objectifs" not in text and "Victoire" not in text

    # The French reader gets the campaign's file (the Report row), in French.
    page = client.get(f"/battles/{concluded.pk}/", HTTP_ACCEPT_LANGUAGE="fr").text
    (french,) = re.findall(r'<a href="([^"]+)" class="pdf-link"', page)
    assert french == "/media/" + Report.objects.get(battle=concluded, format="pdf").file.name
    text = pdf_text(b"".join(client.get(french).streaming_content))
    assert "Forces et objectifs" in text and "Forces and objectives" not in text


def test_a_current_file_is_served_without_rendering_again(cast, concluded, pdf_renders):
    url = f"/battles/{concluded.pk}/report.en.pdf"
    assert Client().get(url).status_code == 200
    assert Client().get(url).status_code == 200
    assert len(pdf_renders) == 1
    assert Client().get(f"/battles/{concluded.pk}/report.fr.pdf").status_code == 200
    assert len(pdf_renders) == 1  # the campaign's language: the current Report file


@pytest.mark.parametrize("who", [*WHO, "other_organiser"])
def test_a_concluded_battle_s_pdf_in_any_language_is_for_everyone(cast, rival, any_pdf, who):
    report_pdf_ensure(battle=any_pdf, lang="en")
    response = client_for(cast, rival, who).get(f"/battles/{any_pdf.pk}/report.en.pdf")
    assert response.status_code == 200
    assert b"".join(response.streaming_content).startswith(b"%PDF")


@pytest.mark.parametrize("who", [*WHO, "other_organiser"])
def test_a_draft_s_pdf_is_for_its_organisers_only(cast, rival, any_pdf, who):
    report_pdf_ensure(battle=any_pdf, lang="en")
    Battle.objects.filter(pk=any_pdf.pk).update(status=Battle.Status.DRAFT)
    response = client_for(cast, rival, who).get(f"/battles/{any_pdf.pk}/report.en.pdf")
    assert response.status_code == (200 if who == "organiser" else 404)
    # A draft's page links no PDF in another language either.
    page = client_for(cast, rival, who).get(f"/battles/{any_pdf.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "report.en.pdf" not in page.text


def test_an_unknown_language_or_battle_is_404(cast, any_pdf):
    assert Client().get(f"/battles/{any_pdf.pk}/report.de.pdf").status_code == 404
    assert Client().get(f"/battles/{any_pdf.pk + 99}/report.en.pdf").status_code == 404


def test_a_render_failure_is_a_503_saying_it_will_be_tried_again(cast, concluded, monkeypatch):
    def broken(html):
        raise RuntimeError("no fonts")

    monkeypatch.setattr(reports, "pdf_from_html", broken)
    url = f"/battles/{concluded.pk}/report.en.pdf"
    response = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response["Cache-Control"] == "private, max-age=0, must-revalidate"
    assert "could not be rendered; it will be tried again" in response.text
    monkeypatch.undo()
    assert Client().get(url).status_code == 200  # tried again, rendered


def test_with_a_broker_the_reader_waits_for_the_workers(cast, concluded, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(
        "battles.reports.tasks.render_report_pdf_in.delay", lambda *args: queued.append(args)
    )
    response = Client().get(f"/battles/{concluded.pk}/report.en.pdf", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert "is being rendered" in response.text
    assert queued == [(concluded.pk, "en")]


def test_with_a_broker_a_new_report_queues_the_other_languages(
    cast, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr("battles.reports.tasks.render_report.delay", lambda *a: queued.append(a))
    monkeypatch.setattr(
        "battles.reports.tasks.render_report_pdf_in.delay", lambda *a: queued.append(a)
    )
    battle = make_battle(cast.campaign)
    with django_capture_on_commit_callbacks(execute=True):
        report_request(battle=battle)
    assert queued == [(battle.pk, "html"), (battle.pk, "pdf"), (battle.pk, "en")]


def test_the_task_renders_the_other_language_once(cast, media, pdf_renders):
    battle = make_battle(cast.campaign)
    result = render_report_pdf_in.delay(battle.pk, "en").get()
    key = report_pdf_keys([battle.pk], lang="en")[battle.pk]
    assert result["status"] == "ready"
    assert result["file"].endswith(f"colonisation-compromise.en.{key[:16]}.pdf")
    assert render_report_pdf_in.delay(battle.pk, "en").get() == result
    assert len(pdf_renders) == 1
    assert render_report_pdf_in.delay(battle.pk + 99, "en").get()["status"] == "gone"


def test_a_post_renders_nothing(cast, any_pdf, pdf_renders):
    response = Client().post(f"/battles/{any_pdf.pk}/report.en.pdf")
    assert response.status_code == 405 and pdf_renders == []
