"""The other game systems in the product: helper pages, recording a battle, standings,
reports and the published site."""

import pytest
from django.urls import reverse
from django.utils import translation

from battles.models import Battle
from battles.models.other_games import OtherBattleError, SystemParticipant, SystemUnit
from battles.reports.context import report_context
from battles.services.other_games import SideInput, UnitInput, other_battle_record
from battles.standings import campaign_standings
from battles.systems.epic.data import ABILITIES
from campaign.core.actors import SYSTEM

pytestmark = pytest.mark.django_db

TRACKER = "/rules/starfinder/tracker/"


def add_ship(client, **kw):
    data = {
        "op": "add", "name": "Corsair", "tier": "3", "pc_tier": "4", "crew": "6",
        "posts": ["pilot", "gunner", "science", "engineer"],
        "piloting": "5", "gunnery": "7", "special_gunnery": "3",
    } | kw  # fmt: skip
    return client.post(TRACKER, data)


def test_tracker_two_rounds(client):
    assert add_ship(client).status_code == 302
    page = client.get(TRACKER).content.decode()
    assert "Corsair" in page and "3 / 3" in page  # tier gap -1: 3 tokens
    client.post(TRACKER, {"op": "spend", "ship": "0", "action": "manoeuvre", "arc": "forward"})
    client.post(TRACKER, {"op": "boost", "ship": "0", "kind": "one"})
    page = client.get(TRACKER).content.decode()
    assert "1 / 3" in page
    client.post(TRACKER, {"op": "next-round"})
    page = client.get(TRACKER).content.decode()
    assert "3 / 3" in page and 'id="round-no">Round 2' in page.replace("Manche", "Round")


def test_tracker_refusals_are_shown_not_500(client):
    add_ship(client, crew="1")
    client.post(TRACKER, {"op": "spend", "ship": "0", "action": "stunt"})
    response = client.post(TRACKER, {"op": "spend", "ship": "0", "action": "stunt"}, follow=True)
    assert response.status_code == 200
    assert "no token left" in response.content.decode()
    for bad in (
        {"op": "spend", "ship": "9"},
        {"op": "state", "ship": "0", "system": "x"},
        {"op": "??"},
    ):
        assert client.post(TRACKER, bad, follow=True).status_code == 200
    bad_form = add_ship(client, tier="0", crew="zero")
    assert bad_form.status_code == 400
    assert "crew" in bad_form.content.decode()


def test_tracker_survives_a_tampered_session(client):
    session = client.session
    session["sf_tracker"] = {"ships": [{"name": "X", "tier": "99"}, "junk"], "dc": "high"}
    session.save()
    assert client.get(TRACKER).status_code == 200


def test_boarding_calculator_odds_and_roll(client):
    params = {
        "attacker_crew": 100, "party_size": 10, "party_tier": "4", "party_training": "competent",
        "officer_bonus": 0, "target_crew": 100, "ship_tier": "6", "ship_training": "competent",
        "antipersonnel_level": 0, "heavy_antipersonnel_level": 0, "biometric_locks": "on",
        "countermeasures": 0, "first_attack": "on", "repel_bonus": 0,
    }  # fmt: skip
    page = client.get("/rules/starfinder/boarding/", params).content.decode()
    assert "9/20" in page and "1/10" in page  # the hand-worked size-10 row (test_sf_boarding)
    rolled = client.get("/rules/starfinder/boarding/", params | {"roll": "1", "seed": "7"})
    assert "boarding attack (10 boarders): d20=" in rolled.content.decode()
    too_big = client.get(
        "/rules/starfinder/boarding/", params | {"attacker_crew": 20, "party_size": 5}
    )
    assert "party_size: 5 is more than the cap of 4" in too_big.content.decode()


def test_attack_odds_and_epic_pages(client):
    page = client.get(
        "/rules/swsb/attack/",
        {
            "attack": 8,
            "defence": 14,
            "damage": 20,
            "range_squares": 0,
            "weapon": "standard",
            "screen": 4,
            "modifier": 0,
        },
    ).content.decode()
    assert "3/4" in page and "2429/200" in page
    far = client.get(
        "/rules/swsb/attack/",
        {
            "attack": 8,
            "defence": 14,
            "damage": 5,
            "range_squares": 5,
            "weapon": "missile",
            "screen": 0,
            "modifier": 0,
        },
    ).content.decode()
    assert "beyond a missile" in far
    epic = client.get(
        "/rules/epic/", {"shields": 2, "shots": 3, "to_hit": 4, "ap": 1}
    ).content.decode()
    assert "7/8" in epic and "1/8" in epic
    assert client.get("/rules/").status_code == 200


