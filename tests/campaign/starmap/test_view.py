"""``map_view``: what each reader sees of the map, and its query count."""

import pytest
from django.contrib.auth.models import AnonymousUser

from campaign.starmap.models import StarSystem
from campaign.starmap.view import map_view


def names(view):
    return sorted(f.name for f in view.fleets)


@pytest.mark.parametrize(
    ("who", "fleets"),
    [
        ("organiser", ["Home Fleet", "Raiders", "Shadow"]),
        ("norge_player", ["Home Fleet", "Raiders"]),
        ("qatzrin_player", ["Home Fleet", "Raiders", "Shadow"]),
        ("chronicler", ["Home Fleet", "Raiders"]),
        ("outsider", ["Home Fleet", "Raiders"]),
        (None, ["Home Fleet", "Raiders"]),
    ],
)
def test_who_sees_which_fleet(starmap, who, fleets):
    user = getattr(starmap, who) if who else None
    assert names(map_view(starmap.campaign, user)) == fleets


def test_anonymous_user_is_the_public(starmap):
    assert names(map_view(starmap.campaign, AnonymousUser())) == ["Home Fleet", "Raiders"]


def test_systems_links_holders(starmap):
    view = map_view(starmap.campaign, None)
    assert [(s.name, s.x, s.y, s.holder_name) for s in view.systems] == [
        ("Deneb", 400, 400, ""),
        ("Far", 900, 900, ""),
        ("Rigel", 700, 100, "Qatzrin"),
        ("Sol", 100, 100, "Kongeriket Norge"),
        ("Vega", 400, 100, ""),
    ]
    assert [(lk.a_name, lk.b_name, lk.travel_turns) for lk in view.links] == [
        ("Rigel", "Deneb", 1),
        ("Sol", "Deneb", 1),
        ("Sol", "Vega", 1),
        ("Vega", "Rigel", 2),
    ]
    sol = view.system(starmap.sol.pk)
    assert [(t.name, t.has_shipyard) for t in sol.territories] == [("Oslo Station", True)]
    home = view.fleets_in(starmap.sol.pk)[0]
    assert (home.name, home.faction_name, home.ships, home.in_transit) == (
        "Home Fleet",
        "Kongeriket Norge",
        1,
        False,
    )
    assert view.sightings == [] and view.sees_orders is False


def test_query_count_flat_as_systems_grow(starmap, django_assert_max_num_queries):
    with django_assert_max_num_queries(12) as small:
        map_view(starmap.campaign, starmap.norge_player)
    StarSystem.objects.bulk_create(
        StarSystem(campaign=starmap.campaign, name=f"S{i}", slug=f"s{i}", x=i, y=i)
        for i in range(100)
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        view = map_view(starmap.campaign, starmap.norge_player)
    assert len(view.systems) == 105
