"""PDFs rendered once per key of what the report reads, many at a time in a process pool
(battles/reports/pdfs.py): the site builder's API."""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.utils import translation
from pypdf import PdfReader

from battles.models import Participant, Report
from battles.reports import context as reports
from battles.reports import queue
from battles.reports.context import render_pdf
from battles.reports.keys import report_pdf_keys
from battles.reports.pdfs import report_pdf_ensure
from battles.reports.queue import report_pdfs_ensure
from factions.models import Fleet
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db


def text(path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages)


def test_rendered_once_then_again_only_when_what_it_reads_changes(media, pdf_renders):
    battle = make_battle()
    first = report_pdf_ensure(battle=battle)
    assert first == media / "reports/test-league/colonisation-compromise.pdf"
    assert "Colonisation compromise" in text(first)
    mtime = first.stat().st_mtime_ns
    assert report_pdf_ensure(battle=battle) == first
    assert len(pdf_renders) == 1 and first.stat().st_mtime_ns == mtime
    report = Report.objects.get(battle=battle, format="pdf")
    assert report.digest == report_pdf_keys([battle.pk])[battle.pk]

    Participant.objects.filter(ship__name="Vishnu Second").update(hull_lost=17)  # no version
    assert "17" in text(report_pdf_ensure(battle=battle))
    Fleet.objects.filter(slug="test-ganesha").update(hidden=True)
    assert "Vishnu Prime" not in text(report_pdf_ensure(battle=battle))
    assert len(pdf_renders) == 3


def test_the_key_changes_with_the_language_and_the_rendering_code(monkeypatch):
    battle = make_battle()
    fr = report_pdf_keys([battle.pk], lang="fr")[battle.pk]
    assert report_pdf_keys([battle.pk], lang="en")[battle.pk] != fr
    assert report_pdf_keys([battle.pk], lang="fr")[battle.pk] == fr
    monkeypatch.setattr("battles.reports.keys.report_sources_digest", lambda: "upgrade")
    assert report_pdf_keys([battle.pk], lang="fr")[battle.pk] != fr


def test_another_language_gets_its_own_file_keyed_in_its_name(media):
    battle = make_battle()
    english = report_pdf_ensure(battle=battle, lang="en")
    key = report_pdf_keys([battle.pk], lang="en")[battle.pk]
    assert english.name == f"colonisation-compromise.en.{key[:16]}.pdf"
    assert "Victory: Phalon" in text(english)
    assert not Report.objects.filter(battle=battle).exists()  # the campaign's PDF is apart
    Participant.objects.filter(ship__name="Vishnu Second").update(hull_lost=17)
    again = report_pdf_ensure(battle=battle, lang="en")
    assert again != english and not english.exists()  # the old key's file is gone


def test_a_pool_renders_the_stale_ones_and_the_next_call_renders_none(media, pdf_renders):
    battles = [make_battle(), make_battle(slug="second-clash", name="Second clash")]
    found = report_pdfs_ensure(battles=battles, workers=2)
    assert pdf_renders == []  # rendered in the pool's processes, not here
    assert sorted(found) == sorted(b.pk for b in battles)
    assert "Second clash" in text(found[battles[1].pk])
    assert "Colonisation compromise" in text(found[battles[0].pk])
    keys = report_pdf_keys([b.pk for b in battles])
    assert {r.battle_id: r.digest for r in Report.objects.filter(format="pdf")} == keys
    mtimes = {pk: path.stat().st_mtime_ns for pk, path in found.items()}
    assert report_pdfs_ensure(battles=battles, workers=2) == found
    assert {pk: path.stat().st_mtime_ns for pk, path in found.items()} == mtimes


def test_the_pool_writes_the_bytes_this_process_would(media):
    """The pool's processes set up no app (battles.reports.pdf_worker.init): the same PDF."""
    battles = [make_battle(), make_battle(slug="second-clash", name="Second clash")]
    found = report_pdfs_ensure(battles=battles, workers=2)
    for battle in battles:
        with translation.override(battle.campaign.language or settings.LANGUAGE_CODE):
            here = reports.pdf_from_html(reports.pdf_page_html(battle))
        assert found[battle.pk].read_bytes() == here


def test_a_render_error_marks_the_report_failed_and_raises_nothing(media, monkeypatch):
    battle = make_battle()

    def broken(html):
        raise RuntimeError("Pango fell over")

    monkeypatch.setattr(reports, "pdf_from_html", broken)
    assert report_pdf_ensure(battle=battle) is None
    report = Report.objects.get(battle=battle, format="pdf")
    assert report.status == "failed" and "Pango fell over" in report.error


def test_inside_a_worker_the_pdfs_render_here_not_queued(monkeypatch, settings, media):
    """A Celery worker's site refresh would wait on render tasks queued behind it on the
    same worker (and a daemonic process may not start a pool): it renders in-process."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(queue, "_in_worker", lambda: True)
    monkeypatch.setattr(queue, "_by_workers", lambda *a: pytest.fail("queued"))
    seen = []
    monkeypatch.setattr(
        queue, "by_pool", lambda battles, keys, lang, workers: seen.append(workers) or {}
    )
    queue.report_pdfs_ensure(battles=[make_battle()])
    assert seen == [1]


@pytest.mark.django_db
def test_weasyprint_reads_the_report_stylesheets_without_a_warning(caplog):
    """``make demo`` printed "Invalid media type 'screen and (max-width: 40rem)' … the
    whole @media rule was ignored": WeasyPrint reads media types, not features."""
    import logging

    with caplog.at_level(logging.WARNING, logger="weasyprint"):
        assert render_pdf(make_battle()).startswith(b"%PDF")
    assert [r.getMessage() for r in caplog.records if r.name.startswith("weasyprint")] == []
