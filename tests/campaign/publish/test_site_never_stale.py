"""The published site follows every public change without a chronicler's *Publish*: a
battle concluded, recorded or reopened, a campaign turn closed or reopened queue one
refresh after the commit (coalesced), each build is recorded (``SiteBuild``), a failed
build never fails the action, and organisers have *Rebuild the site* (campaign/refresh.py,
campaign/league/site_builds.py).

Without a broker the build runs in a background thread on its own connection: these tests
commit (``transaction=True``)."""

from __future__ import annotations

import functools

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

import campaign
from battles.models import Battle
from battles.services import battle_record, battle_reopen, battle_resolve
from campaign import refresh, tasks
from campaign.core.actors import SYSTEM
from campaign.league.models import SiteBuild
from campaign.publish import MARKER, site_build
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from tests.battles.battle_fixtures import draft_skirmish

SEED = 20261130


@pytest.fixture
def builds(settings, tmp_path, monkeypatch):
    """The refresh's real build, without PDFs or search and in English only (fast); its
    calls are counted in ``builds.calls``."""
    settings.MEDIA_ROOT = tmp_path / "media"

    class Builds:
        calls = 0

    real = functools.partial(site_build, pdfs=False, search_index=False, languages=["en"])

    def counted(*, out_dir):
        Builds.calls += 1
        return real(out_dir=out_dir)

    monkeypatch.setattr("campaign.tasks.site_build", counted)
    yield Builds
    assert refresh.site_refresh_wait(60)


def page(settings, battle: Battle):
    return settings.SITE_ROOT / "en" / "battles" / battle.campaign.slug / f"{battle.slug}.html"


def bake(settings) -> None:
    """The site as ``build_site`` made it before the change."""
    site_build(out_dir=settings.SITE_ROOT, pdfs=False, search_index=False, languages=["en"])


@pytest.mark.django_db(transaction=True)
def test_reopening_a_concluded_battle_queues_one_build_and_the_site_drops_it(
    cast, settings, builds
):
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    bake(settings)
    assert page(settings, battle).is_file()

    battle_reopen(user=SYSTEM, battle=battle)  # autocommit: its callbacks run at once
    assert refresh.site_refresh_wait(60)
    assert builds.calls == 1
    assert not page(settings, battle).exists()  # a draft is not on the site
    build = SiteBuild.objects.get()
    assert (build.status, build.full, build.error) == ("succeeded", False, "")
    assert build.written > 0 and build.started_at <= build.finished_at


@pytest.mark.django_db(transaction=True)
def test_recording_a_battle_makes_it_appear(cast, settings, builds):
    battle = draft_skirmish(cast.campaign)
    bake(settings)
    assert not page(settings, battle).exists()

    battle_record(user=SYSTEM, battle=battle, results=[], outcome="Draw", winner=None)
    assert refresh.site_refresh_wait(60)
    assert builds.calls == 1
    assert "Skirmish skirmish" in page(settings, battle).read_text()


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_three_changes_in_one_transaction_gives_one_build(cast, settings, builds):
    first = draft_skirmish(cast.campaign, slug="first")
    second = draft_skirmish(cast.campaign, slug="second")
    campaign_turn_open(campaign=cast.campaign, user=SYSTEM)
    bake(settings)
    with transaction.atomic():
        battle_record(user=SYSTEM, battle=first, results=[], outcome="Draw", winner=None)
        battle_record(user=SYSTEM, battle=second, results=[], outcome="Draw", winner=None)
        campaign_turn_close(campaign=cast.campaign, user=SYSTEM)
    assert refresh.site_refresh_wait(60)
    assert builds.calls == 1
    assert page(settings, first).is_file() and page(settings, second).is_file()
    assert SiteBuild.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_queues_no_build(cast, settings, builds):
    battle = draft_skirmish(cast.campaign)
    bake(settings)
    with pytest.raises(RuntimeError), transaction.atomic():
        battle_record(user=SYSTEM, battle=battle, results=[], outcome="Draw", winner=None)
        raise RuntimeError("the request failed after the record")
    assert refresh.site_refresh_wait(60)
    assert builds.calls == 0 and not SiteBuild.objects.exists()


