"""Publishing without a broker (Celery eager, the development default) refreshes the site
after the response, in one background thread, never inside the chronicler's request
(campaign/refresh.py); with a broker the refresh is queued to a worker. The background
thread records each build (``SiteBuild``) on its own connection: these tests commit."""

from __future__ import annotations

import threading

import pytest
from django.test import Client

import campaign
from battles.models import Battle
from battles.reports import desk as chronicle
from campaign import refresh
from campaign.league.models import SiteBuild
from campaign.publish import MARKER, site_build
from tests.battles.reports.report_fixtures import make_battle
from tests.campaign.publish.test_publish import make_league

NEW_TEXT = "The belt was held by the Silith"


def pdf_text(path) -> str:
    from pypdf import PdfReader

    return "".join(p.extract_text() for p in PdfReader(str(path)).pages)


@pytest.fixture
def blocked_build(monkeypatch, settings):
    """``site_build`` replaced by one that waits for ``release`` (and counts its calls),
    over a SITE_ROOT that a previous build made."""
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")

    class Build:
        started = threading.Event()
        release = threading.Event()
        calls = 0

    def fake(*, out_dir):
        Build.calls += 1
        Build.started.set()
        assert Build.release.wait(10)
        return type("Result", (), {"written": []})()

    monkeypatch.setattr("campaign.tasks.site_build", fake)
    yield Build
    Build.release.set()
    assert refresh.site_refresh_wait(10)


@pytest.mark.django_db(transaction=True)
def test_a_publish_returns_while_the_site_builds_and_later_requests_coalesce(
    cast, settings, tmp_path, blocked_build, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path / "media"
    assert settings.CELERY_TASK_ALWAYS_EAGER  # no broker in the tests
    battle = make_battle(cast.campaign)
    chronicle.report_draft_write(battle=battle)
    client = Client()
    client.force_login(cast.chronicler)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/battles/{battle.pk}/report/publish/")
    assert response.status_code == 302
    # The request has its answer; the build started after it and is still running.
    assert blocked_build.started.wait(10)
    assert not blocked_build.release.is_set() and not refresh.site_refresh_wait(0.05)
    battle.refresh_from_db()
    assert battle.report_state == Battle.ReportState.PUBLISHED
    # Three more requests while it builds: one more build after it, not three.
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            refresh.site_refresh_request(campaign_slug=cast.campaign.slug)
    blocked_build.release.set()
    assert refresh.site_refresh_wait(10)
    assert blocked_build.calls == 2
    assert list(SiteBuild.objects.values_list("status", flat=True)) == ["succeeded"] * 2


@pytest.mark.django_db(transaction=True)
def test_a_failed_background_build_is_logged_and_the_next_request_builds(
    settings, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")
    calls = []

    def failing(*, out_dir):
        calls.append(out_dir)
        if len(calls) == 1:
            raise OSError("disk full")
        return type("Result", (), {"written": ["fr/index.html"]})()

    monkeypatch.setattr("campaign.tasks.site_build", failing)
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            refresh.site_refresh_request()
        assert refresh.site_refresh_wait(10)
    assert len(calls) == 2
    assert "site build failed" in caplog.text
    failed, succeeded = SiteBuild.objects.order_by("pk")
    assert (failed.status, failed.error) == ("failed", "OSError: disk full")
    assert (succeeded.status, succeeded.written, succeeded.error) == ("succeeded", 1, "")


def test_with_a_broker_the_refresh_is_queued_not_run(db, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")
    queued = []
    monkeypatch.setattr(campaign.celery_app, "send_task", _sent_to(queued))
    monkeypatch.setattr(refresh, "_refresh_in_background", lambda *a: pytest.fail("ran in-process"))
    refresh._run_site_refresh()
    build = SiteBuild.objects.get()
    assert queued == [{"kwargs": {"build_id": build.pk}, "countdown": refresh.COALESCE_SECONDS}]
    assert build.status == "queued"


@pytest.mark.django_db(transaction=True)
def test_the_background_refresh_bakes_the_published_text_and_its_current_pdf(settings, tmp_path):
    """For real: the committed publish reaches the baked page and the PDF copied beside it
    (the battle's current version), once the background build is over."""
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(make_league(), narrative=NEW_TEXT)
    chronicle.report_draft_write(battle=battle)
    site = settings.SITE_ROOT
    site_build(out_dir=site, search_index=False)
    page = site / "en" / "battles" / "test-league" / "colonisation-compromise.html"
    pdf = site / "pdf" / "en" / "test-league" / "colonisation-compromise.pdf"
    assert NEW_TEXT not in page.read_text() and NEW_TEXT not in pdf_text(pdf)

    chronicle.report_publish(battle=battle)  # autocommit: its callbacks run at once
    assert refresh.site_refresh_wait(120)
    assert NEW_TEXT in page.read_text()
    assert 'href="../../../pdf/en/test-league/colonisation-compromise.pdf"' in page.read_text()
    assert NEW_TEXT in pdf_text(pdf)


def _sent_to(sent: list):
    """A stand-in for the Celery app's ``send_task``: the refresh task's options, recorded."""

    def send_task(name: str, **options):
        assert name == refresh.SITE_REFRESH
        sent.append(options)

    return send_task
