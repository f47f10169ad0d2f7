"""A report rendered by a real Celery worker through a real broker (Redis in CI), on
PostgreSQL, gives the same PDF text as eager in-process rendering."""

import time

import pytest
from django.db import connection
from pypdf import PdfReader

from battles.models import Battle, BattleSide, Report
from battles.reports.tasks import render_report
from campaign.league.models import Campaign
from factions.models import Faction

pytestmark = pytest.mark.integration


def _battle(slug: str):
    campaign, _ = Campaign.objects.get_or_create(slug="it-league", defaults={"name": "IT league"})
    phalon, _ = Faction.objects.get_or_create(slug="phalon", defaults={"name": "Phalon"})
    gplus, _ = Faction.objects.get_or_create(
        slug="collectif-g-plus", defaults={"name": "Collectif G+"}
    )
    battle = Battle.objects.create(
        campaign=campaign,
        name="Colonisation compromise",
        slug=slug,
        location="Miranda",
        game_turns=5,
        outcome="Phalon victory: the G+ destroyers jump out.",
        winner=phalon,
        narrative="## Turn 1\n\nThe Phalon *pulsers* open fire at long range.",
        analysis="Shells held.",
        status=Battle.Status.CONCLUDED,
    )
    BattleSide.objects.create(
        battle=battle, faction=phalon, primary_objective="Destroy the enemy fleet"
    )
    BattleSide.objects.create(
        battle=battle, faction=gplus, primary_objective="Destroy the enemy fleet", order=1
    )
    return battle


def _pdf_text(path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(path).pages)


def test_database_is_postgresql(db):
    assert connection.vendor == "postgresql"


def test_worker_renders_the_same_pdf_as_eager_mode(transactional_db, celery_worker_process):
    through_broker = _battle("via-broker")
    in_process = _battle("in-process")

    render_report.delay(through_broker.pk, "pdf")
    deadline = time.monotonic() + 120
    while not Report.objects.filter(battle=through_broker, format="pdf").exists():
        assert time.monotonic() < deadline, celery_worker_process["log"].read_text()
        time.sleep(0.5)
    worker_report = Report.objects.get(battle=through_broker, format="pdf")

    # .apply() runs the same task synchronously in this process (eager mode).
    render_report.apply(args=(in_process.pk, "pdf")).get()
    eager_report = Report.objects.get(battle=in_process, format="pdf")

    worker_text = _pdf_text(worker_report.file.path)
    assert "Colonisation compromise" in worker_text
    assert "Phalon" in worker_text
    assert worker_text == _pdf_text(eager_report.file.path)
    log = celery_worker_process["log"].read_text()
    assert "render_report" in log and "succeeded" in log
