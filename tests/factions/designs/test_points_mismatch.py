"""A design whose printed points differ from its construction is stored with the printed
figure, and the import command, the import API and the class's page say so."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from factions.designs import validation
from factions.designs.imports import PointsMismatch, designs_parse
from factions.models import ShipClass
from tests.conftest import logged_in
from tests.factions.factories import valid_design

pytestmark = pytest.mark.usefixtures("english")


def _designs() -> tuple[list[dict], int]:
    """Hanit printed at its price + 7, Eilat at its exact price; the price."""
    hanit, eilat = valid_design("Hanit"), valid_design("Eilat")
    computed = validation.design_points(hanit)
    hanit["points"], eilat["points"] = computed + 7, computed
    return [hanit, eilat], computed


def test_the_parse_lists_printed_points_that_differ_from_the_construction():
    designs, computed = _designs()
    result = designs_parse(designs, faction="qatzrin")
    assert result.points_mismatch == [PointsMismatch("Hanit", computed + 7, computed)]
    assert [d["points"] for d in result.designs] == [computed + 7, computed]  # printed kept


def test_the_command_names_the_design_with_printed_and_computed_points(cast, tmp_path):
    designs, computed = _designs()
    path = tmp_path / "ships.json"
    path.write_text(json.dumps(designs))
    out = StringIO()
    call_command("import_designs", str(path), "--faction", "qatzrin", stdout=out)
    lines = out.getvalue().splitlines()
    warning = (
        f"    points differ: Hanit: printed points {computed + 7}, "
        f"{computed} by construction (the printed figure is stored)"
    )
    assert warning in lines
    assert lines.index(warning) == 1  # under Hanit's line, not Eilat's
    assert sum(line.startswith("    points differ") for line in lines) == 1
    assert lines[-1] == (
        "2 design(s) read (admiralty), 0 system(s) not mapped, 0 design(s) with validation "
        "errors, 1 design(s) whose printed points differ from their construction; "
        "2 ship class(es) written"
    )
    assert ShipClass.objects.get(name="Hanit").points == computed + 7


def test_the_api_answer_lists_the_design_with_printed_and_computed_points(cast):
    designs, computed = _designs()
    response = logged_in(cast.organiser).post(
        "/api/designs/import",
        json.dumps({"faction": "qatzrin", "data": designs}),
        content_type="application/json",
    )
    assert response.status_code == 201
    assert response.json()["points_mismatch"] == [
        {
            "ship": "Hanit",
            "printed": computed + 7,
            "computed": computed,
            "message": f"Hanit: printed points {computed + 7}, {computed} by construction "
            "(the printed figure is stored)",
        }
    ]


def test_the_class_page_flags_the_imported_printed_points(cast, tmp_path):
    designs, computed = _designs()
    path = tmp_path / "ships.json"
    path.write_text(json.dumps(designs))
    call_command("import_designs", str(path), "--faction", "qatzrin", stdout=StringIO())
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    hanit = ShipClass.objects.get(name="Hanit")
    page = client.get(hanit.get_absolute_url()).content.decode()
    assert f'{computed + 7} <span class="flag"' in page
    assert f"≠ {computed} by construction" in page
    eilat = ShipClass.objects.get(name="Eilat")
    assert "by construction" not in client.get(eilat.get_absolute_url()).content.decode()
