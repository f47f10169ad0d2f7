"""Export → import into an empty instance → export gives the same bytes, and what was
imported works: the battle log names the imported ships, the closed turn reopens."""

from __future__ import annotations

import json

import pytest

from battles.models import Event
from campaign.core.actors import SYSTEM
from campaign.exchange.export import campaign_export, document_dumps
from campaign.exchange.load import campaign_import
from campaign.league.models import Campaign, Membership
from campaign.turns.closing import campaign_turn_reopen
from campaign.turns.models import LedgerEntry, RepairOrder
from factions.models import Ship
from tests.campaign.exchange.conftest import empty_instance

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _move(campaign):
    text = document_dumps(campaign_export(campaign=campaign, user=SYSTEM))
    old_ship_pks = set(Ship.objects.values_list("pk", flat=True))
    empty_instance()
    result = campaign_import(document=json.loads(text), user=SYSTEM)
    return text, result, old_ship_pks


@pytest.fixture
def moved(played):
    """The played sample exported, the instance emptied, the document imported."""
    return _move(played.campaign)


def test_export_import_export_gives_the_same_document(moved):
    text, result, old_ship_pks = moved
    again = document_dumps(campaign_export(campaign=result.campaign, user=SYSTEM))
    assert again == text
    # The database ids are new ones: the document held none of the old.
    assert old_ship_pks.isdisjoint(Ship.objects.values_list("pk", flat=True))


def test_the_document_holds_the_whole_played_campaign(moved):
    text, result, _ = moved
    document = json.loads(text)
    assert (document["schema"], document["version"]) == ("admiralty-campaign", 1)
    assert result.rows == {name: len(document[name]) for name in result.rows}
    assert (result.rows["factions"], result.rows["ships"], result.rows["battles"]) == (4, 42, 2)
    assert (result.rows["turns"], result.rows["repair_orders"], result.rows["ledger"]) == (
        2,
        7,
        16,
    )
    assert (result.rows["constructions"], result.rows["fleet_moves"]) == (1, 0)
    # The star map, the fog, commanders and scoring travel too.
    assert {k: result.rows[k] for k in (
        "star_systems", "star_links", "territory_placements", "fleet_positions", "map_moves",
        "sightings", "commanders", "renown_awards", "victory_awards", "strength_snapshots",
        "scoring_rules",
    )} == {
        "star_systems": 7, "star_links": 9, "territory_placements": 9, "fleet_positions": 4,
        "map_moves": 3, "sightings": 2, "commanders": 4, "renown_awards": 6,
        "victory_awards": 10, "strength_snapshots": 4, "scoring_rules": 1,
    }  # fmt: skip
    assert result.rows["events"] == Event.objects.count() == 644
    assert sorted(result.users_created) == [
        "chronicler",
        "norge_player",
        "organiser",
        "qatzrin_player",
    ]
    narrative = [b["narrative"] for b in document["battles"] if b["narrative"].startswith("Les")]
    assert narrative == ["Les *Phalon* ont tenu Miranda."]
    assert Membership.objects.filter(campaign=result.campaign).count() == 4
    # People come by user name; accounts made here have no usable password yet.
    organiser = Membership.objects.get(campaign=result.campaign, role="organiser").user
    assert (organiser.username, organiser.has_usable_password()) == ("organiser", False)
    assert Campaign.objects.get().factions.count() == 4


def test_the_imported_log_names_the_imported_ships(moved):
    _, result, _ = moved
    setup = Event.objects.get(battle__slug="skirmish-at-mieska", kind="setup")
    ships = setup.data["ships"]
    assert len(ships) == 10
    for ref, entry in ships.items():
        ship = Ship.objects.select_related("ship_class").get(pk=int(ref.removeprefix("ship-")))
        assert ship.pk == entry["ship"]
        assert ship.ship_class.name == entry["class"]
    orders = Event.objects.filter(battle__slug="skirmish-at-mieska", kind="orders").first()
    assert Ship.objects.filter(pk=int(orders.data["ship"].removeprefix("ship-"))).exists()


def test_the_imported_closed_turn_reopens(turn_closed):
    _, result, _ = _move(turn_closed.campaign)
    campaign = result.campaign
    repaired = RepairOrder.objects.filter(campaign=campaign, hull_done__gt=0).count()
    assert repaired == 4
    before = LedgerEntry.objects.filter(campaign=campaign).count()
    turn = campaign_turn_reopen(campaign=campaign, user=SYSTEM, turn=1)
    assert turn.status == "open"
    assert RepairOrder.objects.filter(campaign=campaign, hull_done__gt=0).count() == 0
    # The close's income entries (one a faction) are undone; the rest stays.
    assert LedgerEntry.objects.filter(campaign=campaign).count() == before - 4


def test_people_here_are_reused_and_newcomers_get_an_account(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-12345!")
    document = {
        "schema": "admiralty-campaign",
        "version": 1,
        "campaign": {"name": "New league", "slug": "new-league"},
        "factions": [{"name": "Zeta", "slug": "zeta"}],
        "memberships": [
            {"user": "alice", "role": "organiser", "faction": None},
            {"user": "bob", "role": "player", "faction": "zeta"},
        ],
    }
    result = campaign_import(document=document, user=SYSTEM)
    assert result.users_created == ["bob"]
    members = Membership.objects.filter(campaign=result.campaign).order_by("pk")
    assert [(m.user.username, m.role, m.faction and m.faction.slug) for m in members] == [
        ("alice", "organiser", None),
        ("bob", "player", "zeta"),
    ]
    assert members[0].user == alice and alice.has_usable_password()
    assert not members[1].user.has_usable_password()
