"""The battle forms' checkboxes written without the form renderer
(``battles.web.checkboxes``) are byte for byte what Django's widgets render: unbound,
with boxes checked, and bound with errors (``aria-invalid``)."""

from __future__ import annotations

import pytest

from battles.web.checkboxes import boxes
from battles.web.forms import BattleSetupForm, ParticipantResultForm
from factions.models import Ship

pytestmark = pytest.mark.django_db


def _same(field) -> int:
    fast = boxes(field)
    slow = list(field)
    assert [(str(b.tag), b.id_for_label, str(b.choice_label)) for b in fast] == [
        (str(w.tag()), w.id_for_label, str(w.choice_label)) for w in slow
    ]
    return len(fast)


def test_the_set_up_forms_boxes_are_djangos(league):
    campaign = league.campaign
    q = Ship.objects.filter(fleet__faction__slug="qatzrin").first()
    ships = [Ship.objects.create(ship_class=q.ship_class, fleet=q.fleet, name=n) for n in "ABC"]
    assert _same(BattleSetupForm(campaign=campaign)["ships"]) > 2
    _same(BattleSetupForm(campaign=campaign)["light_units"])
    checked = BattleSetupForm(initial={"ships": [s.pk for s in ships[:2]]}, campaign=campaign)
    assert sum(" checked" in str(b.tag) for b in boxes(checked["ships"])) == 2
    _same(checked["ships"])
    # Bound with errors: a ship not of the sides, a missing name.
    bound = BattleSetupForm({"ships": [ships[0].pk, "x"], "light_units": ["0"]}, campaign=campaign)
    assert not bound.is_valid() and bound.errors["ships"]
    assert 'aria-invalid="true"' in str(boxes(bound["ships"])[0].tag)
    _same(bound["ships"])
    _same(bound["light_units"])
    _same(bound["mode"])


def test_the_record_forms_system_boxes_are_djangos(league):
    participant = next(
        p for s in league.battle.sides.all() for p in s.participants.all() if p.ship_id
    )
    form = ParticipantResultForm(participant=participant, prefix="unit-0")
    assert _same(form["systems_lost"]) > 0
    bound = ParticipantResultForm(
        {"unit-0-systems_lost": ["nonsense"], "unit-0-fate": "unharmed"},
        participant=participant,
        prefix="unit-0",
    )
    assert not bound.is_valid()
    _same(bound["systems_lost"])
    assert 'aria-invalid="true"' in str(bound.system_boxes()[0].tag)
