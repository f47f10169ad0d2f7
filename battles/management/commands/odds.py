"""``python manage.py odds --weapon ID --range MU --screen N``: exact odds of one volley.

Prints the same JSON as ``GET /api/rules/odds`` (battles/rules/odds.py).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.rules.errors import RulesError
from battles.rules.odds import odds


class Command(BaseCommand):
    help = "Exact odds (fractions) of one weapon volley at a range against a screen level."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--weapon", required=True, help="weapon id, e.g. beam-2, kgun-3")
        parser.add_argument("--range", required=True, type=float, help="range in mu")
        parser.add_argument("--screen", type=int, default=0, help="screen level 0-3")
        parser.add_argument("--target", default=None, help="ship, fighter, gunboat, ...")
        parser.add_argument("--power-points", type=int, default=None, help="needle nodule PP")
        parser.add_argument("--count", type=int, default=1, help="identical weapons firing")
        parser.add_argument("--as-pd", action="store_true", help="class-1 weapon firing as PD")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            result = odds(
                opts["weapon"],
                range_mu=opts["range"],
                screen=opts["screen"],
                target=opts["target"],
                power_points=opts["power_points"],
                count=opts["count"],
                as_pd=opts["as_pd"],
            )
        except RulesError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
