"""The report's unit tables tell same-named ships apart as the set-up does: their number
and squadron ("Tashkent #12 (1st squadron)"); a ship whose name is its own stays plain."""

from __future__ import annotations

import html
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from battles.reports.context import report_context
from battles.reports.draft import report_draft_markdown
from factions.models import Ship, ShipClass, Squadron
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle():
    battle = make_battle()
    side = battle.sides.get(faction__slug="phalon")
    silith = ShipClass.objects.get(slug="silith")
    first = Squadron.objects.create(fleet=side.fleet, name="1st squadron")
    twins = [
        Ship.objects.create(ship_class=silith, fleet=side.fleet, name="Tashkent", squadron=first),
        Ship.objects.create(ship_class=silith, fleet=side.fleet, name="Tashkent"),
    ]
    for ship in twins:
        side.participants.create(ship=ship)
    battle.twins = twins
    return battle


def _unit_cells(battle) -> list[str]:
    """The first cell (the unit) of every row of the Phalon side's participants table."""
    with translation.override("en"):
        page = render_to_string("reports/battle.html", report_context(battle))
    table = page.split('<table class="participants">', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr class="fate-[^"]*"><td>([^<]*)<', table)
    return [html.unescape(r) for r in rows]


def test_same_named_ships_carry_their_number_and_squadron(battle):
    a, b = battle.twins
    assert _unit_cells(battle) == [
        "Silith One",  # its name is its own: plain
        f"Tashkent #{a.pk} (1st squadron)",
        f"Tashkent #{b.pk}",
    ]


def test_the_draft_tells_them_apart_too(battle):
    a, b = battle.twins
    text = report_draft_markdown(battle, "en")
    # Markdown escapes the number sign: it reads "Tashkent #4" once rendered.
    assert f"**Tashkent \\#{a.pk} (1st squadron)**" in text
    assert f"**Tashkent \\#{b.pk}**" in text
