"""Battles resolved by the engine or recorded from the table (battles.services)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.forms.models import model_to_dict

from battles.models import Battle, BattleSide, Event, Participant
from battles.reports.context import report_context
from battles.reports.turn_log import PRINT_KINDS, trim_for_print
from battles.rules import ai
from battles.rules.ships import ShipState
from battles.services import (
    MAX_TURNS_LIMIT,
    BattleActionError,
    battle_record,
    battle_replay,
    battle_resolve,
    conclude,
    event_rows,
)
from battles.services import resolve as resolve_module
from campaign.core.actors import SYSTEM
from campaign.league.models import Intel
from factions.models import Faction, LightUnitGroup, Ship, ShipClass
from tests.battles.battle_fixtures import draft_skirmish

SEED = 20261130

# These tests read the services' English messages (the French ones are the catalogue's; pages and
# API requests follow their own Accept-Language).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def snapshot() -> dict:
    """Every row the services may write, every field."""
    rows = {}
    for model in (Battle, BattleSide, Participant, Event, Ship, LightUnitGroup):
        for obj in model.objects.order_by("pk"):
            data = model_to_dict(obj)
            data.update({f.name: getattr(obj, f.name) for f in model._meta.concrete_fields})
            rows[(model.__name__, obj.pk)] = data
    return rows


def ship_participants(battle: Battle) -> list[Participant]:
    return list(
        Participant.objects.filter(side__battle=battle, ship__isnull=False)
        .select_related("ship__ship_class", "side__faction")
        .order_by("side__order", "pk")
    )


def engine_fleets(battle: Battle) -> list[list[ShipState]]:
    """The engine ships the service should build, made here independently."""
    fleets: dict[int, list[ShipState]] = {}
    counts: dict[tuple[int, int], int] = {}
    for p in ship_participants(battle):
        ship = p.ship
        key = (p.side_id, ship.ship_class_id)
        counts[key] = counts.get(key, 0) + 1
        fleets.setdefault(p.side.order, []).append(
            ShipState.from_design(
                ship.ship_class.design,
                ship_id=f"ship-{ship.pk}",
                side=p.side.faction.slug,
                name=ship.name or f"{ship.ship_class.name} {counts[key]}",
                hull_lost=ship.hull_lost,
                armour_lost=ship.armour_lost,
                crew_lost=ship.crew_lost,
                systems_lost=ship.systems_lost,
            )
        )
    return [fleets[0], fleets[1]]


# ---- resolve ---------------------------------------------------------------------------


def test_resolve_writes_the_engines_result_ships_participants_and_battle(
    django_capture_on_commit_callbacks,
):
    battle = draft_skirmish()
    fleets = engine_fleets(battle)
    expected = ai.resolve_battle(fleets[0], fleets[1], seed=SEED, max_turns=20)

    with django_capture_on_commit_callbacks() as callbacks:
        returned = battle_resolve(user=SYSTEM, battle=battle, seed=SEED)

    battle.refresh_from_db()
    assert returned.pk == battle.pk
    assert (battle.status, battle.mode, battle.seed, battle.version) == (
        "concluded",
        "resolved",
        SEED,
        2,
    )
    assert battle.game_turns == expected.turns
    assert battle.winner.slug == expected.winner
    assert f"seed {SEED}" in battle.outcome and battle.outcome.startswith(battle.winner.name)
    sides = {s.faction.slug: s.is_winner for s in battle.sides.select_related("faction")}
    assert sides == {"qatzrin": expected.winner == "qatzrin", "phalon": expected.winner == "phalon"}
    # After the commit: the site refresh, then the report (HTML and PDF) queued.
    assert len(callbacks) == 3

    for p in ship_participants(battle):
        final = expected.ships[f"ship-{p.ship.pk}"]
        ship = p.ship
        assert (ship.hull_lost, ship.armour_lost, ship.crew_lost, ship.systems_lost) == (
            final.hull_lost,
            final.armour_lost,
            final.crew_lost,
            final.systems_lost,
        )
        # Fresh ships: this battle's losses are the ship's whole damage.
        assert (p.hull_lost, p.armour_lost, p.crew_lost, p.systems_lost) == (
            final.hull_lost,
            final.armour_lost,
            final.crew_lost,
            final.systems_lost,
        )
        if final.destroyed:
            assert (p.fate, ship.status) == ("destroyed", "destroyed")
        elif final.withdrawn:
            assert p.fate == "fled"
        elif final.hull_lost or final.armour_lost or final.systems_lost or final.crew_lost:
            assert (p.fate, ship.status) == ("damaged", "damaged")
        else:
            assert (p.fate, ship.status) == ("unharmed", "active")
    assert Participant.objects.filter(side__battle=battle, fate="destroyed").exists()
    nith = Participant.objects.get(side__battle=battle, light_units__isnull=False)
    assert (nith.fate, nith.craft_lost, nith.light_units.strength) == ("unharmed", 0, 6)


def test_every_roll_is_logged_in_order_before_the_event_it_decides():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    rows = event_rows(battle=battle)
    assert [r["sequence"] for r in rows] == list(range(1, len(rows) + 1))
    assert rows[0]["kind"] == "setup" and rows[-1]["kind"] == "result"
    assert rows[1]["kind"] == "deploy"
    rolls = [r for r in rows if r["kind"] == "roll"]
    assert len(rolls) > 50
    assert [r["data"]["n"] for r in rolls] == list(range(1, len(rolls) + 1))
    assert all(1 <= r["data"]["result"] <= r["data"]["sides"] for r in rolls)
    assert rolls[0]["summary"] == (
        f"{rolls[0]['data']['purpose']}: d{rolls[0]['data']['sides']}={rolls[0]['data']['result']}"
    )
    # The initiative event gives only sums; the dice just before it add up to them.
    for i, row in enumerate(rows):
        if row["kind"] != "initiative-roll":
            continue
        before = []
        j = i - 1
        while rows[j]["kind"] == "roll":
            before.insert(0, rows[j]["data"])
            j -= 1
        last = {}  # a tie re-rolls: the last roll of each side decides
        for d in before:
            side = d["purpose"].split()[1].rstrip(",")
            roll_no = d["purpose"].split("roll ")[1].split(",")[0]
            last.setdefault(side, {}).setdefault(roll_no, 0)
            last[side][roll_no] += d["result"]
        sums = {side: list(by_roll.values())[-1] for side, by_roll in last.items()}
        assert sums == row["data"]["rolls"]
        assert row["game_turn"] == rows[i - 1]["game_turn"]
    # Fire dice sit just before their fire event, in the same turn and phase.
    fire = next(i for i, r in enumerate(rows) if r["kind"] == "fire" and r["data"]["dice"])
    assert rows[fire - 1]["kind"] == "roll" and rows[fire - 1]["phase"] == 9


def test_the_stored_log_is_resolve_battles_events_with_its_dice_in_between():
    battle = draft_skirmish()
    fleets = engine_fleets(battle)
    expected = ai.resolve_battle(fleets[0], fleets[1], seed=SEED, max_turns=20)
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    rows = event_rows(battle=battle)[1:]  # after the setup row
    events = [
        {k: r[k] for k in ("phase", "kind", "summary", "data")} | {"turn": r["game_turn"]}
        for r in rows
        if r["kind"] != "roll"
    ]
    assert events == json.loads(json.dumps(expected.log_dicts()))
    rolls = [
        (r["data"]["purpose"], r["data"]["sides"], r["data"]["result"])
        for r in rows
        if r["kind"] == "roll"
    ]
    assert rolls == [(r.purpose, r.sides, r.result) for r in expected.rolls]
    # Each event sits after exactly the dice rolled before the engine logged it.
    seen = 0
    marks = []
    for r in rows:
        if r["kind"] == "roll":
            seen += 1
        else:
            marks.append(seen)
    assert marks == expected.roll_marks
    battle.refresh_from_db()
    assert (battle.game_turns, battle.winner.slug if battle.winner else None) == (
        expected.turns,
        expected.winner,
    )


def test_the_stored_seed_replays_the_identical_log():
    battle = draft_skirmish()
    before = {p.ship_id: (p.ship.hull_lost, p.ship.status) for p in ship_participants(battle)}
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    first = event_rows(battle=battle)
    assert battle_replay(battle=battle) == first  # from the log's setup row alone

    # Put everything back as it was before the battle and resolve again from the seed.
    battle.refresh_from_db()
    Ship.objects.filter(pk__in=before).update(
        hull_lost=0, armour_lost=0, crew_lost=0, systems_lost=[], status="active"
    )
    Battle.objects.filter(pk=battle.pk).update(status="draft")
    Intel.objects.filter(first_battle=battle).delete()  # the classes this battle taught
    again = battle_resolve(user=SYSTEM, battle=battle)  # no seed given: the battle's stored one
    assert again.seed == SEED
    assert event_rows(battle=battle) == first


def test_classes_met_before_are_named_on_contact_and_stored_for_replay():
    battle = draft_skirmish()
    phalon_classes = sorted(
        {
            p.ship.ship_class.name
            for p in ship_participants(battle)
            if p.side.faction.slug == "phalon"
        }
    )
    for name in phalon_classes:  # Qatzrin met every Phalon class in an earlier battle
        Intel.objects.create(
            campaign=battle.campaign,
            faction=Faction.objects.get(slug="qatzrin"),
            ship_class=ShipClass.objects.get(faction__slug="phalon", name=name),
        )
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    setup = Event.objects.get(battle=battle, kind="setup").data
    assert setup["known_classes"]["qatzrin"] == phalon_classes
    assert setup["known_classes"]["phalon"] == []
    contacts = Event.objects.filter(battle=battle, kind="contact")
    named = {c.data["side"]: set() for c in contacts}
    for c in contacts:
        if c.data["report"].get("level") != "blip":
            named[c.data["side"]].add(c.data["report"].get("class"))
    assert named["qatzrin"] - {None} and named["qatzrin"] <= set(phalon_classes)
    assert named["phalon"] == {None}  # Phalon had met nothing: classes stay unnamed
    assert battle_replay(battle=battle) == event_rows(battle=battle)


def test_carried_damage_is_the_starting_state_and_losses_are_this_battles():
    battle = draft_skirmish()
    tsaara = Ship.objects.get(ship_class__name="Tsaara")
    tsaara.hull_lost, tsaara.armour_lost, tsaara.systems_lost = 3, 4, ["pulser-c"]
    tsaara.status = "damaged"
    tsaara.save()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    setup = Event.objects.get(battle=battle, kind="setup").data
    start = setup["ships"][f"ship-{tsaara.pk}"]
    assert (start["hull_lost"], start["armour_lost"], start["systems_lost"]) == (
        3,
        4,
        ["pulser-c"],
    )
    tsaara.refresh_from_db()
    part = tsaara.participations.get()
    assert tsaara.hull_lost == 3 + part.hull_lost
    assert tsaara.armour_lost == 4 + part.armour_lost
    assert "pulser-c" in tsaara.systems_lost and "pulser-c" not in part.systems_lost
    assert tsaara.status in ("damaged", "destroyed")


def test_campaign_rule_options_reach_the_engine():
    battle = draft_skirmish()
    battle.campaign.rule_options = {"reroll_chains": False, "mpc_dice": 2}
    battle.campaign.save()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    setup = Event.objects.get(battle=battle, kind="setup")
    assert setup.data["options"]["reroll_chains"] is False
    assert "rule options" in setup.summary
    rerolls = Event.objects.filter(battle=battle, kind="roll", summary__contains="re-roll 2")
    assert not rerolls.exists()


def test_a_concluded_battle_is_refused_and_left_alone():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    before = snapshot()
    with pytest.raises(BattleActionError, match="already concluded"):
        battle_resolve(user=SYSTEM, battle=battle, seed=1)
    with pytest.raises(BattleActionError, match="already concluded"):
        battle_record(user=SYSTEM, battle=battle, results=[], outcome="x", winner=None)
    assert snapshot() == before


def test_a_class_that_cannot_be_built_names_the_ship_and_field_and_writes_nothing():
    battle = draft_skirmish()
    huulth = Ship.objects.get(ship_class__name="Huulth")
    cls = huulth.ship_class
    cls.design = {**cls.design, "hull": {"rows": [3, "x"]}}
    cls.save()
    before = snapshot()
    with pytest.raises(BattleActionError) as err:
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    message = str(err.value)
    assert "Huulth" in message and "hull" in message and "participant" in message
    assert snapshot() == before


def test_bad_rule_options_and_bad_arguments_are_refused():
    battle = draft_skirmish()
    battle.campaign.rule_options = {"D-11": True}
    battle.campaign.save()
    before = snapshot()
    with pytest.raises(BattleActionError, match="rule_options: unknown rule option 'D-11'"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    with pytest.raises(BattleActionError, match="max_turns"):
        battle_resolve(user=SYSTEM, battle=battle, max_turns=0)
    assert snapshot() == before


def test_a_failure_after_the_log_is_written_rolls_everything_back(monkeypatch):
    battle = draft_skirmish()
    before = snapshot()

    def boom(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(conclude, "intel_record_battle", boom)
    with pytest.raises(RuntimeError, match="disk full"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    assert snapshot() == before
    assert not Event.objects.exists()


def test_a_side_without_ships_is_refused():
    battle = draft_skirmish(qatzrin=())
    with pytest.raises(BattleActionError, match="side Qatzrin has no ship"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)


def test_the_management_command_resolves_and_reports():
    battle = draft_skirmish()
    out = StringIO()
    call_command("resolve_battle", str(battle.pk), "--seed", "7", "--max-turns", "3", stdout=out)
    battle.refresh_from_db()
    assert (battle.status, battle.seed) == ("concluded", 7)
    assert battle.game_turns <= 3
    assert "dice" in out.getvalue() and battle.name in out.getvalue()
    with pytest.raises(CommandError, match="already concluded"):
        call_command("resolve_battle", str(battle.pk))
    with pytest.raises(CommandError, match="no battle"):
        call_command("resolve_battle", "999999")

    out = StringIO()
    call_command("resolve_battle", str(battle.pk), "--check", stdout=out)
    assert "the replay matches all" in out.getvalue()
    tampered = Event.objects.filter(battle=battle, kind="roll").order_by("sequence").first()
    tampered.data = {**tampered.data, "result": tampered.data["result"] % 6 + 1}
    tampered.save()
    with pytest.raises(CommandError, match=f"entry {tampered.sequence} differs"):
        call_command("resolve_battle", str(battle.pk), "--check")


# ---- record ----------------------------------------------------------------------------


def _parts(battle: Battle) -> dict[str, Participant]:
    """Participants by a readable key: class name + n, or the group name."""
    out: dict[str, Participant] = {}
    for p in Participant.objects.filter(side__battle=battle).select_related(
        "ship__ship_class", "light_units"
    ):
        if p.ship:
            n = sum(1 for k in out if k.startswith(p.ship.ship_class.name + " ")) + 1
            out[f"{p.ship.ship_class.name} {n}"] = p
        else:
            out[p.light_units.name] = p
    return out


def test_record_writes_table_results_onto_ships_and_participants(
    django_capture_on_commit_callbacks,
):
    battle = draft_skirmish()
    parts = _parts(battle)
    tsaara = parts["Tsaara 1"].ship
    tsaara.hull_lost, tsaara.status = 2, "damaged"
    tsaara.save()
    results = [
        {"participant": parts["Sa'ar 1"].pk, "fate": "destroyed"},
        {
            "participant": parts["Ra'am 1"].pk,
            "fate": "damaged",
            "hull_lost": 2,
            "armour_lost": 1,
            "systems_lost": ["fc-1"],
            "notes": "lost its fire control",
        },
        {"participant": parts["Tsaara 1"].pk, "fate": "fled", "hull_lost": 3, "crew_lost": 1},
        {"participant": parts["Nith"].pk, "fate": "damaged", "craft_lost": 4},
    ]
    with django_capture_on_commit_callbacks() as callbacks:
        battle_record(
            user=SYSTEM,
            battle=battle,
            results=results,
            outcome="Phalon hold.",
            winner="phalon",
            game_turns=6,
        )
    battle.refresh_from_db()
    assert (battle.status, battle.mode, battle.version, battle.game_turns) == (
        "concluded",
        "recorded",
        2,
        6,
    )
    assert (battle.winner.slug, battle.outcome) == ("phalon", "Phalon hold.")
    assert [s.faction.slug for s in battle.sides.all() if s.is_winner] == ["phalon"]
    assert len(callbacks) == 3  # the site refresh and the report, HTML and PDF

    parts = _parts(battle)
    saar = parts["Sa'ar 1"]
    hull = saar.ship.ship_class.hull_boxes
    assert (saar.fate, saar.hull_lost, saar.ship.status, saar.ship.hull_lost) == (
        "destroyed",
        hull,
        "destroyed",
        hull,
    )
    assert saar.ship.crew_lost == saar.ship.ship_class.crew_factors
    raam = parts["Ra'am 1"]
    assert (raam.hull_lost, raam.armour_lost, raam.systems_lost, raam.notes) == (
        2,
        1,
        ["fc-1"],
        "lost its fire control",
    )
    assert (raam.ship.status, raam.ship.systems_lost) == ("damaged", ["fc-1"])
    assert raam.crew_lost == raam.ship.crew_lost  # derived from the hull lost (D-9)
    tsaara = parts["Tsaara 1"]
    assert (tsaara.fate, tsaara.hull_lost, tsaara.crew_lost) == ("fled", 3, 1)
    assert (tsaara.ship.hull_lost, tsaara.ship.crew_lost) == (5, 1)
    assert (parts["Nith"].craft_lost, parts["Nith"].light_units.strength) == (4, 2)
    assert (parts["Huulth 1"].fate, parts["Huulth 1"].ship.status) == ("unharmed", "active")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            {"hull_lost": 99, "fate": "damaged"},
            r"results\[1\] \(participant \d+ .*\)\.hull_lost: 99",
        ),
        ({"systems_lost": ["warp-core"], "fate": "damaged"}, r"\.systems_lost: \['warp-core'\]"),
        ({"armour_lost": 40, "fate": "damaged"}, r"\.armour_lost: 40"),
        ({"hull_lost": 1}, r"\.fate: 'unharmed' but losses"),
        ({"fate": "vaporised"}, r"\.fate: 'vaporised'"),
        ({"hull_lost": -1, "fate": "damaged"}, r"\.hull_lost: -1"),
        ({"colour": "red"}, r"unknown field\(s\) \['colour'\]"),
        # craft_lost on a ship was once accepted (and dropped)
        (
            {"craft_lost": 5, "fate": "damaged"},
            r"results\[1\] \(participant \d+ .*\)\.craft_lost: 5, but a ship has no craft_lost",
        ),
    ],
)
def test_record_refuses_entries_the_ssd_does_not_allow(entry, message):
    battle = draft_skirmish()
    parts = _parts(battle)
    before = snapshot()
    results = [
        {"participant": parts["Sa'ar 1"].pk, "fate": "destroyed"},  # valid, must not stick
        {"participant": parts["Huulth 1"].pk, **entry},
    ]
    with pytest.raises(BattleActionError, match=message):
        battle_record(user=SYSTEM, battle=battle, results=results, outcome="", winner="qatzrin")
    assert snapshot() == before


def test_record_refuses_a_stranger_participant_a_twice_entered_one_and_a_foreign_winner():
    battle = draft_skirmish()
    other = draft_skirmish(battle.campaign, slug="other")
    stranger = Participant.objects.filter(side__battle=other).first()
    mine = Participant.objects.filter(side__battle=battle).first()
    before = snapshot()
    with pytest.raises(BattleActionError, match=r"results\[0\]\.participant: \d+ is not"):
        battle_record(
            user=SYSTEM,
            battle=battle,
            results=[{"participant": stranger.pk}],
            outcome="",
            winner=None,
        )
    with pytest.raises(BattleActionError, match="entered twice"):
        battle_record(
            user=SYSTEM,
            battle=battle,
            results=[{"participant": mine.pk}, {"participant": mine.pk}],
            outcome="",
            winner=None,
        )
    with pytest.raises(BattleActionError, match="winner: 'kongeriket-norge' is not a side"):
        battle_record(user=SYSTEM, battle=battle, results=[], outcome="", winner="kongeriket-norge")
    assert snapshot() == before


# ---- the report's turn log -------------------------------------------------------------


def test_the_report_gives_each_turn_a_summary_highlights_and_every_die():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    turns = report_context(battle)["turns"]
    rows = event_rows(battle=battle)
    assert [t["turn"] for t in turns] == list(range(0, battle.game_turns + 1))
    assert sum(len(t["log"]) for t in turns) == len(rows)
    assert sum(t["rolls"] for t in turns) == sum(1 for r in rows if r["kind"] == "roll")
    for t in turns[1:]:
        kinds = {e.kind for e in t["events"]}
        assert not kinds & {"roll", "orders", "move", "contact"}
        assert all(e.data.get("value") for e in t["events"] if e.kind == "fire")
        assert t["summary"].startswith(("initiative: ", "initiative\u202f: "))  # en, fr
    destroyed = [r for r in rows if r["kind"] == "damage-destroyed"]
    assert destroyed
    summaries = " ".join(t["summary"] for t in turns)
    for row in destroyed:
        assert row["summary"].split(" destroyed:")[0] in summaries


def test_a_ship_already_destroyed_or_fielded_twice_is_refused():
    battle = draft_skirmish()
    raam = Participant.objects.filter(side__battle=battle, ship__ship_class__name="Ra'am").first()
    # A ship once per side is a constraint of the table; on both sides the service refuses.
    other = battle.sides.exclude(pk=raam.side_id).first()
    Participant.objects.create(side=other, ship=raam.ship)
    with pytest.raises(BattleActionError, match=r"participant \d+ \(.*\): the ship takes part"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    Participant.objects.filter(side=other, ship=raam.ship).delete()
    Ship.objects.filter(pk=raam.ship_id).update(status="destroyed", hull_lost=8)
    before = snapshot()
    with pytest.raises(BattleActionError, match=rf"participant {raam.pk} .*is destroyed"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    assert snapshot() == before


def test_the_pdf_keeps_losses_and_a_few_volleys_per_turn_and_counts_the_rest():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    turns = report_context(battle)["turns"]
    full = {t["turn"]: list(t["events"]) for t in turns}
    trim_for_print(turns, volleys=1)
    for t in turns:
        kinds = [e.kind for e in t["events"]]
        assert kinds.count("fire") <= 1
        assert set(kinds) <= PRINT_KINDS | {"fire"}
        assert t["more"] == len(full[t["turn"]]) - len(t["events"])
        lost = [e for e in full[t["turn"]] if e.kind == "damage-destroyed"]
        assert all(e in t["events"] for e in lost)
    assert any(t["more"] for t in turns)


def test_a_battle_changed_by_someone_else_meanwhile_is_not_concluded_twice(monkeypatch):
    battle = draft_skirmish()

    real_options = resolve_module.rule_options

    def meanwhile(b):
        # Another request concludes the battle after ours has read it (no row lock).
        Battle.objects.filter(pk=b.pk).update(status="concluded", version=2)
        return real_options(b)

    monkeypatch.setattr(resolve_module, "rule_options", meanwhile)
    with pytest.raises(BattleActionError, match="changed while it was being concluded"):
        battle_resolve(user=SYSTEM, battle=battle, seed=SEED)
    battle.refresh_from_db()
    assert (battle.status, battle.version) == ("draft", 1)  # rolled back, the other one too
    assert not Event.objects.exists()
    assert set(Ship.objects.values_list("status", flat=True)) == {"active"}


def test_a_carriers_squadrons_fly_with_their_craft_left_and_their_losses_are_written():
    battle = draft_skirmish(qatzrin=("Kineret", "Tzayad"), phalon=("Tsaara", "Huulth"))
    kineret = Ship.objects.get(ship_class__name="Kineret")
    side = battle.sides.get(faction__slug="qatzrin")
    groups = {}
    for name, strength in (
        ("Spare", 0),  # first, yet it must not take the bay named for another group
        ("Long-range fighters 2", 2),
        ("Long-range fighters 1", 6),
    ):
        groups[name] = LightUnitGroup.objects.create(
            name=name,
            kind="long-range-fighter",
            faction=side.faction,
            fleet=kineret.fleet,
            carrier=kineret,
            size=6,
            strength=strength,
        )
        Participant.objects.create(side=side, light_units=groups[name])

    # SEED + 3: a battle in which the squadrons lose craft (since the §4 countdown reading,
    # none is lost in the SEED battle; since the AI launches with all its FCs,
    # none is lost in the SEED + 1 battle either; since the
    # readings — D-3 turning, D-30 dogfight dice, D-31 recovery — none in SEED + 2).
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED + 3)

    setup = Event.objects.get(battle=battle, kind="setup").data
    aboard = {
        bay: s["craft"] for bay, s in setup["ships"][f"ship-{kineret.pk}"]["squadrons"].items()
    }
    assert aboard == {"bay-b": 2, "bay-a": 6, "bay-c": 0}  # by name, then first free bays
    launches = {
        e.data["system"]: e.data
        for e in Event.objects.filter(battle=battle, kind="launch")
        if e.data["ship"] == f"ship-{kineret.pk}"
    }
    assert {"bay-a", "bay-b"} <= set(launches)
    assert "bay-c" not in launches  # its group has no craft left: an empty bay
    assert launches.get("bay-d", {"craft": 6})["craft"] == 6  # unpaired: as designed
    losses = {}
    for e in Event.objects.filter(battle=battle, kind="light-unit-losses").order_by("sequence"):
        losses[e.data["unit"]] = e.data["craft"]
    kineret.refresh_from_db()
    for name, bay in (("Long-range fighters 2", "bay-b"), ("Long-range fighters 1", "bay-a")):
        before = aboard[bay]
        part = Participant.objects.get(light_units=groups[name])
        group = part.light_units
        if bay in launches:
            assert launches[bay]["craft"] == before
            left = losses.get(launches[bay]["unit"], before)
        else:
            left = 0 if kineret.status == "destroyed" else before
        assert (part.craft_lost, group.strength) == (before - left, left)
        expected = "destroyed" if left == 0 else ("damaged" if left < before else "unharmed")
        assert part.fate == expected
    assert any(Participant.objects.filter(side=side, craft_lost__gt=0))
    assert battle_replay(battle=battle) == event_rows(battle=battle)


@pytest.mark.parametrize("turns", [-1, 51, 4294967296, 10**20, True, 2.5])
def test_record_refuses_a_game_turns_outside_0_to_the_turn_limit(turns):
    # 10**20 once reached the database (OverflowError, a 500 in the API).
    battle = draft_skirmish()
    before = snapshot()
    with pytest.raises(BattleActionError, match=r"game_turns: .*, expected a whole number 0–50"):
        battle_record(
            user=SYSTEM, battle=battle, results=[], outcome="", winner=None, game_turns=turns
        )
    assert snapshot() == before
    battle.refresh_from_db()
    assert battle.status == "draft"


def test_record_accepts_the_turn_limit():
    battle = draft_skirmish()
    battle_record(
        user=SYSTEM, battle=battle, results=[], outcome="", winner=None, game_turns=MAX_TURNS_LIMIT
    )
    battle.refresh_from_db()
    assert battle.game_turns == MAX_TURNS_LIMIT


# ---- resolve_battle --check on a tampered log ----------------------------------------


@pytest.fixture
def resolved():
    battle = draft_skirmish()
    battle_resolve(user=SYSTEM, battle=battle, seed=SEED, max_turns=4)
    return battle


def _check(battle: Battle) -> str:
    with pytest.raises(CommandError) as exc:
        call_command("resolve_battle", str(battle.pk), "--check")
    return str(exc.value)


def _tamper_setup(battle: Battle, change) -> None:
    setup = Event.objects.get(battle=battle, kind="setup")
    setup.data = change(setup.data)
    setup.save()


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda d: {}, "KeyError: 'fleets'"),
        (lambda d: [1, 2], "TypeError: list indices"),
        (lambda d: "abc", "TypeError: string indices"),
        (lambda d: {**d, "options": {"bogus": 1}}, "RulesError: unknown rule option 'bogus'"),
        # resolve_battle's own error (a ValueError subclass naming the field)
        (lambda d: {**d, "fleets": [[], []]}, "BadArgument: resolve_battle: both fleets"),
        (lambda d: {**d, "fleets": [["ghost"], d["fleets"][1]]}, "KeyError: 'ghost'"),
        (
            lambda d: {**d, "ships": {k: {**v, "design": {}} for k, v in d["ships"].items()}},
            "stored setup is unreadable (",
        ),
        (
            lambda d: {**d, "ships": {k: [1] for k in d["ships"]}},
            "TypeError: list indices",
        ),
    ],
)
def test_check_on_an_unreadable_setup_is_a_command_error(resolved, change, error):
    _tamper_setup(resolved, change)
    message = _check(resolved)
    assert message.startswith(f"battle {resolved.pk}: stored setup is unreadable (")
    assert error in message


def test_check_names_the_field_that_differs_and_both_values(resolved):
    roll = Event.objects.filter(battle=resolved, kind="roll").order_by("sequence").first()
    was = roll.data["result"]
    roll.data = {**roll.data, "result": was % 6 + 1}
    roll.save()
    message = _check(resolved)
    assert message.startswith(
        f"entry {roll.sequence} differs in data['result']: stored {was % 6 + 1}, replayed {was}"
    )
    roll.data = {**roll.data, "result": was}
    roll.save()

    fire = Event.objects.filter(battle=resolved).exclude(kind__in=["roll", "setup"]).last()
    fire.game_turn += 1
    fire.save()
    assert f"entry {fire.sequence} differs in game_turn: stored {fire.game_turn}, " in _check(
        resolved
    )
    fire.game_turn -= 1
    fire.data = {**fire.data, "extra": "x" * 500}
    fire.save()
    message = _check(resolved)
    assert f"entry {fire.sequence} differs in data['extra']: stored 'xxx" in message
    assert "replayed (missing)" in message and "…" in message and len(message) < 400
