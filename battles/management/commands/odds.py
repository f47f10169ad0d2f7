"""``python manage.py odds --weapon ID --range MU --screen N [--json]``: exact odds of one volley.

Prints a one-line summary (weapon, range, screen, exact mean as a fraction and a decimal,
P(0)); ``--json`` prints instead the same JSON as ``GET /api/rules/odds``
(battles/rules/odds.py). A range that is not a finite number (``nan``, ``inf``) is refused,
and so are the requests the API refuses: ``--count`` outside 1–100, a volley of more than
``MAX_REQUEST_DICE`` dice (battles/rules/odds.py).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from battles.rules.errors import RulesError
from battles.rules.odds import MAX_REQUEST_COUNT, MAX_REQUEST_DICE, Odds, odds


def range_mu(text: str) -> float:
    """``--range`` as a float in mu; argparse refuses text, ``nan`` and ``inf`` with a message
    saying it is not a number (rather than the engine's "beyond its last band")."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f'"{text}" is not a number (a range in mu, e.g. 12)')
    return value


def odds_summary(result: Odds) -> str:
    """One line for people: ``beam-2 at 12 mu, screen 1: mean 6/5 = 1.200 damage;
    P(0) = 4/9 = 0.444 (2 dice)``, with the mode or target when they matter."""
    weapon = result.weapon
    if result.resolved_as != result.weapon:
        weapon += f" (as {result.resolved_as})"
    target = "" if result.target == "ship" else f" vs {result.target}"
    screen = f", screen {result.screen}" if result.screens_apply else ", screens do not apply"
    p0 = result.distribution.get(0, 0)
    dice = f" ({result.dice} {'die' if result.dice == 1 else 'dice'})" if result.dice else ""
    return (
        f"{weapon} at {result.range_mu:g} mu{target}{screen}: mean {result.mean} = "
        f"{float(result.mean):.3f} {result.value_kind}; P(0) = {p0} = {float(p0):.3f}{dice}"
    )


class Command(BaseCommand):
    help = "Exact odds (fractions) of one weapon volley at a range against a screen level."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--weapon", required=True, help="weapon id, e.g. beam-2, kgun-3")
        parser.add_argument("--range", required=True, type=range_mu, help="range in mu")
        parser.add_argument("--screen", type=int, default=0, help="screen level 0-3")
        parser.add_argument("--target", default=None, help="ship, fighter, gunboat, ...")
        parser.add_argument("--power-points", type=int, default=None, help="needle nodule PP")
        parser.add_argument("--count", type=int, default=1, help="identical weapons firing")
        parser.add_argument("--as-pd", action="store_true", help="class-1 weapon firing as PD")
        parser.add_argument(
            "--json", action="store_true", help="print the full distribution as JSON instead"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if not 1 <= opts["count"] <= MAX_REQUEST_COUNT:
            raise CommandError(
                f"{opts['weapon']}: --count must be 1–{MAX_REQUEST_COUNT}, got {opts['count']}"
            )
        try:
            result = odds(
                opts["weapon"],
                range_mu=opts["range"],
                screen=opts["screen"],
                target=opts["target"],
                power_points=opts["power_points"],
                count=opts["count"],
                as_pd=opts["as_pd"],
                max_dice=MAX_REQUEST_DICE,
            )
        except RulesError as exc:
            raise CommandError(str(exc)) from exc
        if opts["json"]:
            self.stdout.write(json.dumps(result.as_dict(), indent=2, ensure_ascii=False))
        else:
            self.stdout.write(odds_summary(result))