def record(cast, **kw):
    sides = [
        SideInput(
            faction=cast.norge,
            is_winner=True,
            units=[
                UnitInput(
                    name="Home One",
                    kind="class-1",
                    fate="damaged",
                    hull_lost=12,
                    critical_states=["fire"],
                )
            ],
        ),
        SideInput(
            faction=cast.qatzrin,
            units=[
                UnitInput(name="Devastator", kind="class-1", fate="destroyed", hull_lost=40),
                UnitInput(name="TIE 1", kind="fighter", fate="destroyed"),
            ],
        ),
    ]
    args = {
        "campaign": cast.campaign,
        "name": "Battle of Endor",
        "game_system": "sw-starship-battles",
        "sides": sides,
    }
    return other_battle_record(user=SYSTEM, **(args | kw))


def test_recorded_battle_flows_into_standings_and_report(cast, client):
    battle = record(cast)
    assert (battle.game_system, battle.status, battle.winner) == (
        "sw-starship-battles",
        "concluded",
        cast.norge,
    )
    rows = {f.name: f for f in campaign_standings(cast.campaign)}
    assert (rows["Kongeriket Norge"].won, rows["Qatzrin"].lost, rows["Qatzrin"].ships_lost) == (
        1,
        1,
        2,
    )
    page = client.get(battle.get_absolute_url()).content.decode()
    assert "Devastator" in page and "Star Wars Starship Battles" in page
    assert reverse("rules-swsb-attack") + f"?battle={battle.pk}" in page
    campaign_page = client.get(cast.campaign.get_absolute_url()).content.decode()
    assert "Battle of Endor" in campaign_page


def test_the_service_refuses_bad_input_and_writes_nothing(cast):
    with pytest.raises(OtherBattleError) as info:
        record(cast, game_system="ft-incursion")
    assert info.value.field == "game_system"
    same_faction = [SideInput(faction=cast.norge), SideInput(faction=cast.norge)]
    with translation.override("en"), pytest.raises(OtherBattleError) as info:
        record(cast, sides=same_faction)
    assert info.value.field == "sides"
    assert str(info.value) == "sides: two different factions fight a battle"
    with pytest.raises(OtherBattleError) as info:  # French, the league's default language
        record(cast, sides=same_faction)
    assert str(info.value) == "camps\u202f: une bataille oppose deux factions différentes"
    assert not Battle.objects.exists() and not SystemParticipant.objects.exists()


RECORD_POST = {
    "name": "Skirmish at Yavin", "game_system": "sw-starship-battles", "winner": "b",
    "outcome": "The rebels hold", "narrative": "", "location": "Yavin",
    "units-TOTAL_FORMS": "2", "units-INITIAL_FORMS": "0", "units-MIN_NUM_FORMS": "0",
    "units-MAX_NUM_FORMS": "60",
    "units-0-side": "a", "units-0-name": "Star Destroyer", "units-0-fate": "destroyed",
    "units-0-hull_lost": "40", "units-0-critical_states": ["fire", "bridge-damaged"],
    "units-1-side": "b", "units-1-name": "", "units-1-fate": "unharmed", "units-1-hull_lost": "0",
}  # fmt: skip


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("organiser", 200),
        # Members who do not organise: 403; anyone outside the campaign: 404.
        ("norge_player", 403),
        ("qatzrin_player", 403),
        ("chronicler", 403),
        ("outsider", 404),
        (None, 302),
    ],
)
def test_record_page_permissions(cast, client, who, status):
    if who:
        client.force_login(getattr(cast, who))
    url = reverse("other-battle-new", args=[cast.campaign.slug])
    assert client.get(url).status_code == status
    data = RECORD_POST | {"side_a": cast.qatzrin.pk, "side_b": cast.norge.pk}
    response = client.post(url, data)
    assert response.status_code == (302 if who == "organiser" else status)
    assert Battle.objects.exists() == (who == "organiser")


def test_record_page_names_the_bad_field(cast, client):
    client.force_login(cast.organiser)
    url = reverse("other-battle-new", args=[cast.campaign.slug])
    data = RECORD_POST | {
        "side_a": cast.qatzrin.pk,
        "side_b": cast.norge.pk,
        "units-0-critical_states": "hyperdrive",
    }
    response = client.post(url, data)
    # The states are a select of the system's: another value is refused on that field.
    assert response.status_code == 400
    errors = response.context["units"].forms[0].errors
    assert list(errors) == ["critical_states"] and "hyperdrive" in errors["critical_states"][0]
    assert not Battle.objects.exists()
    same = client.post(url, RECORD_POST | {"side_a": cast.norge.pk, "side_b": cast.norge.pk})
    assert same.status_code == 400 and not Battle.objects.exists()


def test_standings_queries_stay_flat(cast, django_assert_num_queries):
    record(cast)
    # Sides, units, other systems' units, the fleets the viewer sees, the factions.
    with django_assert_num_queries(5):
        list(campaign_standings(cast.campaign))
    record(cast, name="Second battle")
    with django_assert_num_queries(5):
        rows = {f.name: f for f in campaign_standings(cast.campaign)}
    assert rows["Qatzrin"].ships_lost == 4


