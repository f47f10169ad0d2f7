"""The turn page's board is built once per log, viewer, side names and language
(``battles.play.context.board_for``): asked again it is read from the cache, a turn
played shows at once, and one viewer's board is never served to another."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from battles.play.context import battle_viewer, board_for
from battles.play.game_turns import turn_play_advance, turn_play_start
from campaign.core.actors import SYSTEM
from factions.models import Faction
from tests.battles.battle_fixtures import SEED

pytestmark = pytest.mark.django_db


def _board(battle, user) -> tuple[dict, int]:
    with CaptureQueriesContext(connection) as queries:
        board = board_for(battle, battle_viewer(battle, user))
    return board, len(queries)


def _fresh(battle, user, settings) -> dict:
    """The board built without the cache."""
    seconds, settings.BATTLE_CACHE_SECONDS = settings.BATTLE_CACHE_SECONDS, 0
    try:
        return board_for(battle, battle_viewer(battle, user))
    finally:
        settings.BATTLE_CACHE_SECONDS = seconds


def test_the_board_is_built_once_and_follows_every_turn(duel, settings):
    battle, organiser = duel.battle, duel.cast.organiser
    turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=5)
    first, built = _board(battle, organiser)
    again, cached = _board(battle, organiser)
    assert again == first == _fresh(battle, organiser, settings)
    assert cached < built
    turn_play_advance(user=SYSTEM, battle=battle, force=True)
    played, _ = _board(battle, organiser)
    assert len(played["frames"]) > len(first["frames"])
    assert played == _fresh(battle, organiser, settings)


def test_each_viewer_and_language_has_its_own_board(duel, settings):
    battle, cast = duel.battle, duel.cast
    turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=5)
    turn_play_advance(user=SYSTEM, battle=battle, force=True)
    viewers = [cast.organiser, cast.qatzrin_player, duel.phalon_player]
    boards = {}
    for _ in range(2):  # the second round from the cache
        for user in viewers:
            for language in ("en", "fr"):
                with translation.override(language):
                    board, _ = _board(battle, user)
                    assert board == _fresh(battle, user, settings), (user, language)
                    boards[user.pk, language] = board
    # Fog: each side sees the board its way; the log is worded in each language.
    assert len({repr(b) for b in boards.values()}) == len(boards)


def test_a_renamed_side_shows_at_once(duel, settings):
    battle, organiser = duel.battle, duel.cast.organiser
    turn_play_start(user=SYSTEM, battle=battle, seed=SEED, max_turns=5)
    _board(battle, organiser)
    Faction.objects.filter(slug="phalon").update(name="Phalon Hegemony")
    board, _ = _board(battle, organiser)
    assert "Phalon Hegemony" in repr(board)
    assert board == _fresh(battle, organiser, settings)
