"""The migration that drafts narratives per language carries existing rows: a concluded
battle whose narrative is still its (older) draft gets its draft in every language; a
person's narrative and the other rows stay as they were."""

from __future__ import annotations

import pytest
from django.utils import translation

from battles.models import Battle
from battles.reports.draft import report_draft_markdown
from tests.battles.reports.report_fixtures import make_battle
from tests.migrations import migrate_latest, migrate_to

BEFORE = ("battles", "0014_turnplay_turn_interval")
AFTER = ("battles", "0015_narrative_per_language")
NNBSP = "\u202f"


@pytest.mark.django_db(transaction=True)
def test_existing_drafts_are_carried_to_every_language():
    drafted = make_battle(narrative="")
    own = make_battle(drafted.campaign, name="Typed", slug="typed", narrative="Typed *here*.")
    # The draft as the older drafter wrote it: "**Objectif principal** : …" (a plain space).
    with translation.override("fr"):
        new = report_draft_markdown(drafted, "fr")
    old = new.replace(f"**{NNBSP}: ", "** : ")
    assert old != new and "** : Destroy the enemy fleet" in old
    try:
        apps = migrate_to(BEFORE)
        Old = apps.get_model("battles", "Battle")
        Old.objects.filter(pk=drafted.pk).update(narrative=old)
        before = list(Old.objects.order_by("pk").values_list("pk", "name", "narrative", "version"))
        migrate_to(AFTER)
    finally:
        migrate_latest()
    after = list(Battle.objects.order_by("pk").values_list("pk", "name", "narrative", "version"))
    assert len(after) == len(before) == 2
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
    assert after[1] == before[1]  # a person's narrative: the row as it was
