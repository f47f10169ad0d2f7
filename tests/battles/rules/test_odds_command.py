"""``manage.py odds``: a one-line summary by default, JSON with ``--json``; a range that is not
a finite number is refused by the command and by ``GET /api/rules/odds``."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args):
    out = StringIO()
    call_command("odds", *args, stdout=out)
    return out.getvalue()


def test_the_default_output_is_one_summary_line():
    text = run("--weapon", "beam-2", "--range", "12", "--screen", "1")
    assert text.splitlines() == [
        "beam-2 at 12 mu, screen 1: mean 6/5 = 1.200 damage; P(0) = 4/9 = 0.444 (2 dice)"
    ]


def test_the_summary_names_the_mode_the_target_and_unscreened_weapons():
    pulser = run("--weapon", "pulser", "--range", "20")
    assert pulser.startswith("pulser (as pulser-medium) at 20 mu, screen 0: mean 8/5 = 1.600")
    pd = run("--weapon", "beam-1", "--range", "4", "--as-pd", "--target", "fighter")
    assert "vs fighter, screens do not apply: mean 1/3 = 0.333 kills; P(0) = 2/3" in pd


def test_json_gives_the_full_distribution():
    body = json.loads(run("--weapon", "beam-2", "--range", "12", "--screen", "1", "--json"))
    assert (body["mean"], body["distribution"][0]["p"]) == ("6/5", "4/9")


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "twelve"])
def test_the_command_refuses_a_range_that_is_not_a_number(value):
    with pytest.raises(CommandError, match=f'"{value}" is not a number'):
        run("--weapon", "beam-2", f"--range={value}")


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_the_api_refuses_a_range_that_is_not_a_number(client, value):
    r = client.get("/api/rules/odds", {"weapon": "beam-2", "range": value})
    assert r.status_code == 400
    assert "n’est pas un nombre" in r.json()["detail"]  # French, the default language
    assert "band" not in r.json()["detail"]
