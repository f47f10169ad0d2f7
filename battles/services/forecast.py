"""Monte-Carlo odds of who wins a draft battle: the engine's ``win_odds`` on the battle's
fleets as they stand (``battles.rules.forecast``).

Read-only: the battle, its ships and its log are not touched. The fleets are fielded
exactly as ``battle_resolve`` fields them (current damage, squadrons in their bays, the
campaign's rule options, the classes each side has met), so the odds are those of
resolving it now. Callers check permissions: a forecast is computed from every fleet of the
battle, hidden ones included, so it is for organisers only.

A forecast is kept in Django's cache under a digest of everything the engine is handed
(the fielded ships' states, rule options, known classes, battles, seed, turn cap): a
reload of the preview page costs one fielding (a few queries) instead of 100 battles
(3–5 s), and any change to the set-up — a ship added, damage carried, an option — makes
a new key, so a stale forecast is never shown.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.utils.translation import gettext as _

from battles.models import Battle
from battles.rules.forecast import Forecast, win_odds
from battles.services.common import MAX_TURNS_LIMIT, BattleActionError, battle_label, battle_sides
from battles.services.fielding import field_battle, rule_options
from battles.services.intel import intel_known_classes

__all__ = ["MAX_FORECAST_BATTLES", "battle_forecast"]

#: Most battles one forecast may fight (about 10 ms each on one core).
MAX_FORECAST_BATTLES = 10_000

#: How long a forecast stays cached (seconds); its key already changes with the set-up.
FORECAST_CACHE_SECONDS = 24 * 3600


def battle_forecast(
    *,
    battle: Battle,
    battles: int = 1000,
    seed: int = 0,
    max_turns: int = 20,
    progress: Callable[[int], None] | None = None,
) -> Forecast:
    """Fight ``battles`` unrecorded battles of a draft ``battle`` (battle ``i`` with seed
    ``seed + i``; any of them can be watched in full with ``resolve_battle --seed``) and
    count who wins. Sides are the factions' slugs, in the battle's side order. A forecast
    of the same set-up and arguments comes from the cache (``progress`` is then not called).

    Raises :class:`BattleActionError` when the battle is concluded, cannot be fielded (as
    ``battle_resolve``), or ``battles`` (1–``MAX_FORECAST_BATTLES``), ``seed`` (≥ 0) or
    ``max_turns`` (1–50) is out of range.
    """
    if not isinstance(battles, int) or not 1 <= battles <= MAX_FORECAST_BATTLES:
        raise BattleActionError(
            _("battles: %(value)r, expected 1–%(max)s")
            % {"value": battles, "max": MAX_FORECAST_BATTLES}
        )
    if not isinstance(seed, int) or not 0 <= seed < 2**62:
        raise BattleActionError(
            _("seed: %(value)r, expected a whole number 0 – 2^62-1") % {"value": seed}
        )
    if not isinstance(max_turns, int) or not 1 <= max_turns <= MAX_TURNS_LIMIT:
        raise BattleActionError(
            _("max_turns: %(value)r, expected 1–%(max)s")
            % {"value": max_turns, "max": MAX_TURNS_LIMIT}
        )
    if battle.status == Battle.Status.CONCLUDED:
        raise BattleActionError(
            _(
                "%(battle)s is already concluded: its fleets now carry its damage, so there "
                "is nothing to forecast"
            )
            % {"battle": battle_label(battle)}
        )
    fleets = field_battle(battle, battle_sides(battle))
    a, b = [f.start for f in fleets[0]], [f.start for f in fleets[1]]
    options, known = rule_options(battle), intel_known_classes(battle=battle)
    # ShipState's repr rebuilds the state, so equal reprs mean equal inputs.
    inputs = repr((a, b, options.to_dict(), known, battles, seed, max_turns))
    # The "1": raise it when the engine's tactics change, so no forecast of older code stays.
    key = "forecast:1:" + hashlib.sha256(inputs.encode()).hexdigest()
    forecast = cache.get(key)
    if forecast is None:
        forecast = win_odds(
            a,
            b,
            battles=battles,
            seed=seed,
            max_turns=max_turns,
            options=options,
            known_classes=known,
            progress=progress,
        )
        cache.set(key, forecast, FORECAST_CACHE_SECONDS)
    return forecast
