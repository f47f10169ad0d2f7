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
