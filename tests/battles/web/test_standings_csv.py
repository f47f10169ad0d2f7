"""The standings as CSV: the campaign page's table, counted over what the viewer may see."""

import csv
import io

from tests.conftest import client_for

URL = "/campaigns/test-league/standings.csv"


def rows(response):
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="test-league-standings.csv"'
    return list(csv.reader(io.StringIO(response.content.decode("utf-8").lstrip("\ufeff"))))


def test_the_public_does_not_count_a_hidden_fleets_loss(world):
    # Fjordheim: Qatzrin (public fleet) beat Norge, whose lost ship was of a hidden fleet.
    assert rows(client_for(world.cast, None, None).get(URL)) == [
        ["faction", "battles", "won", "lost", "ships_lost", "light_units_lost"],
        ["Qatzrin", "1", "1", "0", "0", "0"],
        ["Kongeriket Norge", "1", "0", "1", "0", "0"],
    ]


def test_who_may_see_the_hidden_fleet_counts_its_loss(world):
    got = rows(client_for(world.cast, None, "norge_player").get(URL))
    assert got[2] == ["Kongeriket Norge", "1", "0", "1", "1", "0"]


def test_an_unknown_campaign_is_404(db):
    assert client_for(None, None, None).get("/campaigns/nowhere/standings.csv").status_code == 404
