"""GET /api/rules/odds and ``manage.py odds``."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


@pytest.mark.django_db
def test_beam_die_means_over_the_api(client):
    for screen, mean in enumerate(["4/5", "3/5", "2/5", "1/5"]):
        r = client.get("/api/rules/odds", {"weapon": "beam-3", "range": 10, "screen": screen})
        assert r.status_code == 200, r.content
        body = r.json()
        assert body["mean"] == mean
        assert body["mean_float"] == pytest.approx(float(eval(mean)))  # noqa: S307
        assert body["weapon"] == "beam-3" and body["screen"] == screen
        assert body["distribution"][0]["value"] == 0


@pytest.mark.django_db
def test_distribution_is_exact_fractions(client):
    body = client.get("/api/rules/odds", {"weapon": "plasma-torpedo", "range": 5}).json()
    # 3+ to hit then 1d6: P(0) = 1/3, P(k) = 2/3 × 1/6 = 1/9 for k = 1..6.
    assert [(d["value"], d["p"]) for d in body["distribution"]] == [
        (0, "1/3"),
        *[(k, "1/9") for k in range(1, 7)],
    ]
    assert body["tail"] == "0"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({"weapon": "death-ray", "range": 5}, "unknown weapon"),
        ({"weapon": "beam-2", "range": 30}, "beyond its last band"),
        ({"weapon": "beam-2", "range": 5, "screen": 4}, "screen level"),
        ({"weapon": "pd", "range": 3, "target": "ship"}, "light units"),
        (
            {"weapon": "beam-1", "range": 3, "count": 1000},
            "count doit valoir de 1 à 100, reçu 1000",
        ),
        (
            {"weapon": "needle-nodule", "range": 3, "power_points": 10**6},
            "needle-nodule: 1 nodule(s) × ",
        ),
        ({"weapon": "needle-nodule", "range": 3, "power_points": 10**6}, "bought with 1000000 PP"),
        ({"weapon": "needle-nodule", "range": 3, "power_points": 10**6}, "limit of 300 dice"),
    ],
)
def test_bad_input_is_400_with_the_message(client, params, fragment):
    r = client.get("/api/rules/odds", params)
    assert r.status_code == 400
    assert fragment in r.json()["detail"]


@pytest.mark.django_db
def test_missing_weapon_is_a_validation_error(client):
    assert client.get("/api/rules/odds", {"range": 5}).status_code in (400, 422)


def test_odds_command_prints_the_same_json(client):
    out = StringIO()
    call_command(
        "odds", "--weapon", "beam-2", "--range", "12", "--screen", "1", "--json", stdout=out
    )
    body = json.loads(out.getvalue())
    assert body["mean"] == "6/5" and body["screen"] == 1


def test_odds_command_reports_errors():
    with pytest.raises(CommandError, match="beyond its last band"):
        call_command("odds", "--weapon", "lance", "--range", "10", stdout=StringIO())


@pytest.mark.django_db
def test_class_one_beam_as_pd(client):
    body = client.get("/api/rules/odds", {"weapon": "beam-1", "range": 4, "as_pd": True}).json()
    assert body["mean"] == "1/3" and body["value_kind"] == "kills"  # 5+ kills one
    body = client.get(
        "/api/rules/odds", {"weapon": "beam-1", "range": 4, "as_pd": True, "target": "gunboat"}
    ).json()
    assert body["mean"] == "0"  # −2 against gunboats: even a 6 falls short of 5+


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        # each once took 19 s to over 120 s before the dice limit
        (
            {"weapon": "needle-nodule", "range": 0, "power_points": 256, "count": 100},
            "needle-nodule: 100 nodule(s) × 256 dice bought with 256 PP = 25600 dice",
        ),
        ({"weapon": "kgun-hv-99", "range": 0, "count": 100}, "unknown weapon id 'kgun-hv-99'"),
        ({"weapon": "kgun-99", "range": 0, "count": 100}, "unknown weapon id 'kgun-99'"),
        ({"weapon": "kgun-6", "range": 12, "count": 100}, "kgun-6: 100 shot(s) × class 6"),
        ({"weapon": "pulser-short", "range": 0, "count": 100}, "pulser-short: 100 weapon(s)"),
        ({"weapon": "missile-heavy", "range": 12, "count": 100}, "limit of 300 dice"),
    ],
)
def test_requests_beyond_the_dice_limit_are_400_at_once(client, params, fragment):
    r = client.get("/api/rules/odds", params)
    assert r.status_code == 400
    assert fragment in r.json()["detail"]


@pytest.mark.django_db
def test_the_largest_allowed_requests_answer(client):
    # Their speed is measured by `make bench` (bench/phases.py), not timed here.
    for params in (
        {"weapon": "beam-1", "range": 0, "count": 100},
        {"weapon": "needle-nodule", "range": 0, "power_points": 300},
        {"weapon": "missile-standard", "range": 12, "count": 100},
        {"weapon": "kgun-6", "range": 0, "count": 50},
    ):
        r = client.get("/api/rules/odds", params)
        assert r.status_code == 200, (params, r.content)
