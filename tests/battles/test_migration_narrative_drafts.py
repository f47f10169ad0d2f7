"""The migration that drafts narratives per language carries existing rows: a concluded
battle whose narrative is still its (older) draft gets its draft in every language; a
person's narrative and the other rows stay as they were.

The migration calls the application's drafter, which reads today's models: run at its own
place in the chain, once later migrations add columns the drafter reads (the star map's
``Battle.system``, the sides' ``objectives_met``), it cannot read the battles and leaves
every row as it was, as its docstring says. Its conversion is tested at today's schema."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps as django_apps
from django.utils import translation

from battles.models import Battle
from battles.reports.draft import report_draft_markdown
from tests.battles.reports.report_fixtures import make_battle
from tests.migrations import migrate_latest, migrate_to

carry_drafts = import_module("battles.migrations.0015_narrative_per_language").carry_drafts

BEFORE = ("battles", "0014_turnplay_turn_interval")
AFTER = ("battles", "0015_narrative_per_language")
NNBSP = "\u202f"


def _old_draft(battle) -> tuple[str, str]:
    """The draft as the older drafter wrote it ("**Objectif principal** : …", a plain
    space) and as the drafter writes it now."""
    with translation.override("fr"):
        new = report_draft_markdown(battle, "fr")
    old = new.replace(f"**{NNBSP}: ", "** : ")
    assert old != new and "** : Destroy the enemy fleet" in old
    return old, new


@pytest.mark.django_db
def test_existing_drafts_are_carried_to_every_language():
    drafted = make_battle(narrative="")
    own = make_battle(drafted.campaign, name="Typed", slug="typed", narrative="Typed *here*.")
    old, new = _old_draft(drafted)
    Battle.objects.filter(pk=drafted.pk).update(narrative=old, narrative_drafts={})
    before_own = list(Battle.objects.filter(pk=own.pk).values_list("narrative", "version"))
    carry_drafts(django_apps, None)
    carried = Battle.objects.get(pk=drafted.pk)
    assert set(carried.narrative_drafts) == {"fr", "en"}
    assert carried.narrative == new == carried.narrative_drafts["fr"]
    assert "## Turn by turn" in carried.narrative_drafts["en"]
    kept = Battle.objects.get(pk=own.pk)
    assert (kept.narrative, kept.narrative_drafts, kept.narrative_language) == (
        "Typed *here*.",
        {},
        "",
    )
    assert list(Battle.objects.filter(pk=own.pk).values_list("narrative", "version")) == (
        before_own
    )


@pytest.mark.django_db(transaction=True)
def test_in_the_chain_a_battle_it_cannot_draft_is_left_as_it_was():
    drafted = make_battle(narrative="")
    make_battle(drafted.campaign, name="Typed", slug="typed", narrative="Typed *here*.")
    old, _ = _old_draft(drafted)
    try:
        apps = migrate_to(BEFORE)
        Old = apps.get_model("battles", "Battle")
        Old.objects.filter(pk=drafted.pk).update(narrative=old)
        before = list(Old.objects.order_by("pk").values_list("pk", "name", "narrative", "version"))
        migrate_to(AFTER)
    finally:
        migrate_latest()
    after = list(Battle.objects.order_by("pk").values_list("pk", "name", "narrative", "version"))
    assert after == before and len(after) == 2
    assert Battle.objects.get(pk=drafted.pk).narrative_drafts == {}
