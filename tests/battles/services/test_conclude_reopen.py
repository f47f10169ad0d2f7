"""battle_conclude / battle_reopen (battles/services/reopen.py): exact restore, the
one-unconcluded-battle rule, reopening in order, captured ships, defences on the table,
record entries confirmed by the other side, re-running with a reason."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.forms.models import model_to_dict

from battles.models import (
    Battle,
    BattleAction,
    BattleSnapshot,
    Event,
    Participant,
    RecordEntry,
    Report,
)
from battles.reports.files import report_render
from battles.services import (
    REOPEN_CHECKS,
    BattleActionError,
    Conclusion,
    SideSpec,
    UnitResult,
    battle_conclude,
    battle_create,
    battle_reopen,
    battle_replay,
    battle_reseed,
    battle_resolve,
    battle_resolve_preview,
    eligible_light_units,
    eligible_ships,
    event_rows,
    record_confirm,
    record_submit,
)
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign, Intel, Membership
from factions.models import LightUnitGroup, Ship, Territory
from tests.battles.battle_fixtures import draft_skirmish

# These tests read the services' English messages (the French ones are the catalogue's; pages and
# API requests follow their own Accept-Language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]
SEED = 20261130


def world_state() -> dict:
    """Every field of every ship, light-unit group and intel row."""
    return {
        "ships": [model_to_dict(s) for s in Ship.objects.order_by("pk")],
        "light_units": [model_to_dict(g) for g in LightUnitGroup.objects.order_by("pk")],
        "intel": sorted(Intel.objects.values_list("campaign_id", "faction_id", "ship_class_id")),
        "participants": [model_to_dict(p) for p in Participant.objects.order_by("pk")],
    }


def test_conclude_then_reopen_restores_every_field_exactly():
    battle = draft_skirmish()
    # Carried damage before the battle, so a restore to "all zero" would be caught.
    ship = Ship.objects.filter(fleet__faction__slug="phalon").first()
    ship.hull_lost, ship.systems_lost, ship.status = 2, ["veil"], "damaged"
    ship.save()
    before = world_state()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    after = world_state()
    assert after != before  # the battle did something
    assert Event.objects.filter(battle=battle).count() > 10
    assert Intel.objects.exists()
    battle.refresh_from_db()
    assert battle.concluded_at is not None
    assert BattleSnapshot.objects.filter(battle=battle).exists()

    battle_reopen(user=SYSTEM, battle=battle)
    battle.refresh_from_db()
    assert world_state() == before
    assert (battle.status, battle.winner_id, battle.outcome, battle.concluded_at) == (
        "draft",
        None,
        "",
        None,
    )
    assert not Event.objects.filter(battle=battle).exists()
    assert not Intel.objects.exists()
    kinds = list(BattleAction.objects.filter(battle=battle).values_list("kind", flat=True))
    assert kinds == ["conclude", "reopen"]
    # django-simple-history kept every change of the battle and its participants.
    statuses = list(battle.history.order_by("history_date").values_list("status", flat=True))
    assert statuses[-2:] == ["concluded", "draft"]
    some = Participant.objects.filter(side__battle=battle).first()
    assert some.history.count() >= 2  # concluded, then restored
    # It can be fought again, with the same result from the same seed.
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    assert world_state() == after


def test_concluding_twice_is_refused_and_changes_nothing():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    before = world_state()
    with pytest.raises(BattleActionError, match=r"already concluded"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    assert world_state() == before


def test_a_ship_held_by_a_battle_concluded_since_is_refused_by_name():
    campaign = Campaign.objects.create(slug="c1", name="C1")
    first = draft_skirmish(campaign, slug="first")
    second = Battle.objects.create(campaign=campaign, name="Second", slug="second")
    # The same ships on the second battle's sides (as a racing conclusion would find them).
    for side in first.sides.all():
        s2 = second.sides.create(faction=side.faction, order=side.order)
        for p in side.participants.filter(ship__isnull=False):
            Participant.objects.create(side=s2, ship=p.ship)
    battle_resolve(user=SYSTEM, battle=first, seed=SEED)
    before = world_state()
    with pytest.raises(
        BattleActionError,
        match=r"participant \d+ \(.+\): the ship is (held by "
        r"battle \d+ \(Skirmish first\)|destroyed already)",
    ):
        battle_resolve(user=SYSTEM, battle=second, seed=SEED)
    assert world_state() == before
    second.refresh_from_db()
    assert second.status == "draft"


def test_reopening_out_of_order_names_the_later_battle():
    campaign = Campaign.objects.create(slug="c2", name="C2")
    first = draft_skirmish(campaign, slug="first", qatzrin=("Ra'am",), phalon=("Huulth",))
    conclusion = Conclusion(
        mode="recorded",
        results=[],
        winner=None,
        outcome="a draw",
    )
    battle_conclude(user=SYSTEM, battle=first, conclusion=conclusion)
    later = Battle.objects.create(campaign=campaign, name="Later", slug="later")
    for side in first.sides.all():
        s2 = later.sides.create(faction=side.faction, order=side.order)
        for p in side.participants.filter(ship__isnull=False):
            Participant.objects.create(side=s2, ship=p.ship)
    battle_conclude(user=SYSTEM, battle=later, conclusion=conclusion)
    with pytest.raises(BattleActionError, match=r"battle \d+ \(Later\) was concluded later"):
        battle_reopen(user=SYSTEM, battle=first)
    battle_reopen(user=SYSTEM, battle=later)
    battle_reopen(user=SYSTEM, battle=first)
    assert set(Battle.objects.values_list("status", flat=True)) == {"draft"}


def test_a_captured_ship_joins_the_captors_fleet_and_goes_back_on_reopen():
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    raam = Participant.objects.get(side__battle=battle, ship__ship_class__name="Ra'am")
    phalon_fleet = battle.sides.get(faction__slug="phalon").fleet
    own_fleet = raam.ship.fleet_id
    battle_conclude(
        user=SYSTEM,
        battle=battle,
        conclusion=Conclusion(
            mode="recorded",
            results=[UnitResult(participant=raam.pk, fate="captured")],
            winner="phalon",
            outcome="boarded",
        ),
    )
    ship = Ship.objects.get(pk=raam.ship_id)
    assert (ship.status, ship.fleet_id, ship.fleet.faction.slug) == (
        "captured",
        phalon_fleet.pk,
        "phalon",
    )
    battle_reopen(user=SYSTEM, battle=battle)
    ship.refresh_from_db()
    assert (ship.status, ship.fleet_id) == ("active", own_fleet)


def test_reopening_a_battle_without_snapshot_is_refused():
    battle = draft_skirmish()
    Battle.objects.filter(pk=battle.pk).update(status="concluded")
    with pytest.raises(BattleActionError, match="without a snapshot"):
        battle_reopen(user=SYSTEM, battle=battle)


def test_station_defences_fight_as_fixed_platforms_and_lose_craft():
    battle = draft_skirmish(qatzrin=("Sa'ar", "Ra'am", "Ra'am"), phalon=("Huulth",))
    phalon = battle.sides.get(faction__slug="phalon")
    territory = Territory.objects.create(faction=phalon.faction, name="Petra IV", slug="petra-iv")
    battery = LightUnitGroup.objects.create(
        name="Petra battery",
        kind="battery",
        unit_type="beam-2",
        faction=phalon.faction,
        territory=territory,
        size=2,
        strength=2,
    )
    based = LightUnitGroup.objects.create(
        name="Tuus",
        kind="heavy-fighter",
        faction=phalon.faction,
        territory=territory,
        size=6,
        strength=6,
    )
    for g in (battery, based):
        Participant.objects.create(side=phalon, light_units=g)
    preview = battle_resolve_preview(battle=battle, seed=SEED)
    setup = preview.conclusion.events[0]["data"]
    assert sorted(setup["fixed"]) == [f"lu-{battery.pk}", f"lu-{based.pk}"]
    names = " ".join(e["summary"] for e in preview.conclusion.events)
    assert "Petra battery battery-1 (beam-2)" in names  # the battery fires
    assert "Tuus +0: to (4.0, 48.0)" in names  # the based squadron's platform holds its place
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battery.refresh_from_db()
    based.refresh_from_db()
    parts = {p.light_units_id: p for p in Participant.objects.filter(light_units__isnull=False)}
    assert battery.strength == 2 - parts[battery.pk].craft_lost
    assert based.strength == 6 - parts[based.pk].craft_lost

    assert battle_replay(battle=battle) == event_rows(battle=battle)


def test_preview_writes_nothing_and_equals_the_conclusion():
    battle = draft_skirmish()
    before = world_state()
    preview = battle_resolve_preview(battle=battle, seed=SEED)
    assert world_state() == before
    assert not Event.objects.exists()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    assert battle.outcome == preview.conclusion.outcome
    stored = list(Event.objects.filter(battle=battle).values_list("kind", flat=True))
    assert stored == [e["kind"] for e in preview.conclusion.events]


def test_reseed_needs_a_reason_once_a_seed_exists():
    battle = draft_skirmish()
    first = battle_reseed(user=SYSTEM, battle=battle, reason="")
    with pytest.raises(BattleActionError, match=r"\.reason: re-running"):
        battle_reseed(user=SYSTEM, battle=battle, reason="  ")
    second = battle_reseed(user=SYSTEM, battle=battle, reason="the table disputed turn 2")
    battle.refresh_from_db()
    assert battle.seed == second != first
    last = BattleAction.objects.filter(battle=battle, kind="reseed").last()
    assert (last.summary, last.data["old_seed"]) == ("the table disputed turn 2", first)


def test_setup_offers_only_free_ships_and_refuses_a_held_one_by_name():
    campaign = Campaign.objects.create(slug="c3", name="C3")
    held = draft_skirmish(campaign, slug="held", qatzrin=("Ra'am",), phalon=("Huulth",))
    q = held.sides.get(faction__slug="qatzrin")
    p = held.sides.get(faction__slug="phalon")
    extra = Ship.objects.create(ship_class=q.participants.first().ship.ship_class, fleet=q.fleet)
    gone = Ship.objects.create(
        ship_class=q.participants.first().ship.ship_class, fleet=q.fleet, status="destroyed"
    )
    offered = set(eligible_ships(campaign=campaign).values_list("pk", flat=True))
    assert extra.pk in offered and gone.pk not in offered
    assert not offered & set(held.sides.values_list("participants__ship_id", flat=True))
    assert (
        not eligible_light_units(campaign=campaign)
        .filter(pk__in=held.sides.values_list("participants__light_units_id", flat=True))
        .exists()
    )
    busy = q.participants.first().ship
    with pytest.raises(BattleActionError, match=rf"sides\[0\] \(Qatzrin\)\.ships: {busy}"):
        battle_create(
            user=SYSTEM,
            campaign=campaign,
            name="New",
            sides=[SideSpec(q.faction, ships=[busy.pk]), SideSpec(p.faction, ships=[extra.pk])],
        )
    new = battle_create(
        user=SYSTEM,
        campaign=campaign,
        name="New fight",
        campaign_turn=2,
        sides=[
            SideSpec(q.faction, fleet=q.fleet, ships=[extra.pk]),
            SideSpec(
                p.faction,
                ships=[
                    Ship.objects.create(
                        ship_class=p.participants.filter(ship__isnull=False)
                        .first()
                        .ship.ship_class,
                        fleet=p.fleet,
                    ).pk
                ],
            ),
        ],
    )
    assert (new.slug, new.status, new.sides.count()) == ("new-fight", "draft", 2)
    assert BattleAction.objects.get(battle=new).kind == "create"
    carried = LightUnitGroup.objects.create(
        name="Aboard", kind="fighter", faction=q.faction, carrier=extra, size=6, strength=6
    )
    huulth = Participant.objects.filter(side=p, ship__isnull=False).first().ship_id
    Battle.objects.filter(pk__in=[new.pk, held.pk]).delete()
    again = battle_create(
        user=SYSTEM,
        campaign=campaign,
        name="Carrier fight",
        sides=[SideSpec(q.faction, ships=[extra.pk]), SideSpec(p.faction, ships=[huulth])],
    )  # fmt: skip
    assert Participant.objects.filter(side__battle=again, light_units=carried).exists()


def test_record_entries_conclude_only_when_the_other_side_confirms():
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    users = get_user_model().objects
    q_player, p_player = users.create(username="q"), users.create(username="p")
    q_side = battle.sides.get(faction__slug="qatzrin")
    p_side = battle.sides.get(faction__slug="phalon")
    # The services check who acts: each user plays their side's faction in the campaign.
    for user, side in ((q_player, q_side), (p_player, p_side)):
        Membership.objects.create(
            user=user, campaign=battle.campaign, role="player", faction=side.faction
        )
    raam = q_side.participants.get()
    huulth = p_side.participants.get(ship__isnull=False)
    with pytest.raises(
        BattleActionError,
        match=r"results\[0\]\.participant: \d+ is not a "
        r"participant of battle \d+ on this side",
    ):
        record_submit(
            battle=battle, side=q_side, results=[{"participant": huulth.pk}], user=q_player
        )
    with pytest.raises(
        BattleActionError,
        match=r"results\[0\] \(participant \d+ \(Ra'am.*"
        r"\)\)\.hull_lost: 99",
    ):
        record_submit(
            battle=battle,
            side=q_side,
            results=[{"participant": raam.pk, "fate": "damaged", "hull_lost": 99}],
            user=q_player,
        )
    e1 = record_submit(
        battle=battle,
        side=q_side,
        user=q_player,
        winner="phalon",
        outcome="Phalon hold",
        results=[{"participant": raam.pk, "fate": "damaged", "hull_lost": 2}],
    )
    record_confirm(entry=e1, user=p_player)
    battle.refresh_from_db()
    assert battle.status == "draft"  # the Phalon side has not entered theirs
    e2 = record_submit(battle=battle, side=p_side, user=p_player, results=[])
    record_confirm(entry=e2, user=q_player)
    battle.refresh_from_db()
    raam.ship.refresh_from_db()
    assert (battle.status, battle.mode, battle.winner.slug, battle.outcome) == (
        "concluded",
        "recorded",
        "phalon",
        "Phalon hold",
    )
    assert (raam.ship.hull_lost, raam.ship.status) == (2, "damaged")
    assert set(RecordEntry.objects.values_list("status", flat=True)) == {"confirmed"}


def test_reopen_removes_the_reports_and_their_files(media):
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED, max_turns=2)
    report = report_render(battle_id=battle.pk, fmt="html")
    path = media / report.file.name
    assert path.is_file()
    battle_reopen(user=SYSTEM, battle=battle)
    assert not Report.objects.filter(battle=battle).exists()
    assert not path.exists()


def test_a_reopen_check_can_refuse_and_nothing_changes(monkeypatch):
    battle = draft_skirmish(qatzrin=("Ra'am",), phalon=("Huulth",))
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED, max_turns=2)
    after = world_state()
    monkeypatch.setattr(
        "battles.services.reopen.REOPEN_CHECKS",
        [*REOPEN_CHECKS, lambda b: [f"repair order 7 depends on {b.name}"]],
    )
    with pytest.raises(BattleActionError, match="repair order 7 depends on Skirmish"):
        battle_reopen(user=SYSTEM, battle=battle)
    assert world_state() == after
    battle.refresh_from_db()
    assert battle.status == "concluded"
