"""Report files under ``/media/`` are served by a view applying the
battle page's access rules (a draft's PDF is not public), with DEBUG on or off."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from battles.models import Battle, Report
from battles.reports.files import report_file_name
from tests.battles.reports.report_fixtures import make_battle
from tests.conftest import client_for

WHO = ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", None]


@pytest.fixture
def rendered(cast, media):
    """A concluded battle and its PDF row and file (bytes written here: the rendering
    itself is tested in test_tasks.py; this is about who gets the file)."""
    battle = make_battle(cast.campaign)
    name = report_file_name(battle, "pdf")
    (media / name).parent.mkdir(parents=True)
    (media / name).write_bytes(b"%PDF-1.7 test report")
    report = Report.objects.create(battle=battle, format="pdf", version=1, digest="x", file=name)
    return battle, report


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize("who", WHO)
def test_a_concluded_battle_s_pdf_is_served_to_everyone(cast, rendered, who, debug):
    battle, report = rendered
    with override_settings(DEBUG=debug):
        response = client_for(cast, None, who).get(f"/media/{report.file.name}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF")


@pytest.mark.parametrize("who", WHO)
def test_a_draft_s_pdf_is_for_its_organisers_only(cast, rendered, who):
    battle, report = rendered
    Battle.objects.filter(pk=battle.pk).update(status=Battle.Status.DRAFT)
    response = client_for(cast, None, who).get(f"/media/{report.file.name}")
    organises = who == "organiser" and battle.campaign_id == cast.campaign.pk
    assert response.status_code == (200 if organises else 404)


def test_the_battle_page_links_the_served_file(cast, rendered):
    battle, report = rendered
    page = Client().get(f"/battles/{battle.pk}/").text
    assert f'href="/media/{report.file.name}"' in page


def test_other_files_under_media_are_404(cast, rendered, media):
    (media / "secret.txt").write_text("nope")
    assert Client().get("/media/secret.txt").status_code == 404
    assert Client().get("/media/../campaign/settings.py").status_code == 404


def test_a_report_whose_file_is_gone_is_404(cast, rendered, media):
    _battle, report = rendered
    (media / report.file.name).unlink()
    assert Client().get(f"/media/{report.file.name}").status_code == 404
    assert Report.objects.exists()


def test_a_served_html_report_may_apply_its_own_inline_styles(cast, media):
    """The app's policy allows no <style> element without the page's nonce; a report file
    rendered beforehand has none, so Chromium left the served report unstyled. Its answer
    now lists the hash of each of its <style> elements, and of nothing else."""
    import base64
    import hashlib
    import re

    from battles.reports.tasks import render_report

    battle = make_battle(cast.campaign)
    name = render_report.delay(battle.pk, "html").get()["file"]
    response = Client().get(f"/media/{name}")
    assert response.status_code == 200
    html = b"".join(response.streaming_content).decode()
    styles = re.findall(r"<style(?:\s[^>]*)?>(.*?)</style>", html, re.S)
    assert styles and "report-title" in styles[0]
    expected = {
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in styles
    }
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    allowed = set(policy["style-src"].split())
    assert expected <= allowed
    assert allowed - expected <= {"'self'"} and "'unsafe-inline'" not in allowed
    assert policy["script-src"] == "'self'"
    # The battle page keeps its nonce and lists no hash.
    page = Client().get(f"/battles/{battle.pk}/")
    assert "sha256-" not in page["Content-Security-Policy"]
