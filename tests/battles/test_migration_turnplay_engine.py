"""battles 0012: turn-by-turn plays get the engine hash and a stored state; a play still
being fought when it runs records the engine running now, an ended one is left as it
was, and no other field of any play changes."""

from __future__ import annotations

import pytest

from battles.play.engine_state import engine_hash
from tests.migrations import migrate_latest, migrate_to

BEFORE = ("battles", "0011_one_winner_protected_history")
AFTER = ("battles", "0012_turnplay_engine_state")


def _migrate(battles_at):
    """Every app at its last migration but battles, at ``battles_at``; the models then."""
    return migrate_to(battles_at)


@pytest.mark.django_db(transaction=True)
def test_plays_being_fought_record_the_engine_running_now():
    old = _migrate(BEFORE)
    campaign = old.get_model("campaign", "Campaign").objects.create(name="League", slug="league")
    Battle = old.get_model("battles", "Battle")
    TurnPlay = old.get_model("battles", "TurnPlay")
    plays = []
    for n, ended in enumerate((False, True, False)):
        battle = Battle.objects.create(campaign=campaign, name=f"Battle {n}", slug=f"b{n}")
        plays.append(
            TurnPlay.objects.create(
                battle=battle, setup={"data": {"seed": n}}, turns_played=n, ended=ended
            )
        )
    rows = list(TurnPlay.objects.order_by("pk").values("pk", "setup", "turns_played", "ended"))
    try:
        new = _migrate(AFTER)
        NewPlay = new.get_model("battles", "TurnPlay")
        assert NewPlay.objects.count() == len(rows) == 3
        after = list(
            NewPlay.objects.order_by("pk").values(
                "pk", "setup", "turns_played", "ended", "engine_hash", "state"
            )
        )
        assert [{k: r[k] for k in rows[0]} for r in after] == rows
        assert [(r["engine_hash"], r["state"]) for r in after] == [
            (engine_hash(), None),
            ("", None),
            (engine_hash(), None),
        ]
        # And back: the fields go, the rows stay.
        _migrate(BEFORE)
        assert old.get_model("battles", "TurnPlay").objects.count() == 3
    finally:
        migrate_latest()
        for model in (TurnPlay, Battle):
            model.objects.all().delete()
