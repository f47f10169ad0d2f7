"""``manage.py demo``: every concluded battle's report through the task, then the site."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from battles.models import Battle, Report
from battles.reports import context as reports
from campaign.league.models import SiteBuild
from campaign.league.site_builds import site_build_state
from campaign.management.commands import demo as demo_command
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
    # Recorded like the Rebuild button: the campaign page shows when the site was built.
    last = site_build_state()["last"]
    assert (last.status, last.full, last.requested_by, last.error) == ("succeeded", True, None, "")
    assert last.written > 0 and last.finished_at is not None
    assert SiteBuild.objects.count() == 1

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
        lambda out_dir: SimpleNamespace(
            warnings=[], pages=[], pdfs=[], written=[], out_dir=out_dir
        ),
    )

    call_command("demo", "--site", str(tmp_path / "site"))

    out = capsys.readouterr().out
    turn = [line for line in out.splitlines() if line.startswith("  turn: ")]
    # Every faction repairs at a yard now; the crippled Dreda overflows the small yard of
    # Miranda colony A (README *The sample's yards*): refused, in English.
    assert any(line.startswith("  turn: repair of Tzayad") for line in turn)
    assert (
        "  turn: no repair: yard Miranda colony A: 39 work units ordered, 0 already queued, "
        "the yard holds 16 (4 a turn × 4 turns)"
    ) in turn
    # Two turns: the second closes with the fleets sent across the star map in the first.
    assert "  turn: turn 1 closed" in turn and turn[-1] == "  turn: turn 2 closed"
    for word in ("vaisseau", "n’a pas", "\u202f:", "chantier"):
        assert word not in out, word


@pytest.mark.django_db
def test_a_build_that_crashes_is_recorded_as_failed(settings, tmp_path, monkeypatch):
    """Any error of the build (not only a refused output folder) ends its ``SiteBuild``
    row: a row left running made the campaign page say "a build is in progress" for ever,
    beside the later builds that succeeded."""
    settings.MEDIA_ROOT = tmp_path / "media"

    def crash(out_dir):
        raise KeyError("why")

    monkeypatch.setattr(demo_command, "site_build", crash)
    with pytest.raises(KeyError):
        call_command("demo", "--site", str(tmp_path / "site"))
    state = site_build_state()
    assert state["pending"] is None
    assert (state["last"].status, state["last"].error) == ("failed", "KeyError: 'why'")
