"""A fleet movement is cancelled only while it is queued (``fleet_move_cancel``): once
cancelled or carried out, cancelling it again is refused by name and writes nothing."""

from __future__ import annotations

import re

import pytest

from campaign.starmap.models import FleetPosition, StarSystem
from campaign.turns.closing import campaign_turn_close, campaign_turn_open
from campaign.turns.errors import TurnActionError
from campaign.turns.models import FleetMove
from campaign.turns.moves import fleet_move_cancel, fleet_move_order
from factions.models import Territory
from tests.db_rows import row_counts, rows_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def move(sample):
    """The Norwegian fleet's queued move to Kristiansand, turn 1 open, no star map."""
    s = sample
    FleetPosition.objects.filter(campaign=s.campaign).delete()
    StarSystem.objects.filter(campaign=s.campaign).delete()
    campaign_turn_open(campaign=s.campaign, user=s.organiser)
    destination = Territory.objects.get(slug="kristiansand")
    s.move = fleet_move_order(
        campaign=s.campaign, fleet=s.fleet, destination=destination, user=s.norge_player
    )
    return s


def refused(s, status: str) -> None:
    before, moves = row_counts(), rows_of(FleetMove)
    message = f"the movement of {s.fleet.name} is {status}: it cannot be cancelled"
    with pytest.raises(TurnActionError, match=f"^{re.escape(message)}$"):
        fleet_move_cancel(move=s.move, user=s.norge_player)
    assert row_counts() == before and rows_of(FleetMove) == moves


def test_a_cancelled_move_cannot_be_cancelled_again(move):
    assert fleet_move_cancel(move=move.move, user=move.norge_player).status == "cancelled"
    refused(move, "cancelled")


def test_a_move_carried_out_cannot_be_cancelled(move):
    campaign_turn_close(campaign=move.campaign, user=move.organiser)
    assert FleetMove.objects.get(pk=move.move.pk).status == "done"
    refused(move, "done")
