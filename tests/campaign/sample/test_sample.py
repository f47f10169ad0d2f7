"""``load_sample``: the seed's factions, fleets and the Miranda battle, idempotent."""

import json
import shutil
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import translation

from battles.models import Battle, BattleSide, Participant, VictoryAward
from battles.reports.context import report_context
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from campaign.league.models import Campaign
from campaign.sample.loader import SAMPLE_DIR, SampleDataError, sample_load
from factions.models import Faction, Fleet, LightUnitGroup, Ship, ShipClass, Squadron, Territory
from factions.web.timeline import ship_timeline

MODELS = [
    Campaign,
    Faction,
    Territory,
    ShipClass,
    Fleet,
    Squadron,
    Ship,
    LightUnitGroup,
    Battle,
    BattleSide,
    Participant,
    VictoryAward,
]


def snapshot():
    """Every row of every model the load touches, every field (incl. timestamps)."""
    rows = {}
    for model in MODELS:
        for obj in model.objects.order_by("pk"):
            data = model_to_dict(obj)
            data.update({f.name: getattr(obj, f.name) for f in model._meta.concrete_fields})
            rows[(model.__name__, obj.pk)] = data
    return rows


@pytest.fixture(scope="module")
def loaded(django_db_setup, django_db_blocker):
    """The sample loaded once for the module (in a transaction rolled back at the end);
    each test runs in a savepoint of it, so tests that load again stay isolated."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield sample_load()
        transaction.set_rollback(True)


@pytest.fixture
def sample(loaded, db):
    return loaded


def test_running_it_twice_changes_nothing(sample):
    before = snapshot()
    assert len(before) > 100
    out = StringIO()
    call_command("load_sample", stdout=out)
    assert snapshot() == before
    assert "4 fleets, 42 ships, 16 light-unit groups, 2 battle(s), 46 participants" in (
        out.getvalue()
    )


def test_the_four_factions_and_norges_profile_and_territories(sample):
    assert sorted(Faction.objects.values_list("slug", "name")) == [
        ("collectif-g-plus", "Collectif G+"),
        ("kongeriket-norge", "Kongeriket Norge"),
        ("phalon", "Phalon"),
        ("qatzrin", "Qatzrin"),
    ]
    norge = Faction.objects.get(slug="kongeriket-norge")
    assert norge.population == "8 million"
    assert norge.capital == "New Bergen Station"
    assert norge.army_size == "168,000 combatants"
    assert norge.ruler == "Queen Kirstyn Poregden III"
    assert "Monarchy" in norge.government
    assert "Military Bloc" in norge.political_blocs
    assert "Bergen-Arendal" in norge.political_blocs
    assert "shipyards" in norge.economy
    territories = {t.name: t for t in norge.territories.all()}
    assert sorted(territories) == [
        "Arendal",
        "Barn Kalmar Station",
        "Kristiansand",
        "New Bergen Station",
        "Trøndelag",
    ]
    assert territories["Trøndelag"].kind == "moon"
    assert territories["Trøndelag"].population == "3 million"
    assert [n for n, t in territories.items() if t.has_shipyard] == ["Trøndelag"]
    assert territories["New Bergen Station"].kind == "station"
    for slug in ("qatzrin", "phalon", "collectif-g-plus"):
        assert Faction.objects.get(slug=slug).description
    assert set(sample.campaign.factions.values_list("slug", flat=True)) == {
        "kongeriket-norge",
        "qatzrin",
        "phalon",
        "collectif-g-plus",
    }
    assert sample.campaign.slug == "sample"


def test_qatzrin_5th_fleet_has_its_squadrons_commanders_and_named_ships(sample):
    fleet = Fleet.objects.get(faction__slug="qatzrin")
    assert fleet.admiral.name == "Admiral Yoje Nesmer"
    assert (fleet.admiral.rank, fleet.admiral.status) == ("admiral", "active")
    assert fleet.ships.count() == 13
    # The admiral leads the Darmila squadron from his flagship: one place at a time, the
    # fleet's, so the squadron has no commander of its own.
    assert dict(fleet.squadrons.values_list("name", "commander__name")) == {
        "Saryat support squadron": "Commander Esther Seddia",
        "Konyet attack squadron": "Commandant Detter Gorion",
        "Darmila attack squadron": None,
    }
    named = {s.name: s for s in fleet.ships.exclude(name="").select_related("ship_class")}
    assert {n: s.ship_class.name for n, s in named.items()} == {
        "Nimrod": "Yerushalayim-L",
        "Lydia": "Barak",
        "Namadira": "Sabra",
        "Nabra-Suleyman": "Kineret",
    }
    assert named["Nimrod"].squadron.name == "Konyet attack squadron"
    assert named["Lydia"].captain.name == "Commandant Benjamin Lansky"
    assert named["Lydia"].captain.faction == fleet.faction
    assert named["Nabra-Suleyman"].light_units.filter(kind="long-range-fighter").count() == 4
    saryat = fleet.squadrons.get(name__startswith="Saryat")
    assert sorted(saryat.ships.values_list("ship_class__name", flat=True)) == [
        "Ra'am",
        "Ra'am",
        "Sa'ar",
        "Sa'ar",
        "Sa'ar",
    ]
    assert set(fleet.ships.values_list("status", flat=True)) == {"active"}


def test_ganesha_squadrons_ride_their_carriers_and_the_colonies_have_batteries(sample):
    fleet = Fleet.objects.get(slug="g-plus-ganesha-long-range-force")
    assert fleet.ships.count() == 10
    kajna = fleet.ships.get(ship_class__name="Kajna")
    assert sorted(kajna.light_units.values_list("name", "kind")) == [
        ("Mijna 1", "fighter"),
        ("Mijna 2", "fighter"),
        ("Mijna 3", "fighter"),
        ("Najna", "long-range-fighter"),
    ]
    for brima in fleet.ships.filter(ship_class__name="Brima"):
        assert list(brima.light_units.values_list("unit_type", "kind")) == [("Avna", "interceptor")]
    batteries = fleet.light_units.filter(kind="battery").select_related("territory")
    assert [(b.unit_type, b.carrier_id, b.territory.kind) for b in batteries] == [
        ("beam-2", None, "colony")
    ] * 2


def test_phalon_fleet_has_petra_iv_fighters_based_at_the_station(sample):
    fleet = Fleet.objects.get(slug="phalon-68th-reprisal-fleet")
    assert fleet.ships.count() == 16
    groups = {g.name: g for g in fleet.light_units.select_related("territory")}
    assert sorted(groups) == ["Nith", "Tuus"]
    assert groups["Tuus"].kind == "heavy-fighter"
    assert all(g.carrier_id is None and g.territory.name == "Petra IV" for g in groups.values())


def test_every_ship_class_comes_from_the_catalogue(sample):
    used = ShipClass.objects.filter(ships__isnull=False).distinct()
    assert used.count() == 8 + 8 + 7 + 2
    assert all(c.design.get("format") == "admiralty-design/1" for c in used)


def test_the_miranda_battle_is_concluded_with_a_phalon_victory(sample):
    battle = Battle.objects.get(slug="colonisation-compromise", campaign__slug="sample")
    assert (battle.status, battle.game_turns, battle.winner.slug) == ("concluded", 5, "phalon")
    assert "Miranda" in battle.location
    assert battle.campaign_turn == 1
    assert [f"### Turn {n}" in battle.narrative for n in range(1, 7)] == [True] * 5 + [False]
    assert battle.outcome.startswith("Phalon victory")
    phalon, g_plus = battle.sides.order_by("order")
    assert (phalon.faction.slug, phalon.is_winner, g_plus.is_winner) == ("phalon", True, False)
    assert phalon.primary_objective == g_plus.primary_objective == "Destroy the enemy fleet."
    assert "Petra IV" in phalon.secondary_objectives
    assert "colonies" in g_plus.secondary_objectives
    assert "carrier" in phalon.analysis and "graser" in g_plus.analysis
    assert phalon.participants.count() == 18 and g_plus.participants.count() == 18
    # Its report is published with it, dated: the desk prints "Published <date>".
    assert battle.report_state == "published"
    assert battle.report_published_at == battle.concluded_at is not None


def test_the_miranda_battle_scores_its_victory_points(sample):
    """Loaded concluded, it writes the awards a conclusion writes (default rules): the
    victory, and 1 VP per 100 points of enemy ships destroyed. No member plays those
    factions: the rows name no player."""
    battle = Battle.objects.get(slug="colonisation-compromise", campaign__slug="sample")
    awards = VictoryAward.objects.filter(battle=battle).order_by("pk")
    rows = [(a.faction.slug, a.membership, a.turn, a.reason, a.count, a.points) for a in awards]
    assert rows == [
        ("phalon", None, 1, "victory", 1, 3),
        ("phalon", None, 1, "destroyed", 1448, 14),
        ("collectif-g-plus", None, 1, "defeat", 1, 0),
        ("collectif-g-plus", None, 1, "destroyed", 1315, 13),
    ]  # fmt: skip
    sample_load()  # a reload keeps them as they are
    assert list(VictoryAward.objects.filter(battle=battle).order_by("pk")) == list(awards)


def test_the_miranda_narrative_tells_a_french_reader_it_is_written_in_english(sample):
    """The French page showed the sample's English narrative with no word of its language."""
    battle = Battle.objects.get(slug="colonisation-compromise", campaign__slug="sample")
    assert battle.narrative_language == "en"
    with translation.override("fr"):
        assert report_context(battle)["narrative_note"] == "Écrit en anglais par le chroniqueur."
    with translation.override("en"):
        assert report_context(battle)["narrative_note"] == ""


