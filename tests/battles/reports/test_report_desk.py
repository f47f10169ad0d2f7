"""The chroniclers' desk: drafted reports, edit with preview, publish and withdraw
with the permission matrix of its pages."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, Report
from battles.reports import desk as chronicle
from battles.reports.context import report_context
from battles.reports.tasks import render_report
from campaign.core.markdown import MAX_MARKDOWN_CHARS
from campaign.league.api_auth import api_token_create
from campaign.league.roles import can_edit_reports
from factions.models import Fleet, Ship
from tests.battles.reports.report_fixtures import HOSTILE_MARKDOWN, make_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def drafted(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(cast.campaign, narrative="")
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    return chronicle.report_draft_write(battle=battle)


def test_the_draft_holds_forces_with_points_objectives_turns_losses_and_outcome(drafted):
    text = drafted.narrative
    assert drafted.report_state == Battle.ReportState.DRAFT
    # In the campaign's language (French by default).
    for heading in ("## Forces", "## Objectifs", "## Tour par tour", "## Pertes", "## Issue"):
        assert heading in text
    assert "Silith One" in text and "Vishnu Prime" in text
    assert "| Phalon |" in text
    assert "Victoire\u202f: Phalon." in text


def test_the_draft_never_names_a_unit_of_a_hidden_fleet(cast):
    battle = make_battle(cast.campaign, narrative="")
    Battle.objects.filter(pk=battle.pk).update(narrative="")
    battle.refresh_from_db()
    secret = Fleet.objects.get(slug="secret-reserve")
    side = battle.sides.get(faction__slug="phalon")
    ship = Ship.objects.create(
        ship_class=side.participants.first().ship.ship_class, fleet=secret, name="Ghost Lancer"
    )
    side.participants.create(ship=ship, fate="damaged", hull_lost=2)
    text = chronicle.report_draft_write(battle=battle).narrative
    assert "Ghost Lancer" not in text and "Secret Reserve" not in text
    assert "1 unité non identifiée" in text


def test_a_narrative_typed_at_the_table_is_kept_unless_forced(cast):
    battle = make_battle(cast.campaign, narrative="Typed at the table.")
    chronicle.report_draft_write(battle=battle)
    assert battle.narrative == "Typed at the table."
    chronicle.report_draft_write(battle=battle, force=True)
    assert "## Forces" in battle.narrative


def test_a_drafted_narrative_is_shown_only_to_those_who_may_edit_it(cast, drafted):
    for user, shown in [
        (None, False),
        (cast.norge_player, False),
        (cast.outsider, False),
        (cast.chronicler, True),
        (cast.organiser, True),
    ]:
        context = report_context(drafted, user=user)
        assert bool(str(context["narrative_html"])) is shown, user
        assert context["report_is_draft"] is shown


def test_can_edit_reports_is_for_the_campaigns_chroniclers_organisers_and_staff(cast, rival):
    campaign = cast.campaign
    assert can_edit_reports(cast.chronicler, campaign)
    assert can_edit_reports(cast.organiser, campaign)
    assert can_edit_reports(rival.staff, campaign)
    for user in (None, cast.norge_player, cast.outsider, rival.organiser):
        assert not can_edit_reports(user, campaign)


def test_publish_raises_the_version_and_renders_the_pdf_for_it(
    drafted, django_capture_on_commit_callbacks
):
    before = drafted.version
    with django_capture_on_commit_callbacks(execute=True):
        battle = chronicle.report_publish(battle=drafted)
    assert battle.report_state == "published" and battle.version == before + 1
    pdf = Report.objects.get(battle=battle, format="pdf")
    assert pdf.version == battle.version and pdf.status == "ready"
    assert str(report_context(battle, user=None)["narrative_html"])
    chronicle.report_withdraw(battle=battle)
    battle.refresh_from_db()
    assert battle.report_state == "draft"
    assert not str(report_context(battle, user=None)["narrative_html"])


def test_a_text_over_the_cap_is_refused_naming_the_field_and_nothing_changes(drafted):
    before = drafted.narrative
    with pytest.raises(chronicle.ReportEditError, match="Analyse"):
        chronicle.report_edit(
            battle=drafted, narrative="ok", analysis="x" * (MAX_MARKDOWN_CHARS + 1)
        )
    drafted.refresh_from_db()
    assert drafted.narrative == before


def test_a_side_of_another_battle_is_refused(cast, drafted):
    other = make_battle(cast.campaign, slug="other", name="Other")
    with pytest.raises(chronicle.ReportEditError):
        chronicle.report_edit(battle=drafted, side_analyses={other.sides.first().pk: "x"})


def test_a_failed_pdf_is_marked_failed_with_its_reason_and_the_publish_still_succeeds(
    client, cast, drafted, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(html):
        raise RuntimeError("font exploded")

    monkeypatch.setattr("battles.reports.context.pdf_from_html", broken)
    client.force_login(cast.chronicler)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("report-publish", args=[drafted.pk]))
    assert response.status_code == 302
    report = Report.objects.get(battle=drafted, format="pdf")
    assert report.status == "failed" and "font exploded" in report.error
    page = client.get(reverse("battle-detail", args=[drafted.pk]))
    assert "font exploded" in page.content.decode()
    assert ".pdf" not in page.content.decode()  # no link to a PDF of another version


@pytest.mark.parametrize(
    "where", ["battles.reports.context.pdf_page_html", "battles.reports.context.pdf_from_html"]
)
def test_a_broken_page_or_pdf_on_publish_is_a_failed_report_not_an_error_page(
    client, cast, drafted, monkeypatch, django_capture_on_commit_callbacks, where
):
    def broken(*args):
        raise ValueError("template blew up")

    monkeypatch.setattr(where, broken)
    client.force_login(cast.chronicler)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("report-publish", args=[drafted.pk]))
    assert response.status_code == 302
    drafted.refresh_from_db()
    assert drafted.report_state == "published"  # the action is saved
    report = Report.objects.get(battle=drafted, format="pdf")
    assert report.status == "failed" and "template blew up" in report.error
    assert report.version == drafted.version


# --- the pages: permission matrix ------------------------------------------------------

EDIT_URLS = ("report-edit",)
POST_URLS = ("report-preview", "report-publish", "report-withdraw")


@pytest.mark.parametrize(
    ("who", "allowed"),
    [
        ("organiser", True),
        ("chronicler", True),
        ("norge_player", False),
        ("qatzrin_player", False),
        ("outsider", False),
    ],
)
def test_desk_pages_answer_editors_403_to_members_and_404_to_everyone_else(
    client, cast, drafted, who, allowed
):
    client.force_login(getattr(cast, who))
    refused = 404 if who == "outsider" else 403  # players are members of the campaign
    response = client.get(reverse("report-edit", args=[drafted.pk]))
    assert response.status_code == (200 if allowed else refused)
    for name in POST_URLS:
        response = client.post(reverse(name, args=[drafted.pk]), {"narrative": "x"})
        assert response.status_code in ((200, 302) if allowed else (refused,)), name


def test_anonymous_users_are_sent_to_log_in(client, drafted):
    for name in EDIT_URLS + POST_URLS:
        response = client.post(reverse(name, args=[drafted.pk]))
        assert response.status_code == 302 and "login" in response["Location"]


def test_another_campaigns_organiser_gets_404(client, rival, drafted):
    client.force_login(rival.organiser)
    assert client.get(reverse("report-edit", args=[drafted.pk])).status_code == 404


def test_the_preview_renders_unsaved_markdown_with_tables_and_footnotes_safely(
    client, cast, drafted
):
    client.force_login(cast.chronicler)
    text = "Hit[^1].\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[^1]: A footnote.\n\n" + HOSTILE_MARKDOWN
    response = client.post(
        reverse("report-preview", args=[drafted.pk]), {"narrative": text, "analysis": ""}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "<table>" in html and 'id="narrative-fn:1"' in html
    assert 'href="#narrative-fn:1"' in html
    assert "<script" not in html and "onerror" not in html and "javascript:" not in html
    drafted.refresh_from_db()
    assert "Hit" not in drafted.narrative  # a preview saves nothing


def test_save_then_publish_from_the_pages(
    client, cast, drafted, django_capture_on_commit_callbacks
):
    client.force_login(cast.chronicler)
    side = drafted.sides.first()
    data = {
        "narrative": "## Chapitre\n\nLe *Silith* tint.",
        "analysis": "",
        f"side_{side.pk}": "Bien.",
    }
    response = client.post(reverse("report-edit", args=[drafted.pk]), data)
    assert response.status_code == 302
    drafted.refresh_from_db()
    assert drafted.narrative.startswith("## Chapitre")
    side.refresh_from_db()
    assert side.analysis == "Bien."
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("report-publish", args=[drafted.pk]))
    client.logout()
    page = client.get(reverse("battle-detail", args=[drafted.pk])).content.decode()
    assert "Le <em>Silith</em> tint." in page
    assert 'id="narrative-chapitre"' in page


def test_an_oversized_text_on_the_page_is_a_field_error_not_a_500(client, cast, drafted):
    client.force_login(cast.chronicler)
    response = client.post(
        reverse("report-edit", args=[drafted.pk]),
        {"narrative": "x" * (MAX_MARKDOWN_CHARS + 1), "analysis": ""},
    )
    assert response.status_code == 400
    assert "errors" in response.content.decode()


# --- the API -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("organiser", 200), ("chronicler", 200), ("norge_player", 403), ("outsider", 404)],
)
def test_api_report_read_matrix(client, cast, drafted, who, status):
    client.force_login(getattr(cast, who))
    response = client.get(f"/api/battles/{drafted.pk}/report")
    assert response.status_code == status
    if status == 200:
        assert response.json()["state"] == "draft"
        assert "## Forces" in response.json()["narrative"]


@pytest.mark.parametrize(
    ("who", "shown"),
    [("organiser", True), ("chronicler", True), ("norge_player", False), ("outsider", False),
     (None, False)],
)  # fmt: skip
def test_battle_api_hides_a_drafted_narrative_like_the_page(client, cast, drafted, who, shown):
    """GET /api/battles/{id} gave anyone, anonymous included, the unpublished draft."""
    side = drafted.sides.first()
    side.analysis = "Side view, unpublished"
    side.save()
    Battle.objects.filter(pk=drafted.pk).update(analysis="Analysis, unpublished")
    if who:
        client.force_login(getattr(cast, who))
    data = client.get(f"/api/battles/{drafted.pk}").json()
    texts = [data["narrative"], data["analysis"], *(s["analysis"] for s in data["sides"])]
    assert ("## Forces" in data["narrative"]) is shown
    assert ("Side view, unpublished" in texts) is shown and (
        "Analysis, unpublished" in texts
    ) is shown
    assert shown or texts == [""] * len(texts)
    chronicle.report_publish(battle=drafted)
    assert "## Forces" in client.get(f"/api/battles/{drafted.pk}").json()["narrative"]


def test_api_anonymous_is_401(client, drafted):
    assert client.get(f"/api/battles/{drafted.pk}/report").status_code == 401


def test_api_edit_publish_withdraw(client, cast, drafted, django_capture_on_commit_callbacks):
    client.force_login(cast.chronicler)
    side = drafted.sides.first()
    response = client.put(
        f"/api/battles/{drafted.pk}/report",
        {"narrative": "API story", "side_analyses": {str(side.pk): "API view"}},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["narrative"] == "API story"
    assert response.json()["side_analyses"][str(side.pk)] == "API view"
    too_long = client.put(
        f"/api/battles/{drafted.pk}/report",
        {"analysis": "x" * (MAX_MARKDOWN_CHARS + 1)},
        content_type="application/json",
    )
    assert too_long.status_code == 400 and "60000" in too_long.json()["detail"]
    with django_capture_on_commit_callbacks(execute=True):
        published = client.post(f"/api/battles/{drafted.pk}/report/publish")
    assert published.json()["state"] == "published"
    assert Report.objects.get(battle=drafted, format="pdf").version == published.json()["version"]
    assert client.post(f"/api/battles/{drafted.pk}/report/withdraw").json()["state"] == "draft"


def test_api_a_chroniclers_token_edits_the_report_like_their_session(cast, drafted):
    """README: a token acts as its user. The report endpoints took the session only."""
    from django.test import Client

    _row, token = api_token_create(user=cast.chronicler, name="desk script")
    response = Client(enforce_csrf_checks=True).put(
        f"/api/battles/{drafted.pk}/report",
        {"narrative": "Token story"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code == 200, response.content
    assert response.json()["narrative"] == "Token story"


def test_on_a_worker_a_failed_render_is_marked_failed_and_retried(drafted, monkeypatch):
    from celery.exceptions import Retry

    def broken(html):
        raise RuntimeError("pango crashed")

    monkeypatch.setattr("battles.reports.context.pdf_from_html", broken)
    countdowns = []

    def retry(exc=None, countdown=None):  # Celery's Task.retry, without a broker
        countdowns.append(countdown)
        raise Retry("retry", exc)

    monkeypatch.setattr(render_report, "retry", retry)
    render_report.push_request(is_eager=False, retries=0)
    try:
        with pytest.raises(Retry):
            render_report.run(drafted.pk, "pdf")
    finally:
        render_report.pop_request()
    assert countdowns == [2]
    report = Report.objects.get(battle=drafted, format="pdf")
    assert report.status == "failed" and "pango crashed" in report.error
    # Eagerly (no broker) the failure is returned, never raised into the request.
    assert render_report.apply(args=(drafted.pk, "pdf")).get()["status"] == "failed"


def test_the_desk_page_styles_the_ship_diagrams_from_the_static_sheet(client, cast, drafted):
    # The policy has no 'unsafe-inline' for style elements: the desk's preview holds no
    # <style> of its own; the page links css/ssd.css, the SSDs' one source of rules.
    client.force_login(cast.chronicler)
    html = client.get(reverse("report-edit", args=[drafted.pk])).content.decode()
    assert "<svg" in html  # the sides' ship diagrams are in the preview
    assert "<style" not in html
    assert "/static/css/ssd.css" in html


def test_the_htmx_preview_carries_no_style_element(client, cast, drafted):
    # A swapped-in <style> could not carry the page's nonce: the fragment has none.
    client.force_login(cast.chronicler)
    fragment = client.post(
        reverse("report-preview", args=[drafted.pk]), {"narrative": "Hello", "analysis": ""}
    )
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert "Hello" in html and "<svg" in html and "<style" not in html


def test_the_desk_folds_empty_analyses_so_the_preview_is_near_on_a_phone(client, cast, drafted):
    Battle.objects.filter(pk=drafted.pk).update(analysis="")
    drafted.sides.update(analysis="")
    side = drafted.sides.first()
    side.analysis = "Bien."
    side.save()
    client.force_login(cast.chronicler)
    html = client.get(reverse("report-edit", args=[drafted.pk])).content.decode()
    folded = html.count('<details class="field">')
    unfolded = html.count('<details class="field" open>')
    # the general analysis and one side's are empty: folded; the written one is open
    assert (folded, unfolded) == (drafted.sides.count(), 1)
    assert 'href="#h-preview"' in html and 'href="#id_narrative"' in html
    assert f'name="side_{side.pk}"' in html  # a folded field is still in the form


def test_publishing_a_published_report_again_does_nothing(
    client, cast, drafted, django_capture_on_commit_callbacks
):
    """A second publish (API or button) raised the version and
    rendered the PDF and the site again; now it answers that it is already published."""
    client.force_login(cast.chronicler)
    url = f"/api/battles/{drafted.pk}/report/publish"
    with django_capture_on_commit_callbacks(execute=True) as first:
        published = client.post(url)
    assert published.status_code == 200 and published.json()["detail"] == ""
    assert first  # the PDF and the site queued
    version = published.json()["version"]
    renders = list(Report.objects.filter(battle=drafted).values_list("pk", "version", "file"))
    with django_capture_on_commit_callbacks(execute=True) as again:
        repeated = client.post(url)
    assert repeated.status_code == 200
    body = repeated.json()
    assert body["state"] == "published" and body["version"] == version
    assert body["detail"] == "Le rapport est déjà publié\u202f; rien n'a été fait."
    assert again == []  # nothing queued: no PDF, no site refresh
    with django_capture_on_commit_callbacks(execute=True) as button:
        page = client.post(reverse("report-publish", args=[drafted.pk]), follow=True)
    assert button == []
    assert "Le rapport est déjà publié\u202f; rien n&#x27;a été fait." in page.content.decode()
    drafted.refresh_from_db()
    assert drafted.version == version
    assert (
        list(Report.objects.filter(battle=drafted).values_list("pk", "version", "file")) == renders
    )
    # Withdrawing, then publishing, still works as before.
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/api/battles/{drafted.pk}/report/withdraw")
        assert client.post(url).json()["version"] == version + 2


def test_an_unchanged_report_edit_changes_nothing(
    client, cast, drafted, django_capture_on_commit_callbacks
):
    """A PUT of the texts as stored raised the version, wrote a history row and queued the
    PDF and the site again; now it answers 200 with the current version and does nothing."""
    client.force_login(cast.chronicler)
    url = f"/api/battles/{drafted.pk}/report"
    side = drafted.sides.order_by("pk").first()
    client.put(
        url,
        {"analysis": "Close run.", "side_analyses": {str(side.pk): "Held."}},
        content_type="application/json",
    )
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"{url}/publish")
    stored = client.get(url).json()
    history = drafted.history.count()
    renders = list(Report.objects.filter(battle=drafted).values_list("pk", "version", "file"))
    body = {
        "narrative": stored["narrative"],  # the draft, in the reader's language
        "analysis": "Close run.",
        "side_analyses": {str(side.pk): "Held."},
    }
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = client.put(url, body, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["version"] == stored["version"]
    assert response.json()["state"] == "published"
    assert response.json()["detail"] == "Les textes sont inchangés\u202f; rien n'a été enregistré."
    assert queued == []  # no PDF, no site refresh
    assert drafted.history.count() == history
    drafted.refresh_from_db()
    assert drafted.version == stored["version"] and drafted.narrative_language == ""
    assert (
        list(Report.objects.filter(battle=drafted).values_list("pk", "version", "file")) == renders
    )
    # The desk's form saved unchanged says so, and does nothing either.
    with django_capture_on_commit_callbacks(execute=True) as queued:
        page = client.post(
            reverse("report-edit", args=[drafted.pk]),
            {"narrative": stored["narrative"], "analysis": "Close run.", f"side_{side.pk}": "Held."}
            | {f"side_{s.pk}": s.analysis for s in drafted.sides.exclude(pk=side.pk)},
            follow=True,
        )
    assert queued == [] and drafted.history.count() == history
    assert "Les textes sont inchangés\u202f; rien n&#x27;a été enregistré." in page.content.decode()
    # One text changed is a new version again.
    with django_capture_on_commit_callbacks(execute=True) as queued:
        changed = client.put(url, {"analysis": "Closer."}, content_type="application/json")
    assert changed.json()["version"] == stored["version"] + 1
    assert queued and drafted.history.count() == history + 1


def test_the_desk_never_prints_the_published_label_without_a_date(client, cast, drafted):
    """A published report with no publication date (recorded before dates were kept)
    read "Publié le  : tout le monde…"; with one, the date is printed."""
    client.force_login(cast.chronicler)
    Battle.objects.filter(pk=drafted.pk).update(report_state="published", report_published_at=None)
    html = client.get(reverse("report-edit", args=[drafted.pk])).content.decode()
    assert "Publié\u202f: tout le monde le lit, ici, dans le PDF et sur le site public." in html
    assert "Publié le" not in html
    when = timezone.make_aware(datetime(2026, 11, 30, 18, 5))
    Battle.objects.filter(pk=drafted.pk).update(report_published_at=when)
    html = client.get(reverse("report-edit", args=[drafted.pk])).content.decode()
    assert "Publié le 2026-11-30 18:05\u202f: tout le monde le lit" in html
