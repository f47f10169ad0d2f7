"""``python -m bench.turns``: what rebuilding a turn-by-turn battle costs (printed, not
asserted). Every page view, order and movement preview of a battle fought turn by turn
rebuilds its state from the seed and the stored orders (``battles.play.replay.rebuild``),
so this is the price of one request as the battle grows: Qatzrin 5th fleet vs Phalon 68th
fleet (the figures of ``python -m bench``), after 1, 5, 10 and 20 turns, every side on the
auto-resolve tactics. CPU time of this process (``time.process_time``).
"""

from __future__ import annotations

import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "campaign.settings")
django.setup()

from battles.play.replay import rebuild  # noqa: E402
from bench.fleets import PHALON_68TH, QATZRIN_5TH, designs  # noqa: E402


def setup_data() -> dict:
    """A set-up row's data for the two benchmark fleets (as ``turn_play_start`` stores)."""
    ships, fleets = {}, []
    n = 0
    for slug, roster in (("qatzrin", QATZRIN_5TH), ("phalon", PHALON_68TH)):
        catalogue, fleet = designs(slug), []
        for name, count in roster:
            for i in range(count):
                if name not in catalogue:
                    continue
                n += 1
                sid = f"ship-{n}"
                ships[sid] = {
                    "name": f"{name} {i + 1}",
                    "side": slug,
                    "class": name,
                    "design": catalogue[name],
                    "hull_lost": 0,
                    "armour_lost": 0,
                    "crew_lost": 0,
                    "systems_lost": [],
                    "squadrons": {},
                }
                fleet.append(sid)
        fleets.append(fleet)
    return {
        "seed": 1,
        "max_turns": 20,
        "options": {},
        "known_classes": {},
        "sides": ["qatzrin", "phalon"],
        "fleets": fleets,
        "ships": ships,
    }


def main() -> None:
    data = setup_data()
    print(f"turn-by-turn rebuild: {len(data['fleets'][0])} vs {len(data['fleets'][1])} ships")
    for turns in (1, 5, 10, 20):
        runs = 5
        start = time.process_time()
        for _ in range(runs):
            state = rebuild(data, [{}] * turns)
        took = (time.process_time() - start) / runs
        print(f"  after {turns:2d} turns (played {state.turn}): {took * 1000:7.1f} ms a rebuild")


if __name__ == "__main__":
    main()
