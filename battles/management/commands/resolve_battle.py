"""``python manage.py resolve_battle BATTLE_ID [--seed N] [--max-turns N]``: fight a draft
battle with the rules engine (``battles.resolution.battle_resolve``) and print the result.

``--check`` instead fights an already resolved battle again from its log's setup row
(``battle_replay``) and compares every entry with the stored log (exit status 1 on the
first difference).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.models import Battle
from battles.resolution import BattleActionError, battle_replay, battle_resolve, event_rows


class Command(BaseCommand):
    help = "Resolve a draft battle with the rules engine; every die roll goes to its log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("battle_id", type=int, help="id of a draft battle")
        parser.add_argument(
            "--seed", type=int, default=None, help="dice seed (default: the battle's, or random)"
        )
        parser.add_argument("--max-turns", type=int, default=20, help="turn cap (1-50)")
        parser.add_argument(
            "--check",
            action="store_true",
            help="replay a resolved battle from its log and compare, changing nothing",
        )

    def handle(
        self, *args: Any, battle_id: int, seed: int | None, max_turns: int, check: bool, **_: Any
    ) -> None:
        battle = Battle.objects.filter(pk=battle_id).first()
        if battle is None:
            raise CommandError(f"no battle {battle_id}")
        if check:
            self._check(battle)
            return
        try:
            battle = battle_resolve(battle=battle, seed=seed, max_turns=max_turns)
        except BattleActionError as exc:
            raise CommandError(str(exc)) from exc
        rolls = battle.events.filter(kind="roll").count()
        self.stdout.write(
            self.style.SUCCESS(
                f"{battle.name}: {battle.outcome} {battle.events.count()} log entries, "
                f"{rolls} dice (version {battle.version})."
            )
        )

    def _check(self, battle: Battle) -> None:
        try:
            replayed = battle_replay(battle=battle)
        except BattleActionError as exc:
            raise CommandError(str(exc)) from exc
        stored = event_rows(battle=battle)
        for mine, theirs in zip(stored, replayed, strict=False):
            if mine != theirs:
                raise CommandError(
                    f"entry {mine['sequence']} differs: stored {mine['summary']!r}, "
                    f"replayed {theirs['summary']!r}"
                )
        if len(stored) != len(replayed):
            raise CommandError(f"stored {len(stored)} entries, replay gives {len(replayed)}")
        self.stdout.write(
            self.style.SUCCESS(f"{battle.name}: the replay matches all {len(stored)} entries.")
        )
