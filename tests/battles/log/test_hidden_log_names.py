"""A hidden ship with no name is "<class> <n>" in the engine's summaries
("… flies towards Vishnu 2") without its id in the data; no rendered line may say it."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from battles.log.names import hidden_unit_names
from battles.models import Battle, Event
from battles.reports.context import report_context
from factions.models import Fleet, Ship
from tests.battles.reports.report_fixtures import make_battle


@pytest.fixture
def battle(db):
    battle = make_battle()
    Fleet.objects.filter(slug="test-ganesha").update(hidden=True)
    hidden = Ship.objects.get(name="Vishnu Second")
    Ship.objects.filter(pk=hidden.pk).update(name="")
    Battle.objects.filter(pk=battle.pk).update(mode=Battle.Mode.RESOLVED)
    battle.refresh_from_db()
    ships = {f"ship-{hidden.pk}": {"name": "Vishnu 2", "side": "collectif-g-plus"}}
    Event.objects.create(
        battle=battle,
        sequence=0,
        game_turn=0,
        kind="setup",
        summary="set-up",
        data={"ships": ships},
    )
    Event.objects.create(
        battle=battle,
        sequence=120,
        game_turn=2,
        kind="light-unit-move",
        summary="ship-0.hangar-1 (fighter ×6) flies 12.0 mu towards Vishnu 2",
        data={"unit": "ship-0.hangar-1", "flown": 12.0},
    )
    Event.objects.create(
        battle=battle,
        sequence=121,
        game_turn=2,
        kind="light-unit-move",
        summary="ship-0.hangar-2 (missile ×1) flies 3.0 mu towards Silith One",
        data={"unit": "ship-0.hangar-2", "flown": 3.0},
    )
    return battle


def test_the_engine_names_of_hidden_units_are_known(battle):
    hidden = Ship.objects.get(fleet__slug="test-ganesha", name="")
    events = list(battle.events.all())
    assert hidden_unit_names(events, {f"ship-{hidden.pk}"}) == {"Vishnu 2"}
    assert hidden_unit_names(events, set()) == set()


def test_a_line_naming_an_unnamed_hidden_ship_by_its_class_is_left_out(battle):
    html = render_to_string("reports/battle.html", report_context(battle))
    assert "Vishnu 2" not in html
    assert "towards Silith One" in html  # a line about a visible target stays


def test_those_who_see_the_fleet_keep_the_line(battle, django_user_model):
    staff = django_user_model.objects.create_user("boss", is_staff=True)
    html = render_to_string("reports/battle.html", report_context(battle, user=staff))
    assert "towards Vishnu 2" in html
