"""``manage.py demo``: every concluded battle's report through the task, then the site."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from battles.models import Battle, Report
from battles.reports import context as reports
from tests.battles.battle_fixtures import draft_skirmish
from tests.battles.reports.report_fixtures import make_battle


@pytest.mark.django_db
def test_demo_renders_reports_and_bakes_the_site(settings, tmp_path, capsys, monkeypatch):
    settings.MEDIA_ROOT = media = tmp_path / "media"
    battle = make_battle()
    make_battle(battle.campaign, status="draft", name="Unfinished", slug="unfinished")
    renders = []
    original = reports.pdf_from_html
    monkeypatch.setattr(reports, "pdf_from_html", lambda h: renders.append(1) or original(h))
    site = tmp_path / "site"

    call_command("demo", "--site", str(site))

    out = capsys.readouterr().out
    base = media / "reports" / "test-league"
    pdf = base / "colonisation-compromise.pdf"
    assert (base / "colonisation-compromise.html").is_file()
    text = PdfReader(str(pdf)).pages[0].extract_text()
    assert "Colonisation compromise" in text and "Phalon" in text
    assert not (base / "unfinished.pdf").exists()
    assert (site / "index.html").is_file()
    assert (site / "pdf/fr/test-league/colonisation-compromise.pdf").read_bytes() == (
        pdf.read_bytes()
    )
    assert (site / "pdf/en/test-league/colonisation-compromise.pdf").is_file()
    assert str(site / "index.html") in out
    assert Report.objects.count() == 2
    assert renders == [1, 1]  # the site reused the cached French PDF, rendered the English

    call_command("demo", "--site", str(site))  # safe to run twice: nothing re-rendered
    assert renders == [1, 1]
    assert Report.objects.count() == 2


@pytest.mark.django_db
def test_demo_without_battles_still_bakes_a_site(settings, tmp_path, capsys):
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("demo", "--site", str(tmp_path / "site"))
    assert "No concluded battle" in capsys.readouterr().out
    assert (tmp_path / "site" / "index.html").is_file()


@pytest.mark.django_db
def test_demo_resolves_a_battle_left_for_the_engine_once(settings, tmp_path, capsys):
    settings.MEDIA_ROOT = media = tmp_path / "media"
    battle = draft_skirmish(qatzrin=("Ra'am", "Tzayad"), phalon=("Silith",))
    Battle.objects.filter(pk=battle.pk).update(mode="resolved", seed=5)
    unseeded = draft_skirmish(battle.campaign, slug="no-seed")  # no seed: left as a draft

    call_command("demo", "--site", str(tmp_path / "site"))

    battle.refresh_from_db()
    assert (battle.status, battle.seed, battle.version) == ("concluded", 5, 2)
    assert "resolved test-league/Skirmish skirmish (seed 5)" in capsys.readouterr().out
    html = (media / "reports" / "test-league" / "skirmish.html").read_text("utf-8")
    assert "Journal complet" in html and "d6=" in html  # the dice, collapsed in the HTML
    pdf = PdfReader(str(media / "reports" / "test-league" / "skirmish.pdf"))
    text = "".join(p.extract_text() for p in pdf.pages)
    assert "salve" in text and "d6=" not in text  # the PDF: highlights only (in French)
    assert Battle.objects.get(pk=unseeded.pk).status == "draft"
    log = list(battle.events.values_list("kind", "summary"))

    call_command("demo", "--site", str(tmp_path / "site"))  # already concluded: left alone
    battle.refresh_from_db()
    assert battle.version == 2 and list(battle.events.values_list("kind", "summary")) == log


@pytest.mark.django_db
def test_demo_console_speaks_english_only(settings, tmp_path, capsys, monkeypatch):
    """The services' messages it prints (a repair refused, an outcome) come in English
    like its own lines, not in the default language (French) between them."""
    from types import SimpleNamespace

    from campaign.management.commands import demo
    from campaign.sample.loader import sample_load

    settings.MEDIA_ROOT = tmp_path / "media"
    sample_load()
    monkeypatch.setattr(demo, "REPORT_FORMATS", ())  # the reports' files are not the point
    monkeypatch.setattr(
        demo,
        "site_build",
        lambda out_dir: SimpleNamespace(warnings=[], pages=[], pdfs=[], out_dir=out_dir),
    )

    call_command("demo", "--site", str(tmp_path / "site"))

    out = capsys.readouterr().out
    turn = [line for line in out.splitlines() if line.startswith("  turn: ")]
    assert any("no repair: ship" in line and "has no shipyard" in line for line in turn)
    # Two turns: the second closes with the fleets sent across the star map in the first.
    assert "  turn: turn 1 closed" in turn and turn[-1] == "  turn: turn 2 closed"
    for word in ("vaisseau", "n’a pas", "\u202f:", "chantier"):
        assert word not in out, word
