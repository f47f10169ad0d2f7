"""``python manage.py forecast BATTLE_ID [--battles N] [--seed N] [--max-turns N] [--json]``:
Monte-Carlo odds of who wins a draft battle (``battles.services.forecast.battle_forecast``).

Prints each side's share of wins with its 95 % interval, the draws, how the battles ended
and the mean length; ``--json`` prints ``Forecast.as_dict()``. Changes nothing. A battle
that reaches ``--max-turns`` is won by the side with more strength left (mass × hull
fraction; ``battles/rules/ai/``), so a short limit measures who is ahead, not who wins.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from battles.models import Battle
from battles.rules.forecast import usable_cores
from battles.services import BattleActionError
from battles.services.forecast import battle_forecast


class Command(BaseCommand):
    help = "Monte-Carlo odds of who wins a draft battle (auto-resolved many times)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("battle_id", type=int, help="id of a draft battle")
        parser.add_argument("--battles", type=int, default=1000, help="battles to fight")
        parser.add_argument("--seed", type=int, default=0, help="battle i uses seed + i")
        parser.add_argument("--max-turns", type=int, default=20, help="turn cap (1-50)")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, battle_id: int, **opts: Any) -> None:
        battle = Battle.objects.filter(pk=battle_id).select_related("campaign").first()
        if battle is None:
            raise CommandError(f"no battle {battle_id}")
        quiet = opts["json"] or opts["verbosity"] < 1
        bars: list[tqdm] = []  # made at the first battle, so a refusal prints no bar

        def progress(_i: int) -> None:
            if not bars:
                # The real stderr: Django's wrapper styles each write as an error line.
                bars.append(
                    tqdm(total=opts["battles"], unit="battle", disable=quiet, file=sys.stderr)
                )
            bars[0].update()

        start = time.perf_counter()
        try:
            forecast = battle_forecast(
                battle=battle,
                battles=opts["battles"],
                seed=opts["seed"],
                max_turns=opts["max_turns"],
                progress=progress,
            )
        except BattleActionError as exc:
            raise CommandError(str(exc)) from exc
        finally:
            for bar in bars:
                bar.close()
        wall = time.perf_counter() - start
        if opts["json"]:
            self.stdout.write(json.dumps(forecast.as_dict(), indent=2))
            return
        self.stdout.write(f"{battle.name}: {forecast.battles} battles (seeds {forecast.seed}…)")
        for side in (*forecast.sides, None):
            low, high = forecast.interval(side)
            label = side or "draw"
            won = forecast.draws if side is None else forecast.wins[side]
            self.stdout.write(
                f"  {label:24} {won:6} {forecast.share(side):7.1%}  (95 %: {low:.1%} – {high:.1%})"
            )
        endings = ", ".join(f"{k} {v}" for k, v in sorted(forecast.endings.items()))
        self.stdout.write(f"  endings: {endings}; {forecast.mean_turns:.1f} turns on average")
        self.stdout.write(
            f"  {wall:.2f} s on {usable_cores()} core(s) "
            f"({wall / forecast.battles * 1000:.1f} ms a battle)"
        )
