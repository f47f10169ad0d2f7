"""The report service, its Celery task (eager here) and the render_report command."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from pypdf import PdfReader

from battles.models import Battle, Report
from battles.reports.files import report_render
from battles.reports.queue import report_request
from battles.reports.tasks import render_report
from tests.battles.reports.report_fixtures import make_battle


@pytest.mark.django_db
def test_task_renders_html_and_pdf_under_media_reports(media):
    battle = make_battle()
    for fmt in ("html", "pdf"):
        result = render_report.delay(battle.pk, fmt).get()
        assert result["file"] == f"reports/test-league/colonisation-compromise.{fmt}"
        assert (media / result["file"]).is_file()
    pdf = (media / "reports/test-league/colonisation-compromise.pdf").read_bytes()
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Colonisation compromise" in text and "Phalon" in text
    html = (media / "reports/test-league/colonisation-compromise.html").read_text()
    assert '<h1 class="report-title">Colonisation compromise</h1>' in html
    assert Report.objects.filter(battle=battle).count() == 2


@pytest.mark.django_db
def test_same_version_is_not_rendered_again(media, pdf_renders):
    battle = make_battle()
    first = render_report.delay(battle.pk, "pdf").get()
    path = media / first["file"]
    stamp = path.stat().st_mtime_ns
    second = render_report.delay(battle.pk, "pdf").get()
    assert second == first
    assert len(pdf_renders) == 1
    assert path.stat().st_mtime_ns == stamp
    assert Report.objects.filter(battle=battle, format="pdf").count() == 1


@pytest.mark.django_db
def test_new_version_or_lost_file_renders_again(media, pdf_renders):
    battle = make_battle()
    render_report.delay(battle.pk, "pdf").get()
    Battle.objects.filter(pk=battle.pk).update(version=2, name="Colonisation compromise II")
    result = render_report.delay(battle.pk, "pdf").get()
    assert result["version"] == 2
    assert len(pdf_renders) == 2
    text = PdfReader(str(media / result["file"])).pages[0].extract_text()
    assert "Colonisation compromise II" in text
    (media / result["file"]).unlink()
    render_report.delay(battle.pk, "pdf").get()
    assert len(pdf_renders) == 3
    assert Report.objects.get(battle=battle, format="pdf").version == 2


@pytest.mark.django_db
def test_transient_failure_is_retried(media, monkeypatch):
    battle = make_battle()
    attempts = []

    def flaky(*, battle_id, fmt):
        attempts.append(fmt)
        if len(attempts) == 1:
            raise OSError("disk hiccup")
        return report_render(battle_id=battle_id, fmt=fmt)

    monkeypatch.setattr("battles.reports.tasks.report_render", flaky)
    # throw=False: let Celery's eager apply() handle the Retry the way a worker would
    # (settings propagate eager errors, which would surface the Retry itself).
    result = render_report.apply(args=(battle.pk, "html"), throw=False).get()
    assert attempts == ["html", "html"]
    assert (media / result["file"]).is_file()


@pytest.mark.django_db
def test_bad_format_or_battle_fails_without_retry(media, monkeypatch):
    battle = make_battle()
    with pytest.raises(ValueError, match="format 'docx'"):
        render_report.delay(battle.pk, "docx").get()
    with pytest.raises(Battle.DoesNotExist):
        render_report.delay(battle.pk + 999, "pdf").get()
    assert not Report.objects.exists()


def test_task_has_time_limits_and_late_acks():
    assert render_report.time_limit == 180
    assert render_report.soft_time_limit == 120
    assert render_report.acks_late is True
    assert render_report.max_retries == 3


@pytest.mark.django_db(transaction=True)
def test_report_request_waits_for_the_transaction_to_commit(media):
    from django.db import transaction

    battle = make_battle()
    with transaction.atomic():
        report_request(battle=battle)
        assert not Report.objects.exists()
    assert set(Report.objects.values_list("format", flat=True)) == {"html", "pdf"}


@pytest.mark.django_db
def test_report_request_queues_one_callback_per_format(media, django_capture_on_commit_callbacks):
    battle = make_battle()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        report_request(battle=battle)
    assert len(callbacks) == 2
    assert not Report.objects.exists()
    with pytest.raises(ValueError):
        report_request(battle=battle, formats=["odt"])


@pytest.mark.django_db
def test_render_report_command_copies_the_file(media, tmp_path):
    battle = make_battle()
    out = tmp_path / "out" / "miranda.pdf"
    call_command("render_report", str(battle.pk), "--format", "pdf", "--out", str(out))
    assert out.read_bytes().startswith(b"%PDF")
    assert "Colonisation compromise" in PdfReader(str(out)).pages[0].extract_text()
    html_out = tmp_path / "miranda.html"
    call_command("render_report", str(battle.pk), "--format", "html", "--out", str(html_out))
    assert "Colonisation compromise" in html_out.read_text()
    with pytest.raises(CommandError, match="no battle with id"):
        call_command("render_report", "99999", "--format", "pdf")


@pytest.mark.django_db
def test_render_report_command_says_when_the_file_was_current(media, tmp_path):
    battle = make_battle()
    said = []
    for _ in range(2):
        out = io.StringIO()
        call_command("render_report", str(battle.pk), "--format", "pdf", stdout=out)
        said.append(out.getvalue())
    path = media / "reports/test-league/colonisation-compromise.pdf"
    assert said == [
        f"Colonisation compromise v{battle.version} (pdf) rendered: {path}\n",
        f"Colonisation compromise v{battle.version} (pdf) current, nothing rendered: {path}\n",
    ]


@pytest.mark.django_db
def test_a_report_whose_rendering_code_changed_is_rendered_again(media, pdf_renders, monkeypatch):
    # E.g. after an upgrade changed the templates: the sources' digest, hence the key, differs.
    battle = make_battle()
    render_report.delay(battle.pk, "pdf").get()
    render_report.delay(battle.pk, "pdf").get()
    assert len(pdf_renders) == 1
    monkeypatch.setattr("battles.reports.keys.report_sources_digest", lambda: "v2")
    render_report.delay(battle.pk, "pdf").get()
    assert len(pdf_renders) == 2


@pytest.mark.django_db
def test_a_slug_that_would_escape_the_reports_folder_is_refused(media):
    battle = make_battle(slug="../../escape")
    with pytest.raises(ValueError, match="not a safe file name"):
        report_render(battle_id=battle.pk, fmt="html")
    assert not (media.parent / "escape.html").exists()