@pytest.mark.parametrize(
    ("fleet", "cls", "status"),
    [
        ("phalon-68th-reprisal-fleet", "Ptath", ["destroyed"]),
        ("phalon-68th-reprisal-fleet", "Tyaph", ["destroyed"] * 3),
        ("phalon-68th-reprisal-fleet", "Dinth", ["destroyed"] * 2),
        ("phalon-68th-reprisal-fleet", "Huulth", ["active"]),
        ("g-plus-ganesha-long-range-force", "Garuda", ["destroyed"]),
        ("g-plus-ganesha-long-range-force", "Kajna", ["destroyed"]),
        ("g-plus-ganesha-long-range-force", "Brima", ["destroyed"] * 2),
        ("g-plus-ganesha-long-range-force", "Dreda", ["damaged"]),
        ("g-plus-ganesha-long-range-force", "Mahida", ["damaged"] * 2),
    ],
)
def test_ship_states_follow_the_report(sample, fleet, cls, status):
    ships = Ship.objects.filter(fleet__slug=fleet, ship_class__name=cls).select_related(
        "ship_class"
    )
    assert [s.status for s in ships] == status
    for ship in ships:
        part = ship.participations.get(side__battle__slug="colonisation-compromise")
        assert part.hull_lost == ship.hull_lost
        if ship.status == "destroyed":
            assert (ship.hull_left, ship.armour_left) == (0, 0)
            assert ship.crew_lost == ship.ship_class.crew_factors
            assert part.fate == "destroyed"
        elif ship.status == "damaged":
            assert 0 < ship.hull_lost < ship.ship_class.hull_boxes


