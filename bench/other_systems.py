"""``python -m bench.other_systems``: the worst request each other-system endpoint accepts
(the bounds of ``battles/api/systems.py``), timed in CPU seconds (printed, not asserted)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from battles.rules.dice import Dice
from battles.systems import epic, sf_boarding, sf_tokens, swsb


def timed(label: str, fn: Callable[[], object], repeat: int = 3) -> None:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    print(f"{label:<58} {best * 1000:9.1f} ms")


def fleet_turn_max() -> None:
    ships = [
        {"id": f"s{i}", "side": "ab"[i % 2], "rank": "class-1", "hull": 500, "defence": 10,
         "damaged_at": 100, "screen_value": 4, "split": {"front": 4}}
        for i in range(swsb.fleet.MAX_SHIPS)
    ]  # fmt: skip
    attacks = [
        {"attacker": f"s{i % 60}", "target": f"s{(i + 1) % 60}", "attack": 8, "damage": 10}
        for i in range(swsb.fleet.MAX_ATTACKS)
    ]
    swsb.fleet_turn(Dice(1), ships, attacks, initiative="a")


def tracker_max() -> None:
    ship = sf_tokens.new_ship(name="X", tier=12, pc_tier=12, crew=10)
    for i in range(100):
        if i % 5 == 4:
            sf_tokens.next_round(ship)
        else:
            with contextlib.suppress(sf_tokens.IllegalAction):
                sf_tokens.spend(ship, "stunt")
        sf_tokens.check_table(ship, 15)
        sf_tokens.available_actions(ship)


def main() -> None:
    print("Other game systems: the largest accepted request, best of 3 (CPU)")
    timed("epic energy shields, 300 shots (exact distribution)",
          lambda: epic.energy_shields_odds(shields=20, shots=300, to_hit=4, ap=1))  # fmt: skip
    timed("epic elite re-roll, 300 dice", lambda: epic.elite_reroll(dice=300, target=4))
    timed("epic close defence, DR 50", lambda: epic.close_defence(dr=50))
    timed("boarding band odds", lambda: sf_boarding.band_odds(10, 12))
    timed("swsb fleet turn, 60 ships, 200 attacks", fleet_turn_max)
    timed("token tracker, 100 steps with odds and actions each", tracker_max)


if __name__ == "__main__":
    main()