def test_roster_units_are_checked_against_their_rules(cast):
    from django.core.exceptions import ValidationError

    ok = SystemUnit(
        faction=cast.norge,
        game_system="starfinder",
        name="Corsair",
        stats={"tier": "1/2", "crew": 6},
    )
    ok.full_clean()
    for system, stats, abilities, field in (
        ("starfinder", {"tier": "25", "crew": 6}, [], "stats"),
        (
            "sw-starship-battles",
            {
                "rank": "class-1",
                "hull": 40,
                "defence": 14,
                "screen_value": 4,
                "split": {"front": 3},
            },
            [],
            "stats",
        ),
        ("epic", {}, ["energy-shields", "void-shield"], "abilities"),
    ):
        unit = SystemUnit(
            faction=cast.norge, game_system=system, name="X", stats=stats, abilities=abilities
        )
        with pytest.raises(ValidationError) as info:
            unit.full_clean()
        assert field in info.value.message_dict


def test_record_page_takes_a_roster_unit(cast, client):
    isd = SystemUnit.objects.create(
        faction=cast.qatzrin, game_system="sw-starship-battles", name="Chimaera", kind="class-1",
        stats={"rank": "class-1", "hull": 40, "defence": 14, "screen_value": 4},
    )  # fmt: skip
    client.force_login(cast.organiser)
    url = reverse("other-battle-new", args=[cast.campaign.slug])
    data = RECORD_POST | {
        "side_a": cast.qatzrin.pk,
        "side_b": cast.norge.pk,
        "units-0-name": "",
        "units-0-unit": isd.pk,
    }
    assert client.post(url, data).status_code == 302
    result = SystemParticipant.objects.get()
    assert (result.unit, result.name, result.kind, result.fate) == (
        isd,
        "Chimaera",
        "class-1",
        "destroyed",
    )
    wrong_side = data | {"side_a": cast.norge.pk, "side_b": cast.qatzrin.pk, "name": "Another"}
    response = client.post(url, wrong_side)
    assert (
        response.status_code == 400
        and "Chimaera n’est pas une unité sw-starship-battles de Kongeriket Norge"
        in response.content.decode()
    )


def test_report_of_an_other_system_battle_costs_the_same_queries_with_more_units(cast):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(battle) -> int:
        with CaptureQueriesContext(connection) as ctx:
            context = report_context(Battle.objects.get(pk=battle.pk))
        return len(ctx.captured_queries), context

    small, context = queries(record(cast))
    assert [r["name"] for r in context["sides"][1]["participants"]] == ["Devastator", "TIE 1"]
    assert context["losses"][1][1]["destroyed"] == 2
    many = [UnitInput(name=f"TIE {i}", fate="destroyed") for i in range(30)]
    big_battle = record(
        cast,
        name="Big",
        sides=[
            SideInput(faction=cast.norge, is_winner=True),
            SideInput(faction=cast.qatzrin, units=many),
        ],
    )
    big, _ = queries(big_battle)
    assert big == small


@pytest.mark.parametrize(
    "who", ["organiser", "norge_player", "qatzrin_player", "chronicler", "outsider", None]
)
def test_helper_pages_are_open_but_never_name_a_draft_battle(cast, client, who):
    draft = Battle.objects.create(
        campaign=cast.campaign, name="Secret ambush", slug="secret", game_system="starfinder"
    )
    if who:
        client.force_login(getattr(cast, who))
    assert client.get("/rules/").status_code == 200
    pages = (TRACKER, "/rules/starfinder/boarding/", "/rules/swsb/attack/", "/rules/epic/")
    for url in pages:
        response = client.get(url, {"battle": draft.pk})
        assert response.status_code == 200
        # The link back to the battle: only for who may see it (a draft: its organiser).
        assert ("Secret ambush" in response.content.decode()) == (who == "organiser")


def test_tracker_takes_a_ship_from_the_starfinder_roster(cast, client):
    unit = SystemUnit.objects.create(
        faction=cast.qatzrin, game_system="starfinder", name="Drake raider",
        stats={"tier": "2", "crew": 2, "bonuses": {"gunnery": 6}},
    )  # fmt: skip
    client.post(TRACKER, {"op": "add-roster", "unit": unit.pk, "pc_tier": "3"})
    page = client.get(TRACKER).content.decode()
    assert "Drake raider" in page and "2 / 2" in page  # gap -1 gives 3 tokens, crew 2 caps it
    response = client.post(
        TRACKER, {"op": "add-roster", "unit": "999", "pc_tier": "3"}, follow=True
    )
    assert "message-error" in response.content.decode()  # the refusal, named: "unit: …"


def test_the_epic_abilities_read_in_the_pages_language(client):
    fr = client.get("/rules/epic/").content.decode()  # French, the default language
    assert "Peut tirer en tir indirect (règles de base p. 37)." in fr
    assert "May fire indirectly" not in fr and "A hit of AP 1 or more" not in fr
    assert "<td>arme</td>" in fr and "<td>weapon</td>" not in fr
    assert all(a.summary_fr for a in ABILITIES.values())
    with translation.override("en"):
        en = client.get("/rules/epic/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "May fire indirectly (core rules p. 37)." in en and "<td>weapon</td>" in en
