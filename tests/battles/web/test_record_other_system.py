"""Recording a battle of another game system: the roster select holds the sides' units
of that system, critical states are a select of the system's own, and its battle page
shows that system's columns, no empty timeline, and a reopen button in its own words."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from battles.models.other_games import SystemUnit
from battles.services.other_games import SideInput, UnitInput, other_battle_record
from campaign.core.actors import SYSTEM
from factions.models import Faction

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def _unit(faction, system, name, kind="class-1"):
    stats = {"rank": "class-1", "hull": 40, "defence": 14, "screen_value": 4}
    return SystemUnit.objects.create(
        faction=faction, game_system=system, name=name, kind=kind, stats=stats
    )


def _options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    assert select, name
    return re.findall(r"<option value=\"[^\"]+\"[^>]*>([^<]*)</option>", select.group(1))


def test_the_roster_select_holds_the_chosen_sides_units_of_the_chosen_system(cast, client):
    third = Faction.objects.create(name="Phalon", slug="phalon")
    cast.campaign.factions.add(third)
    _unit(cast.qatzrin, "sw-starship-battles", "Chimaera")
    _unit(cast.norge, "sw-starship-battles", "Home One", kind="")
    _unit(third, "sw-starship-battles", "Not a side")
    SystemUnit.objects.create(
        faction=cast.qatzrin, game_system="epic", name="Ground base", stats={"shields": 2}
    )
    client.force_login(cast.organiser)
    url = reverse("other-battle-new", args=[cast.campaign.slug])
    choice = {"game_system": "sw-starship-battles", "side_a": cast.qatzrin.pk}
    html = client.get(url, choice | {"side_b": cast.norge.pk}, HTTP_HX_REQUEST="true").content
    assert _options(html.decode(), "units-0-unit") == [
        "Home One — Kongeriket Norge",
        "Chimaera (class-1) — Qatzrin",
    ]
    # Without script, the button does the same and refuses nothing yet.
    html = client.post(url, choice | {"side_b": third.pk, "choose_sides": "1"})
    assert html.status_code == 200
    assert _options(html.content.decode(), "units-3-unit") == [
        "Not a side (class-1) — Phalon",
        "Chimaera (class-1) — Qatzrin",
    ]


def test_critical_states_are_a_select_of_the_systems_own(cast, client):
    client.force_login(cast.organiser)
    url = reverse("other-battle-new", args=[cast.campaign.slug])
    html = client.get(url, {"game_system": "sw-starship-battles"}).content.decode()
    states = _options(html, "units-0-critical_states")
    assert "fire" in states and "bridge-damaged" in states and "hyperdrive" not in states
    assert re.search(r'<select name="units-0-critical_states"[^>]*multiple', html)
    starfinder = client.get(url, {"game_system": "starfinder"}).content.decode()
    assert "engines:glitching" in _options(starfinder, "units-0-critical_states")
    # Epic lists none: its bases keep free labels.
    epic = client.get(url, {"game_system": "epic"}).content.decode()
    assert '<input type="text" name="units-0-critical_states"' in epic


def _record(cast, system):
    sides = [
        SideInput(
            faction=cast.norge,
            is_winner=True,
            units=[UnitInput(name="Home One", kind="class-1", fate="damaged", hull_lost=12)],
        ),
        SideInput(
            faction=cast.qatzrin,
            units=[UnitInput(name="Devastator", kind="class-1", fate="destroyed", hull_lost=40)],
        ),
    ]
    return other_battle_record(
        campaign=cast.campaign, name="Clash", game_system=system, sides=sides, user=SYSTEM
    )


def test_its_page_shows_the_systems_columns_and_no_empty_timeline(cast, client):
    battle = _record(cast, "sw-starship-battles")
    client.force_login(cast.organiser)
    html = client.get(battle.get_absolute_url(), **EN).content.decode()
    for ft_column in ("Armour lost", "Crew lost", "Craft lost", "Hull boxes"):
        assert ft_column not in html
    assert "Hull points lost" in html and "Hull points" in html
    assert ">Timeline<" not in html and "Nothing yet." not in html
    assert "Reopen: put every ship back as before the battle" in html


@pytest.mark.parametrize(
    ("system", "words"),
    [
        ("starfinder", "Reopen: put every starship back as before the battle"),
        ("epic", "Reopen: put every unit back as before the battle"),
    ],
)
def test_its_reopen_button_speaks_of_the_systems_units(cast, client, system, words):
    battle = _record(cast, system)
    client.force_login(cast.organiser)
    html = client.get(battle.get_absolute_url(), **EN).content.decode()
    assert words in html and "every ship" not in html
