"""``can_see_fleet`` (the fleet page's and API's check on a fleet read by slug)
agrees with ``visible_fleets`` for every kind of user and fleet."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from factions.access import can_see_fleet, visible_fleets
from factions.models import Fleet


def test_can_see_fleet_is_visible_fleets(world, rival):
    cast = world.cast
    users = [None, AnonymousUser(), rival.staff, rival.organiser] + [
        getattr(cast, name)
        for name in ("organiser", "norge_player", "qatzrin_player", "chronicler", "outsider")
    ]
    fleets = list(Fleet.objects.select_related("faction"))
    assert {f.hidden for f in fleets} == {True, False}
    for user in users:
        visible = set(visible_fleets(user).values_list("pk", flat=True))
        assert {f.pk for f in fleets if can_see_fleet(user, f)} == visible, user
    # the expected shape, not only agreement: a player sees their own hidden fleet only
    player = {f.slug for f in fleets if can_see_fleet(cast.norge_player, f)}
    assert "norge-shadow" in player and "qatzrin-shadow" not in player