def test_with_a_broker_a_burst_of_three_commits_queues_one_build(cast, settings, monkeypatch):
    """Three changes committed one after the other before the worker starts: one task, one
    queued build (the countdown lets the burst join it)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")
    sent = []
    monkeypatch.setattr(campaign.celery_app, "send_task", _sent_to(sent))
    for _ in range(3):
        refresh._run_site_refresh()
    build = SiteBuild.objects.get()
    assert sent == [{"kwargs": {"build_id": build.pk}, "countdown": refresh.COALESCE_SECONDS}]
    # The worker runs it (no site build here: it fails on the empty marker-only folder, and
    # is recorded so); a change made after it started queues the next one.
    monkeypatch.setattr("campaign.tasks.site_build", lambda *, out_dir: _written(3))
    assert tasks.site_refresh.run(build_id=build.pk) == {"built": True, "written": 3}
    assert tasks.site_refresh.run(build_id=build.pk) == {"built": False, "written": 0}
    refresh._run_site_refresh(full=True, user=cast.organiser)
    assert len(sent) == 2
    queued = SiteBuild.objects.get(status="queued")
    assert (queued.full, queued.requested_by) == (True, cast.organiser)


def test_a_queued_build_whose_task_was_lost_is_replaced(db, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")
    monkeypatch.setattr(campaign.celery_app, "send_task", _sent_to([]))
    lost = SiteBuild.objects.create(requested_at=timezone.now() - timezone.timedelta(hours=1))
    refresh._run_site_refresh()
    lost.refresh_from_db()
    assert (lost.status, lost.error) == ("failed", "never started")
    assert SiteBuild.objects.filter(status="queued").exclude(pk=lost.pk).count() == 1


def test_a_build_whose_worker_was_lost_mid_build_is_failed(db, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")
    monkeypatch.setattr(campaign.celery_app, "send_task", _sent_to([]))
    hour_ago = timezone.now() - timezone.timedelta(hours=1)
    lost = SiteBuild.objects.create(status="running", requested_at=hour_ago, started_at=hour_ago)
    recent = SiteBuild.objects.create(status="running", started_at=timezone.now())
    refresh._run_site_refresh()
    lost.refresh_from_db()
    recent.refresh_from_db()
    assert (lost.status, lost.error) == ("failed", "never finished")
    assert recent.status == "running"  # still within the task's time: left alone


def _written(n: int):
    return type("Result", (), {"written": ["x"] * n})()


@pytest.mark.django_db(transaction=True)
def test_a_failing_build_is_recorded_and_the_reopen_still_succeeds(
    cast, settings, tmp_path, monkeypatch
):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    settings.SITE_ROOT.mkdir(parents=True)
    (settings.SITE_ROOT / MARKER).write_text("")

    def failing(*, out_dir):
        raise RuntimeError("pagefind crashed")

    monkeypatch.setattr("campaign.tasks.site_build", failing)
    client = Client()
    client.force_login(cast.organiser)
    response = client.post(f"/battles/{battle.pk}/reopen/", {"reason": ""})
    assert refresh.site_refresh_wait(60)
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.status == Battle.Status.DRAFT
    build = SiteBuild.objects.get()
    assert (build.status, build.error) == ("failed", "RuntimeError: pagefind crashed")
    # The organisers see it on the campaign page.
    text = client.get(f"/campaigns/{cast.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="en").content
    assert b"failed." in text and b"RuntimeError: pagefind crashed" in text


def test_the_rebuild_button_is_for_organisers_only(cast):
    url = f"/campaigns/{cast.campaign.slug}/site/rebuild/"
    for user, status in (
        (cast.norge_player, 403),
        (cast.chronicler, 403),
        (cast.outsider, 404),
    ):
        client = Client()
        client.force_login(user)
        assert client.post(url).status_code == status, user
        assert b"site-rebuild" not in client.get(f"/campaigns/{cast.campaign.slug}/").content
    assert Client().post(url).status_code == 302  # anonymous: to the login page
    assert not SiteBuild.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_rebuild_button_builds_the_site_and_shows_the_last_build(cast, settings, builds):
    """A full build: the site is made even where none was baked before."""
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    assert not settings.SITE_ROOT.exists()
    client = Client()
    client.force_login(cast.organiser)
    campaign_page = f"/campaigns/{cast.campaign.slug}/"
    before = client.get(campaign_page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="site-rebuild"' in before and "No build of the site recorded yet." in before
    assert client.get(f"{campaign_page}site/rebuild/").status_code == 405

    response = client.post(f"{campaign_page}site/rebuild/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response["Location"] == campaign_page
    assert refresh.site_refresh_wait(60)
    assert builds.calls == 1
    assert page(settings, battle).is_file()
    build = SiteBuild.objects.get()
    assert (build.status, build.full, build.requested_by) == ("succeeded", True, cast.organiser)
    shown = client.get(campaign_page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    with translation.override("en"):
        when = date_format(timezone.localtime(build.finished_at), "DATETIME_FORMAT")
    assert f"Last build {when}: succeeded, {build.written} files written." in shown


def test_the_last_build_and_the_queued_one_are_shown_in_french(cast):
    finished = timezone.now()
    SiteBuild.objects.create(
        status="succeeded", started_at=finished, finished_at=finished, written=1
    )
    SiteBuild.objects.create(full=True, requested_by=cast.organiser)
    client = Client()
    client.force_login(cast.organiser)
    shown = client.get(f"/campaigns/{cast.campaign.slug}/", HTTP_ACCEPT_LANGUAGE="fr")
    text = shown.content.decode()
    assert "Site publié" in text and "Régénérer le site" in text
    assert "\u202f: réussie, 1 fichier écrit." in text
    assert "Une génération est en file d’attente (demandée le " in text


def _sent_to(sent: list):
    """A stand-in for the Celery app's ``send_task``: the refresh task's options, recorded."""

    def send_task(name: str, **options):
        assert name == refresh.SITE_REFRESH
        sent.append(options)

    return send_task
