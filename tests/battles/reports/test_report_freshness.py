"""Report files are never stale: whatever changed what a report shows (an admin edit, a
participant's damage, a fleet hidden) renders it again; nothing changed, nothing rendered."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from pypdf import PdfReader

from battles.models import Battle, Participant, Report
from battles.reports.files import report_render
from factions.models import Fleet
from tests.battles.reports.report_fixtures import make_battle


def pdf_text(media, report: Report) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(str(media / report.file.name)).pages)


def html_of(media, report: Report) -> str:
    return (media / report.file.name).read_text(encoding="utf-8")


def _value(value):
    if isinstance(value, datetime.date):
        return value.isoformat()
    if hasattr(value, "pk"):
        return value.pk
    return "" if value is None else value


def change_form_data(response) -> dict:
    """The admin change form's current values as POST data, inlines included."""
    data: dict = {}

    def add(form, initial_of):
        for name, field in form.fields.items():
            value = _value(initial_of(form, name, field))
            if value is False:
                continue  # an unticked checkbox is not posted
            data[form.add_prefix(name)] = "on" if value is True else value

    def initial(form, name, field):
        return form.initial.get(name, field.initial)

    add(response.context["adminform"].form, initial)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        add(formset.management_form, initial)
        for form in formset.forms:
            add(form, lambda f, n, fld: f.initial.get(n, getattr(f.instance, n + "_id", None)))
            data[form.add_prefix("id")] = form.instance.pk
            data[form.add_prefix("battle")] = form.instance.battle_id
    return data


@pytest.mark.django_db
def test_a_narrative_edited_in_the_admin_is_in_the_next_pdf(media, client, django_user_model):
    battle = make_battle()
    first = report_render(battle_id=battle.pk, fmt="pdf")
    assert "Escort of the wounded" not in pdf_text(media, first)

    admin = django_user_model.objects.create_superuser("admin", "a@example.com", "pw")
    client.force_login(admin)
    url = reverse("admin:battles_battle_change", args=[battle.pk])
    data = change_form_data(client.get(url))
    data["narrative"] = "Escort of the wounded: the fleet turned back."
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    battle.refresh_from_db()
    assert battle.narrative.startswith("Escort of the wounded")
    assert battle.version == 2  # the revision number people see

    second = report_render(battle_id=battle.pk, fmt="pdf")
    assert "Escort of the wounded" in pdf_text(media, second)
    assert second.version == 2


def test_version_is_read_only_in_the_admin():
    from django.contrib import admin

    assert "version" in admin.site._registry[Battle].get_readonly_fields(None)


@pytest.mark.django_db
def test_a_fleet_hidden_after_rendering_is_gone_from_the_next_report(media):
    battle = make_battle()
    first = report_render(battle_id=battle.pk, fmt="html")
    assert "Vishnu Prime" in html_of(media, first)
    Fleet.objects.filter(slug="test-ganesha").update(hidden=True)  # Battle.version unchanged
    second = report_render(battle_id=battle.pk, fmt="html")
    assert "Vishnu Prime" not in html_of(media, second)
    assert second.digest != first.digest


@pytest.mark.django_db
def test_damage_changed_outside_the_battle_row_renders_again(media, pdf_renders):
    battle = make_battle()
    assert "17" not in pdf_text(media, report_render(battle_id=battle.pk, fmt="pdf"))
    Participant.objects.filter(ship__name="Vishnu Second").update(hull_lost=17)
    report = report_render(battle_id=battle.pk, fmt="pdf")
    assert len(pdf_renders) == 2
    assert "17" in pdf_text(media, report)


@pytest.mark.django_db
def test_an_unchanged_battle_is_not_rendered_again(media, pdf_renders):
    battle = make_battle()
    first = report_render(battle_id=battle.pk, fmt="pdf")
    path = media / first.file.name
    stamp = path.stat().st_mtime_ns
    second = report_render(battle_id=battle.pk, fmt="pdf")
    assert len(pdf_renders) == 1
    assert path.stat().st_mtime_ns == stamp
    assert second.digest == first.digest and len(first.digest) == 64