def test_the_crippled_dreda_lost_its_drive_and_all_but_one_pack(sample):
    dreda = Ship.objects.get(ship_class__name="Dreda")
    weapons = {s["id"] for s in dreda.ship_class.design["systems"] if s["kind"] == "weapon"}
    assert "drive" in dreda.systems_lost
    assert weapons - set(dreda.systems_lost) == {"pack-b"}


def test_a_bad_data_file_names_the_field_and_leaves_the_database_as_it_was(sample, tmp_path):
    before = snapshot()
    data = tmp_path / "sample"
    shutil.copytree(SAMPLE_DIR, data)
    battle_file = data / "battle-colonisation-compromise.json"
    battle = json.loads(battle_file.read_text("utf-8"))
    battle["narrative"] = "changed"
    battle["sides"][0]["participants"]["ptath-9"] = {"fate": "destroyed"}
    battle_file.write_text(json.dumps(battle), "utf-8")
    with pytest.raises(SampleDataError, match=r"participants: \['ptath-9'\] are not units"):
        sample_load(directory=data)
    fleets = json.loads((data / "fleets.json").read_text("utf-8"))
    fleets["fleets"][0]["ships"][0]["class"] = "Sa'arr"
    (data / "fleets.json").write_text(json.dumps(fleets), "utf-8")
    with pytest.raises(SampleDataError, match=r"no class 'Sa'arr' of qatzrin"):
        sample_load(directory=data)
    assert snapshot() == before


