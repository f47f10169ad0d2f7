"""The sensor-reach rule (``campaign.fog.reach``), exact cases on a small map:

1 —L12— 2 —L23— 3 —L34— 4
        |
       L25
        |
        5
"""

from campaign.fog.reach import Presence, Reach, presence_of, sensor_reach

LINKS = {12: (1, 2), 23: (2, 3), 34: (3, 4), 25: (2, 5)}


def reach(**presence):
    return sensor_reach(Presence(**{k: frozenset(v) for k, v in presence.items()}), LINKS)


def test_present_in_a_system_watches_it_and_its_lanes():
    assert reach(systems={2}) == Reach(frozenset({2}), frozenset({12, 23, 25}))


def test_a_station_or_advanced_sensors_watch_one_link_further():
    assert reach(systems={2}, far_systems={2}) == Reach(
        frozenset({1, 2, 3, 5}), frozenset({12, 23, 25})
    )
    assert reach(systems={4}, far_systems={4}) == Reach(frozenset({3, 4}), frozenset({34}))


def test_not_two_links_further():
    assert 4 not in reach(systems={2}, far_systems={2}).systems


def test_a_fleet_on_a_link_watches_that_link_only():
    assert reach(links={34}) == Reach(frozenset(), frozenset({34}))


def test_nothing_on_the_map_sees_nothing():
    assert reach() == Reach(frozenset(), frozenset())


def test_covers():
    r = reach(systems={2})
    assert r.covers(system=2) and not r.covers(system=3)
    assert r.covers(link=23) and not r.covers(link=34)
    assert not r.covers()


def test_presence_of_territories_and_fleets():
    p = presence_of(
        territories=[(1, False), (4, True)],
        fleets=[(2, None, True), (3, None, False), (None, 25, True)],
    )
    assert p == Presence(frozenset({1, 2, 3, 4}), frozenset({2, 4}), frozenset({25}))
