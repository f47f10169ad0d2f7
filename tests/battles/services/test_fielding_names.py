"""A side that cannot field a ship is named by its faction's name, never its slug."""

from __future__ import annotations

import pytest

from battles.services import BattleActionError, battle_resolve
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db


def test_a_side_with_no_ship_to_field_is_named(cast):
    battle = draft_skirmish(cast.campaign, phalon=())
    side = battle.sides.get(faction__slug="phalon")
    side.faction.name = "Phalon Hegemony"
    side.faction.save()
    with pytest.raises(BattleActionError) as refused:
        battle_resolve(battle=battle, seed=3, user=cast.organiser)
    text = str(refused.value)
    assert "Phalon Hegemony" in text and "phalon" not in text.replace("Phalon Hegemony", "")
