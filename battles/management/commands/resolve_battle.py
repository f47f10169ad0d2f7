"""``python manage.py resolve_battle BATTLE_ID [--seed N] [--max-turns N]``: fight a draft
battle with the rules engine (``battles.services.battle_resolve``) and print the result.

``--check`` instead fights an already resolved battle again from its log's setup row
(``battle_replay``) and compares every entry with the stored log (exit status 1 on the
first difference, naming the field that differs — ``summary``, ``game_turn``,
``data['damage']`` — and both values, shortened). A setup row that cannot be read is a
``CommandError`` ("battle N: stored setup is unreadable (...)"), not a traceback.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.models import Battle
from battles.services import BattleActionError, battle_replay, battle_resolve, event_rows
from campaign.core.actors import SYSTEM

#: Longest value a --check message quotes.
SHORT = 80


def shorten(value: Any) -> str:
    """``repr(value)`` cut to :data:`SHORT` characters (``…`` marks a cut)."""
    text = repr(value)
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


def first_difference(stored: Any, replayed: Any, where: str = "") -> tuple[str, Any, Any]:
    """The first place two log rows differ: its path (``summary``, ``data['damage']``,
    ``data['rolls'][2]``) and the stored and replayed values there."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*stored, *(k for k in replayed if k not in stored)]:
            a, b = stored.get(key, _MISSING), replayed.get(key, _MISSING)
            if a != b:
                path = key if not where else f"{where}[{key!r}]"
                return first_difference(a, b, path)
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        for i, (a, b) in enumerate(zip(stored, replayed, strict=True)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
    return where or "the entry", stored, replayed


class _Missing:
    def __repr__(self) -> str:
        return "(missing)"


_MISSING = _Missing()


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
            battle = battle_resolve(battle=battle, seed=seed, max_turns=max_turns, user=SYSTEM)
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
                where, ours, replay = first_difference(mine, theirs)
                raise CommandError(
                    f"entry {mine['sequence']} differs in {where}: stored {shorten(ours)}, "
                    f"replayed {shorten(replay)} ({mine['kind']} {shorten(mine['summary'])})"
                )
        if len(stored) != len(replayed):
            raise CommandError(f"stored {len(stored)} entries, replay gives {len(replayed)}")
        self.stdout.write(
            self.style.SUCCESS(f"{battle.name}: the replay matches all {len(stored)} entries.")
        )
