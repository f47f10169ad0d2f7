"""The battles' admin: what the services guard is read-only there (a battle's status,
mode, winner, report state and conclusion time; a record entry's status; the dice log),
and its actions go through the services."""

from __future__ import annotations

import pytest
from django.urls import reverse

from battles.models import Battle, Event, RecordEntry
from battles.services import battle_resolve, record_submit
from campaign.core.actors import SYSTEM
from campaign.league.models import Membership
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.com", "pw"))
    return client


def _form_data(response) -> dict:
    """The change form's editable fields with their current values, inlines included."""
    data: dict = {}
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms.append(inline.formset.management_form)
        for form in inline.formset.forms:
            forms.append(form)
            data[form.add_prefix("id")] = form.instance.pk
            data[form.add_prefix("battle")] = form.instance.battle_id
    for form in forms:
        for name, field in form.fields.items():
            value = form.initial.get(name, field.initial)
            if name in ("id", "battle") and form is not forms[0]:
                continue
            if value is None:
                value = (
                    getattr(form.instance, name + "_id", None)
                    if hasattr(form, "instance")
                    else None
                )
            if value is False or value is None:
                continue
            data[form.add_prefix(name)] = getattr(value, "pk", value)
    return data


def test_a_status_posted_through_the_battle_change_form_is_not_written(admin_client):
    battle = draft_skirmish()
    url = reverse("admin:battles_battle_change", args=[battle.pk])
    data = _form_data(admin_client.get(url))
    data.update(
        status="concluded",
        mode="auto",
        report_state="draft",
        concluded_at_0="2026-01-01",
        concluded_at_1="10:00",
        winner=battle.sides.first().faction_id,
        outcome="Edited in the admin",
    )
    response = admin_client.post(url, data)
    assert response.status_code == 302
    battle.refresh_from_db()
    assert battle.outcome == "Edited in the admin"  # the form saved …
    assert (battle.status, battle.mode, battle.report_state) == ("draft", "recorded", "published")
    assert (battle.concluded_at, battle.winner_id) == (None, None)  # … but none of these


def test_the_dice_log_is_read_only_in_the_admin(admin_client):
    battle = battle_resolve(battle=draft_skirmish(), seed=7, user=SYSTEM)
    event = Event.objects.filter(battle=battle).order_by("sequence").first()
    before = (event.kind, event.summary)
    url = reverse("admin:battles_event_change", args=[event.pk])
    assert admin_client.get(url).status_code == 200  # view only
    assert admin_client.post(url, {"kind": "x", "summary": "forged"}).status_code == 403
    assert admin_client.get(reverse("admin:battles_event_add")).status_code == 403
    assert (
        admin_client.post(reverse("admin:battles_event_delete", args=[event.pk])).status_code == 403
    )
    event.refresh_from_db()
    assert (event.kind, event.summary) == before


def test_the_resolve_and_reopen_actions_call_the_services(admin_client):
    battle = draft_skirmish()
    url = reverse("admin:battles_battle_changelist")
    admin_client.post(url, {"action": "resolve", "_selected_action": [battle.pk]})
    battle.refresh_from_db()
    assert (battle.status, battle.mode) == ("concluded", "resolved")
    assert Event.objects.filter(battle=battle).exists()
    admin_client.post(url, {"action": "reopen", "_selected_action": [battle.pk]})
    battle.refresh_from_db()
    assert battle.status == "draft"
    assert not Event.objects.filter(battle=battle).exists()  # the reopen service's work


def test_confirming_entries_by_the_action_concludes_once_both_sides_are_confirmed(
    admin_client, django_user_model
):
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    entries = []
    for slug in ("qatzrin", "phalon"):
        side = battle.sides.get(faction__slug=slug)
        player = django_user_model.objects.create(username=slug)
        Membership.objects.create(
            user=player, campaign=battle.campaign, role="player", faction=side.faction
        )
        entries.append(
            record_submit(battle=battle, side=side, results=[], user=player, outcome="Draw")
        )
    url = reverse("admin:battles_recordentry_changelist")
    admin_client.post(url, {"action": "confirm", "_selected_action": [entries[0].pk]})
    battle.refresh_from_db()
    assert battle.status == "draft"  # one side confirmed: nothing concludes yet
    admin_client.post(url, {"action": "confirm", "_selected_action": [entries[1].pk]})
    battle.refresh_from_db()
    assert (battle.status, battle.mode, battle.outcome) == ("concluded", "recorded", "Draw")
    assert set(RecordEntry.objects.values_list("status", flat=True)) == {"confirmed"}


def test_a_record_entry_status_posted_through_the_change_form_is_not_written(
    admin_client, django_user_model
):
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    entry = record_submit(battle=battle, side=None, results=[], user=SYSTEM, outcome="Draw")
    url = reverse("admin:battles_recordentry_change", args=[entry.pk])
    data = _form_data(admin_client.get(url))
    data["status"] = "confirmed"
    assert admin_client.post(url, data).status_code == 302
    entry.refresh_from_db()
    battle.refresh_from_db()
    assert (entry.status, battle.status) == ("submitted", "draft")


def test_a_concluded_battle_cannot_be_deleted_in_the_admin(admin_client):
    battle = draft_skirmish()
    battle_resolve(battle=battle, seed=battle.seed, user=SYSTEM)
    url = reverse("admin:battles_battle_delete", args=[battle.pk])
    assert admin_client.get(url).status_code == 403
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    change = admin_client.get(reverse("admin:battles_battle_change", args=[battle.pk]))
    assert url not in change.content.decode()  # no "Delete" link on its change form
    battle.refresh_from_db()
    assert battle.status == "concluded"


def test_the_bulk_delete_skips_concluded_battles_and_names_them(admin_client):
    concluded = draft_skirmish()
    battle_resolve(battle=concluded, seed=concluded.seed, user=SYSTEM)
    draft = draft_skirmish(concluded.campaign, slug="second")
    url = reverse("admin:battles_battle_changelist")
    selection = {"action": "delete_selected", "_selected_action": [concluded.pk, draft.pk]}
    confirm = admin_client.post(url, selection)
    assert confirm.status_code == 200
    assert [b.pk for b in confirm.context["queryset"]] == [draft.pk]  # asked about the draft only
    # The admin speaks the site's default language, French.
    refusal = f"Non supprimées, car conclues (rouvrez-les d’abord)\u202f: {concluded}"
    assert refusal in confirm.content.decode()
    response = admin_client.post(url, {**selection, "post": "yes"}, follow=True)
    assert response.status_code == 200
    assert list(
        Battle.objects.filter(pk__in=[concluded.pk, draft.pk]).values_list("pk", flat=True)
    ) == [concluded.pk]
    only_concluded = admin_client.post(
        url, {"action": "delete_selected", "_selected_action": [concluded.pk], "post": "yes"}
    )
    assert only_concluded.status_code == 302
    assert Battle.objects.filter(pk=concluded.pk).exists()


def test_a_concluded_battle_is_not_set_back_to_draft_through_its_change_form(admin_client):
    battle = draft_skirmish()
    battle_resolve(battle=battle, seed=battle.seed, user=SYSTEM)
    url = reverse("admin:battles_battle_change", args=[battle.pk])
    data = _form_data(admin_client.get(url))
    data.update(status="draft", concluded_at_0="", concluded_at_1="", winner="")
    assert admin_client.post(url, data).status_code == 302
    battle.refresh_from_db()
    assert battle.status == "concluded" and battle.concluded_at is not None
