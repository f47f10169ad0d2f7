"""The sample campaign's Skirmish at Mieska as engine fleets, without the database.

``mieska_setup.json`` is the ``setup`` row ``battles.services.battle_resolve`` stored for
that battle (``manage.py load_sample`` then ``manage.py demo``): each ship's design, carried
damage and squadrons aboard, the seed, the rule options and the classes each side knew.
``mieska_battle(record=...)`` fights it exactly as ``battles.services.battle_replay``
does (same ``ai.resolve_battle`` call, same seed), so its instruction count is the cost of
fighting the stored resolved battle; storing it also writes its rows
(``bench.instructions``' ``mieska-stored`` adds ``engine_rows``). Regenerate the file
when the sample's fleets change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from battles.rules.ai import BattleResult, resolve_battle
from battles.rules.options import RuleOptions
from battles.rules.ships import ShipState

SETUP = Path(__file__).with_name("mieska_setup.json")


def _ship(ship_id: str, spec: Mapping[str, Any]) -> ShipState:
    """As ``battles.resolution._replay_ship``: design, carried damage, bays loaded."""
    ship = ShipState.from_design(
        spec["design"],
        ship_id=ship_id,
        side=spec["side"],
        name=spec["name"],
        hull_lost=spec["hull_lost"],
        armour_lost=spec["armour_lost"],
        crew_lost=spec["crew_lost"],
        systems_lost=spec["systems_lost"],
    )
    for bay_id, squadron in spec.get("squadrons", {}).items():
        system = ship.systems[bay_id]
        aboard = system.data.get("squadron")
        if aboard:
            data = {k: v for k, v in system.data.items() if k != "squadron"}
            craft = squadron["craft"]
            system.data = {**data, "squadron": {**aboard, "size": craft}} if craft else data
    return ship


@cache
def _setup() -> tuple[dict[str, Any], list[list[ShipState]]]:
    data = json.loads(SETUP.read_text(encoding="utf-8"))
    fleets = [[_ship(sid, data["ships"][sid]) for sid in fleet] for fleet in data["fleets"]]
    return data, fleets


def mieska_battle(*, record: bool = True) -> BattleResult:
    """Fight the Skirmish at Mieska with its stored seed, options and turn cap."""
    data, fleets = _setup()
    return resolve_battle(
        fleets[0],
        fleets[1],
        seed=data["seed"],
        max_turns=data["max_turns"],
        options=RuleOptions.from_dict(data["options"]),
        known_classes=data.get("known_classes", {}),
        record=record,
    )