def test_an_edit_to_the_battle_text_raises_its_version_once(sample, tmp_path):
    data = tmp_path / "sample"
    shutil.copytree(SAMPLE_DIR, data)
    battle_file = data / "battle-colonisation-compromise.json"
    battle = json.loads(battle_file.read_text("utf-8"))
    battle["outcome"] = "Phalon victory, narrowly."
    battle_file.write_text(json.dumps(battle), "utf-8")
    sample_load(directory=data)
    sample_load(directory=data)
    assert Battle.objects.get(slug="colonisation-compromise").version == 2


def test_the_skirmish_at_mieska_is_a_detachment_left_for_the_engine(sample):
    battle = Battle.objects.get(slug="skirmish-at-mieska", campaign__slug="sample")
    assert (battle.status, battle.mode, battle.seed, battle.campaign_turn) == (
        "draft",
        "resolved",
        20261130,
        2,
    )
    qatzrin, phalon = battle.sides.order_by("order")
    assert sorted(qatzrin.participants.values_list("ship__ship_class__name", flat=True)) == [
        "Ra'am",
        "Ra'am",
        "Sa'ar",
        "Sa'ar",
        "Sa'ar",
        "Tzayad",
        "Tzayad",
    ]
    assert sorted(phalon.participants.values_list("ship__ship_class__name", flat=True)) == [
        "Huulth",
        "Silith",
        "Tsaara",
    ]
    silith = phalon.participants.get(ship__ship_class__name="Silith")
    assert silith.ship.hull_lost == 2  # carries its Miranda damage into the skirmish
    assert not battle.events.exists()


def test_loading_again_keeps_what_the_engine_wrote(sample, django_capture_on_commit_callbacks):
    battle = Battle.objects.get(slug="skirmish-at-mieska")
    with django_capture_on_commit_callbacks():  # the report is not rendered here
        battle_resolve(user=SYSTEM, battle=battle)
    miranda = Battle.objects.get(slug="colonisation-compromise")
    miranda_before = [model_to_dict(p) for p in Participant.objects.filter(side__battle=miranda)]
    before = snapshot()
    assert Battle.objects.get(pk=battle.pk).status == "concluded"
    sample_load()
    assert snapshot() == before
    after = [model_to_dict(p) for p in Participant.objects.filter(side__battle=miranda)]
    assert after == miranda_before


def test_a_detachment_naming_a_ship_outside_the_fleet_is_refused(sample, tmp_path):
    data = tmp_path / "sample"
    shutil.copytree(SAMPLE_DIR, data)
    path = data / "battle-skirmish-at-mieska.json"
    spec = json.loads(path.read_text("utf-8"))
    spec["sides"][1]["ships"].append("ptath-7")
    path.write_text(json.dumps(spec), "utf-8")
    with pytest.raises(SampleDataError, match=r"sides\[1\]\.ships: \['ptath-7'\] are not in"):
        sample_load(directory=data)


def test_a_ship_hurt_in_the_sample_battle_has_a_life_that_matches_its_state(sample):
    """Built already damaged, a ship's life once read "before: 4 hull lost,
    after: 8" for a battle that cost it 4. Now built intact, then the battle's own history
    row: before = intact, after = the ship as it stands (no turn played yet)."""
    hurt = Participant.objects.filter(
        side__battle__slug="colonisation-compromise", ship__isnull=False, hull_lost__gt=0
    ).select_related("ship__ship_class")
    assert hurt.count() > 3
    for p in hurt:
        ship = p.ship
        (battle,) = [e for e in ship_timeline(ship) if e.kind == "battle"]
        assert battle.before == {
            "status": "active",
            "hull_lost": 0,
            "armour_lost": 0,
            "crew_lost": 0,
            "systems_lost": [],
        }, ship
        now = {f: getattr(ship, f) for f in battle.after}
        assert battle.after == now, ship
        assert [e.kind for e in ship_timeline(ship)] == ["built", "battle"]
