"""A ship's status follows one rule (``Ship.status_for``) whichever path wrote its damage:
the sample loader, a battle's conclusion and the repairs of a turn close."""

from __future__ import annotations

import json
import shutil

import pytest

from battles.models import Participant
from campaign.sample.loader import SAMPLE_DIR, sample_load
from campaign.turns.closing import campaign_turn_close
from campaign.turns.repairs import repair_order
from factions.models import Ship
from tests.campaign.turns.conftest import norway_battle

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

# One armour box lost and nothing else.
ARMOUR_ONLY = {"hull_lost": 0, "armour_lost": 1, "crew_lost": 0, "systems_lost": []}


def _state(ship: Ship) -> tuple:
    ship.refresh_from_db()
    damage = {f: getattr(ship, f) for f in ARMOUR_ONLY}
    return damage, ship.status


@pytest.mark.parametrize(
    ("fate", "flags", "status"),
    [
        ("unharmed", {}, "active"),
        ("armour", {}, "damaged"),
        ("crew", {}, "damaged"),
        ("system", {}, "damaged"),
        ("armour", {"destroyed": True}, "destroyed"),
        ("none", {"captured": True}, "captured"),
    ],
)
def test_the_rule_reads_every_kind_of_loss(fate, flags, status):
    damage = {"hull_lost": 0, "armour_lost": 0, "crew_lost": 0, "systems_lost": []}
    damage.update(
        {"armour": {"armour_lost": 1}, "crew": {"crew_lost": 1}, "system": {"systems_lost": ["x"]}}
        .get(fate, {})
    )  # fmt: skip
    assert Ship.status_for(**damage, **flags) == status


def test_armour_only_loss_reads_damaged_from_the_sample_a_battle_and_a_turn_close(
    damaged, tmp_path
):
    s = damaged
    # (The sample is loaded again last: a reload puts recorded battles' damage back as the
    # files say.)
    # A battle's conclusion: the same single armour box on an otherwise intact ship.
    fridtjof = s.fleet.ships.exclude(pk__in=[s.tord_a.pk, s.tord_b.pk]).filter(
        status="active", ship_class__armour__gt=0
    )[0]
    norway_battle(s.campaign, s.fleet, {fridtjof: {"fate": "fled", "armour_lost": 1}}, name="Feint")
    assert _state(fridtjof) == (ARMOUR_ONLY, "damaged")

    # The turn close: everything mended on the Tordenskjold but one armour box.
    s.yard.shipyard_capacity = 100
    s.yard.save()
    tord = Ship.objects.get(pk=s.tord_a.pk)
    repair_order(
        campaign=s.campaign,
        ship=tord,
        user=s.organiser,
        hull=tord.hull_lost,
        armour=tord.armour_lost - 1,
        crew=tord.crew_lost,
        systems=list(tord.systems_lost),
    )
    campaign_turn_close(campaign=s.campaign, user=s.organiser)
    assert _state(tord) == (ARMOUR_ONLY, "damaged")

    # The sample loader: a Drina that withdrew and a damaged Tsaara, each one armour box down
    # (the loader looked at hull boxes only for a ship that withdrew: it called it active).
    data = tmp_path / "sample"
    shutil.copytree(SAMPLE_DIR, data)
    path = data / "battle-colonisation-compromise.json"
    battle = json.loads(path.read_text(encoding="utf-8"))
    for side in battle["sides"]:
        parts = side.get("participants", {})
        if "drina-1" in parts:
            parts["drina-1"] = {"fate": "fled", "armour_lost": 1}
        if "tsaara-1" in parts:
            parts["tsaara-1"] = {"fate": "damaged", "armour_lost": 1}
    path.write_text(json.dumps(battle), encoding="utf-8")
    sample_load(directory=data)
    loaded = [
        p.ship
        for p in Participant.objects.filter(
            side__battle__slug=battle["slug"],
            ship__ship_class__name__in=["Drina", "Tsaara"],
            armour_lost=1,
        )
    ]
    assert len(loaded) == 2
    for ship in loaded:
        assert _state(ship) == (ARMOUR_ONLY, "damaged")
