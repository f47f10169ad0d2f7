"""The ledger as CSV: organisers read every faction's rows, a player their own; other
members 403, anyone else 404; exact rows, formula-safe reasons, flat queries."""

import csv
import io

import pytest

from campaign.turns.models import LedgerEntry
from tests.conftest import client_for

URL = "/campaigns/test-league/ledger.csv"


def rows(response):
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8").lstrip("\ufeff"))))


@pytest.fixture
def entries(cast):
    LedgerEntry.objects.create(
        campaign=cast.campaign, faction=cast.norge, turn=1, kind="income", resources=12,
        technology=1, reason="income of turn 1",
    )  # fmt: skip
    LedgerEntry.objects.create(
        campaign=cast.campaign, faction=cast.qatzrin, turn=1, kind="adjustment",
        resources=-5, reason="=cmd|' /C calc'!A0", user=cast.organiser,
    )  # fmt: skip
    return cast


@pytest.mark.parametrize(
    ("who", "status", "factions"),
    [
        ("organiser", 200, ["Kongeriket Norge", "Qatzrin"]),
        ("staff", 200, ["Kongeriket Norge", "Qatzrin"]),
        ("norge_player", 200, ["Kongeriket Norge"]),
        ("qatzrin_player", 200, ["Qatzrin"]),
        ("chronicler", 403, None),
        ("outsider", 404, None),
        ("other_org", 404, None),
    ],
)
def test_who_reads_which_rows(entries, rival, who, status, factions):
    response = client_for(entries, rival, who).get(URL)
    assert response.status_code == status
    if factions is not None:
        assert [r["faction"] for r in rows(response)] == factions


def test_anonymous_users_are_sent_to_log_in(entries):
    response = client_for(entries, None, None).get(URL)
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_rows_are_exact_and_a_formula_is_quoted(entries):
    got = rows(client_for(entries, None, "organiser").get(URL))
    assert [
        (r["turn"], r["kind"], r["resources"], r["technology"], r["reason"], r["by"]) for r in got
    ] == [
        ("1", "income", "12", "1", "revenus du tour 1", ""),  # in the reader's language
        ("1", "adjustment", "-5", "0", "'=cmd|' /C calc'!A0", "organiser"),
    ]


def test_queries_stay_flat_from_3_to_100_rows(entries, django_assert_num_queries):
    client = client_for(entries, None, "organiser")

    def add(n):
        LedgerEntry.objects.bulk_create(
            LedgerEntry(campaign=entries.campaign, faction=entries.norge, turn=2,
                        kind="adjustment", resources=i, reason="r", user=entries.organiser)
            for i in range(n)
        )  # fmt: skip

    add(1)
    with django_assert_num_queries(6):
        client.get(URL)
    add(97)
    with django_assert_num_queries(6):
        assert len(rows(client.get(URL))) == 100
