"""Renown from battles (factions/commanders/renown.py): exact awards on a battle recorded
from the table and one resolved by the engine, fates (killed, captured), and reopen taking
back exactly the battle's rows."""

from __future__ import annotations

import pytest

from battles.models import Participant
from battles.services import Conclusion, UnitResult, battle_conclude, battle_reopen, battle_resolve
from campaign.core.actors import SYSTEM
from factions.models import Commander, RenownAward, Squadron
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db
SEED = 20261130


def _ships(battle, faction):
    return [
        p.ship
        for p in Participant.objects.filter(side__battle=battle, side__faction__slug=faction)
        .exclude(ship=None)
        .select_related("ship")
        .order_by("pk")
    ]


def _cast(battle):
    """Commanders on both sides: {name: Commander}."""
    q, p = _ships(battle, "qatzrin"), _ships(battle, "phalon")
    qf, pf = q[0].fleet, p[0].fleet
    squadron = Squadron.objects.create(fleet=qf, name="Escadre Nimrod")
    q[1].squadron = squadron
    q[1].save()
    people = {
        "Adm Q": {"faction": qf.faction, "rank": "admiral", "fleet": qf},
        "Cdr S": {"faction": qf.faction, "rank": "commander", "squadron": squadron},
        "Cpt A": {"faction": qf.faction, "rank": "captain", "ship": q[0]},
        "Cpt B": {"faction": qf.faction, "rank": "captain", "ship": q[2]},
        "Adm P": {"faction": pf.faction, "rank": "admiral", "fleet": pf},
        "Cpt T": {"faction": pf.faction, "rank": "captain", "ship": p[0]},
        "Cpt H": {"faction": pf.faction, "rank": "captain", "ship": p[1]},
        "Idle": {"faction": pf.faction, "rank": "captain"},  # in no battle: nothing
    }
    return {name: Commander.objects.create(name=name, **kw) for name, kw in people.items()}


def _renown():
    return dict(Commander.objects.with_renown().values_list("name", "renown"))


def _statuses():
    return dict(Commander.objects.values_list("name", "status"))


def _recorded(battle):
    """Qatzrin wins: their Ra'am (Cpt B) destroyed, Sa'ar (Cpt A) hit; Phalon's Tsaara (Cpt T)
    captured and Silith destroyed."""
    q, p = _ships(battle, "qatzrin"), _ships(battle, "phalon")
    part = {
        pt.ship_id: pt.pk
        for pt in Participant.objects.filter(side__battle=battle).exclude(ship=None)
    }
    return Conclusion(
        mode="recorded",
        winner="qatzrin",
        outcome="Qatzrin hold the field",
        results=[
            UnitResult(participant=part[q[0].pk], fate="damaged", hull_lost=1),
            UnitResult(participant=part[q[2].pk], fate="destroyed"),
            UnitResult(participant=part[p[0].pk], fate="captured"),
            UnitResult(participant=part[p[2].pk], fate="destroyed"),
        ],
    )


def test_a_recorded_battle_gives_each_commander_present_the_rule_exact_renown():
    battle = draft_skirmish()
    _cast(battle)
    battle_conclude(battle=battle, conclusion=_recorded(battle), user=SYSTEM)
    # Qatzrin: victory +2, two Phalon ships lost +2; Cpt A +1 for a damaged ship home.
    # Phalon: one Qatzrin ship lost +1 each, no victory.
    assert _renown() == {
        "Adm Q": 4, "Cdr S": 4, "Cpt A": 5, "Cpt B": 4,
        "Adm P": 1, "Cpt T": 1, "Cpt H": 1, "Idle": 0,
    }  # fmt: skip
    assert sorted(
        RenownAward.objects.filter(battle=battle).values_list("commander__name", "kind", "points")
    ) == [
        ("Adm P", "kills", 1),
        ("Adm Q", "kills", 2),
        ("Adm Q", "victory", 2),
        ("Cdr S", "kills", 2),
        ("Cdr S", "victory", 2),
        ("Cpt A", "kills", 2),
        ("Cpt A", "survival", 1),
        ("Cpt A", "victory", 2),
        ("Cpt B", "killed", 0),
        ("Cpt B", "kills", 2),
        ("Cpt B", "victory", 2),
        ("Cpt H", "kills", 1),
        ("Cpt T", "captured", 0),
        ("Cpt T", "kills", 1),
    ]
    assert _statuses() == {
        "Adm Q": "active", "Cdr S": "active", "Cpt A": "active", "Cpt B": "killed",
        "Adm P": "active", "Cpt T": "captured", "Cpt H": "active", "Idle": "active",
    }  # fmt: skip
    # Captured with their ship: still its captain, the ship now in the captor's fleet.
    cpt_t = Commander.objects.select_related("ship__fleet").get(name="Cpt T")
    assert cpt_t.ship.fleet.faction.slug == "qatzrin"


