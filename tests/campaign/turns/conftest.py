"""The sample campaign with its cast, ready for turns: players of Norway and Qatzrin."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleSide, Participant


@pytest.fixture
def sample(db, django_user_model):
    """The sample campaign loaded, with an organiser, a Norwegian and a Qatzrin player, a
    chronicler and an outsider; a second campaign ``other`` with its own organiser."""
    from campaign.league.models import Campaign, Membership
    from campaign.sample.loader import sample_load
    from factions.models import Faction

    campaign = sample_load().campaign
    norge = Faction.objects.get(slug="kongeriket-norge")
    qatzrin = Faction.objects.get(slug="qatzrin")
    users = {
        name: django_user_model.objects.create_user(name, password="pw-12345!")
        for name in (
            "organiser",
            "norge_player",
            "qatzrin_player",
            "chronicler",
            "outsider",
            "other_org",
        )
    }
    M = Membership.objects
    M.create(campaign=campaign, user=users["organiser"], role="organiser")
    M.create(campaign=campaign, user=users["norge_player"], role="player", faction=norge)
    M.create(campaign=campaign, user=users["qatzrin_player"], role="player", faction=qatzrin)
    M.create(campaign=campaign, user=users["chronicler"], role="chronicler")
    other = Campaign.objects.create(name="Other league", slug="other")
    M.create(campaign=other, user=users["other_org"], role="organiser")

    class S:
        pass

    s = S()
    s.campaign, s.norge, s.qatzrin, s.other = campaign, norge, qatzrin, other
    for k, v in users.items():
        setattr(s, k, v)
    s.fleet = norge.fleets.get()
    s.yard = norge.territories.get(slug="trondelag")
    s.ships = {sh.name or f"{sh.ship_class.name}-{sh.pk}": sh for sh in s.fleet.ships.all()}
    return s


def norway_battle(campaign, fleet, results_by_ship, *, name="Raid on Trøndelag"):
    """A draft battle of the Norwegian fleet against the Qatzrin 5th, recorded with
    ``results_by_ship`` ({ship: {fate, hull_lost, …}}); returns the concluded battle."""
    from battles.services import battle_record
    from factions.models import Fleet

    battle = Battle.objects.create(
        campaign=campaign, name=name, slug=name.lower().replace(" ", "-")[:50]
    )
    side = BattleSide.objects.create(battle=battle, faction=fleet.faction, fleet=fleet, order=0)
    qfleet = Fleet.objects.get(slug="qatzrin-5th-long-range-incursion-fleet")
    BattleSide.objects.create(battle=battle, faction=qfleet.faction, fleet=qfleet, order=1)
    afloat = fleet.ships.exclude(status__in=["destroyed", "captured"])
    parts = {s.pk: Participant.objects.create(side=side, ship=s) for s in afloat}
    results = [{"participant": parts[ship.pk].pk, **r} for ship, r in results_by_ship.items()]
    return battle_record(battle=battle, results=results, outcome="Raid repulsed", winner=None)