def test_reopen_removes_exactly_the_battles_awards_and_gives_back_the_status():
    battle = draft_skirmish()
    _cast(battle)
    earlier = draft_skirmish(slug="earlier")
    kept = Commander.objects.create(
        name="Veteran", faction=earlier.sides.first().faction, rank="captain"
    )
    RenownAward.objects.create(commander=kept, battle=earlier, kind="victory", points=2)
    battle_conclude(battle=battle, conclusion=_recorded(battle), user=SYSTEM)
    battle_reopen(battle=battle, user=SYSTEM)
    assert not RenownAward.objects.filter(battle=battle).exists()
    assert list(RenownAward.objects.values_list("commander__name", "points")) == [("Veteran", 2)]
    assert set(_statuses().values()) == {"active"}
    assert _renown()["Cpt A"] == 0
    # Concluded again, the same awards again (nothing left behind to double).
    battle.refresh_from_db()
    battle_conclude(battle=battle, conclusion=_recorded(battle), user=SYSTEM)
    assert _renown()["Cpt A"] == 5
    assert _statuses()["Cpt B"] == "killed"


def test_a_resolved_battle_gives_renown_from_the_engines_fates():
    battle = draft_skirmish()
    _cast(battle)
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    fates = dict(
        Participant.objects.filter(side__battle=battle)
        .exclude(ship=None)
        .values_list("ship__captain__name", "fate")
        .exclude(ship__captain=None)
    )
    # The seed's battle: the Phalon win, every Qatzrin ship lost, their Silith destroyed.
    assert (battle.winner.slug, fates) == (
        "phalon",
        {"Cpt A": "destroyed", "Cpt B": "destroyed", "Cpt T": "damaged", "Cpt H": "unharmed"},
    )
    # Phalon: victory +2 and five Qatzrin ships +5; Cpt T +1 for a damaged ship home.
    # Qatzrin: the Silith +1 each; a squadron commander is not aboard: only captains die.
    assert _renown() == {
        "Adm Q": 1, "Cdr S": 1, "Cpt A": 1, "Cpt B": 1,
        "Adm P": 7, "Cpt T": 8, "Cpt H": 7, "Idle": 0,
    }  # fmt: skip
    assert _statuses() == {
        "Adm Q": "active", "Cdr S": "active", "Cpt A": "killed", "Cpt B": "killed",
        "Adm P": "active", "Cpt T": "active", "Cpt H": "active", "Idle": "active",
    }  # fmt: skip
    battle_reopen(battle=battle, user=SYSTEM)
    assert not RenownAward.objects.exists()
    assert set(_statuses().values()) == {"active"}


def test_a_commander_killed_before_gains_nothing_and_stays_dead():
    battle = draft_skirmish()
    people = _cast(battle)
    Commander.objects.filter(pk=people["Adm P"].pk).update(status="killed")
    battle_conclude(battle=battle, conclusion=_recorded(battle), user=SYSTEM)
    assert _renown()["Adm P"] == 0
    battle_reopen(battle=battle, user=SYSTEM)
    assert _statuses()["Adm P"] == "killed"
