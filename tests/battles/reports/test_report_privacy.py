"""A hidden fleet's ships never reach a viewer who may not see that fleet: not on the live
battle page, not in the PDF, not on the baked site (names, classes, damage, diagrams,
log entries, standings and charts)."""

from __future__ import annotations

import io

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from pypdf import PdfReader

from battles.models import Battle, Event
from battles.reports.context import render_pdf, report_context
from campaign.league.models import Membership
from campaign.publish import site_build
from campaign.sample.loader import sample_load
from factions.models import Fleet, Ship
from tests.battles.reports.report_fixtures import make_battle

# The Collectif G+ side of make_battle: two ships and a fighter group of one fleet.
HIDDEN_NAMES = ("Vishnu Prime", "Vishnu Second", "Mijna 1")


@pytest.fixture
def battle(db):
    battle = make_battle()
    Fleet.objects.filter(slug="test-ganesha").update(hidden=True)
    return battle


def fragment(battle: Battle, user=None) -> str:
    return render_to_string("reports/battle.html", report_context(battle, user=user))


def test_the_public_report_names_no_unit_of_a_hidden_fleet(battle):
    context = report_context(battle)
    gplus = next(s for s in context["sides"] if s["faction"].slug == "collectif-g-plus")
    assert gplus["participants"] == []
    assert gplus["unidentified"] == 3
    assert gplus["losses"]["units"] == 0 and gplus["losses"]["hull_lost"] == 0
    assert context["diagrams"] == []  # Vishnu Second was the only damaged ship
    html = fragment(battle)
    for name in HIDDEN_NAMES:
        assert name not in html
    assert "Vishnu" not in html  # not even the class
    assert "Silith One" in html  # the public side is still told


def test_log_entries_naming_a_hidden_unit_are_left_out(battle):
    html = fragment(battle)
    assert "Both fleets close on the belt." in html
    assert "breaks apart" not in html and "fires its pulsers" not in html


def test_engine_log_drops_entries_and_their_dice_by_unit_id(battle):
    hidden_ship = Ship.objects.get(name="Vishnu Second")
    Ship.objects.filter(pk=hidden_ship.pk).update(name="")  # only the engine id gives it away
    Battle.objects.filter(pk=battle.pk).update(mode=Battle.Mode.RESOLVED)
    battle.refresh_from_db()
    rows = [
        ("roll", "to-hit: d6=6", {"purpose": "to-hit"}),
        (
            "fire",
            "A volley hits the secret target",
            {"ship": "ship-0", "target": f"ship-{hidden_ship.pk}", "value": 3},
        ),  # noqa: E501
        ("roll", "lucky: d6=1", {"purpose": "lucky"}),
        ("launch", "Drones away from the secret ship", {"unit": f"ship-{hidden_ship.pk}.bay-1"}),
        ("roll", "plain: d6=4", {"purpose": "plain"}),
        ("initiative", "Phalon wins the initiative", {"winner": "phalon"}),
    ]
    for seq, (kind, summary, data) in enumerate(rows, start=10):
        Event.objects.create(
            battle=battle, sequence=seq, game_turn=3, kind=kind, summary=summary, data=data
        )
    turn = next(t for t in report_context(battle)["turns"] if t["turn"] == 3)
    assert [e.summary for e in turn["log"]] == ["plain: d6=4", "Phalon wins the initiative"]
    html = fragment(battle)
    assert "secret" not in html and "to-hit" not in html and "lucky" not in html

    organiser_turn = next(
        t for t in report_context(battle, user=_organiser())["turns"] if t["turn"] == 3
    )
    assert len(organiser_turn["log"]) == len(rows)


def _organiser():
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("boss", is_staff=True)
    return user


def test_a_player_of_the_hidden_fleet_faction_and_an_organiser_see_it_all(
    battle, django_user_model
):
    player = django_user_model.objects.create_user("gplus")
    Membership.objects.create(
        campaign=battle.campaign,
        user=player,
        role=Membership.Role.PLAYER,
        faction=battle.sides.get(faction__slug="collectif-g-plus").faction,
    )
    rival = django_user_model.objects.create_user("rival")
    Membership.objects.create(
        campaign=battle.campaign,
        user=rival,
        role=Membership.Role.PLAYER,
        faction=battle.winner,
    )
    for user in (player, _organiser()):
        html = fragment(battle, user)
        assert all(name in html for name in HIDDEN_NAMES)
        assert "Test Ganesha force" in html
    html = fragment(battle, rival)
    assert not any(name in html for name in HIDDEN_NAMES)
    assert "Test Ganesha force" not in html


def test_live_battle_page_is_scoped_to_the_request_user(client, battle):
    url = reverse("battle-detail", kwargs={"pk": battle.pk})
    html = client.get(url).content.decode()
    assert not any(name in html for name in HIDDEN_NAMES)
    assert "3 unidentified" in html or "3 unités non identifiées" in html
    client.force_login(_organiser())
    html = client.get(url).content.decode()
    assert all(name in html for name in HIDDEN_NAMES)


def test_pdf_is_built_as_the_public(battle):
    pdf = PdfReader(io.BytesIO(render_pdf(battle)))
    text = "\n".join(page.extract_text() for page in pdf.pages)
    assert "Silith One" in text
    assert not any(name in text for name in HIDDEN_NAMES)
    assert "Vishnu" not in text


def test_baked_site_pages_standings_and_charts_leak_no_hidden_unit(settings, tmp_path, battle):
    settings.MEDIA_ROOT = tmp_path / "media"
    out = tmp_path / "site"
    site_build(out_dir=out)
    pages = "\n".join(p.read_text(encoding="utf-8") for p in out.rglob("*.html"))
    assert not any(name in pages for name in HIDDEN_NAMES)
    assert "Vishnu" not in (out / "fr/battles/test-league/colonisation-compromise.html").read_text()
    campaign_page = (out / "fr/campaigns/test-league.html").read_text()
    # Vishnu Prime (destroyed) belonged to the hidden fleet: the public count is 0.
    gplus_row = campaign_page.split("collectif-g-plus.html")[1].split("</tr>")[0]
    assert gplus_row.endswith("<td>0</td>")


@pytest.mark.django_db
def test_the_sample_miranda_report_with_the_phalon_fleet_hidden(client):
    """The tester's case: the seed's Miranda battle once the Phalon fleet is hidden."""
    sample_load()
    fleet = Fleet.objects.get(slug="phalon-68th-reprisal-fleet")
    fleet.hidden = True
    fleet.save()
    battle = Battle.objects.get(slug="colonisation-compromise")
    names = [s.name for s in fleet.ships.all() if s.name]
    names += [g.name for g in fleet.light_units.all()]
    assert names
    html = client.get(reverse("battle-detail", kwargs={"pk": battle.pk})).content.decode()
    leaked = [n for n in names if n in html or n in fragment(battle)]
    assert leaked == []
    # The fleet's name is left out of the forces; the people-written scenario may still
    # name it (prose is published as written).
    assert f"— {fleet.name}" not in html


def _player(battle, name: str, faction_slug: str):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name)
    Membership.objects.create(
        campaign=battle.campaign,
        user=user,
        role=Membership.Role.PLAYER,
        faction=battle.sides.get(faction__slug=faction_slug).faction,
    )
    return user


@pytest.mark.parametrize(
    ("hidden_fleet", "hidden_side", "count"),
    [("test-reprisal", "phalon", 1), ("test-ganesha", "collectif-g-plus", 3)],
)
def test_each_side_counts_only_its_own_unidentified_units(
    client, db, hidden_fleet, hidden_side, count
):
    """The tester's case: the hidden side's count was printed on both side cards (the
    first side's hidden units were credited to the next one as well)."""
    battle = make_battle()
    Fleet.objects.filter(slug=hidden_fleet).update(hidden=True)
    other_side = ({"phalon", "collectif-g-plus"} - {hidden_side}).pop()
    expected = {
        None: {hidden_side: count, other_side: 0},
        "owner": {hidden_side: 0, other_side: 0},
        "rival": {hidden_side: count, other_side: 0},
        "organiser": {hidden_side: 0, other_side: 0},
    }
    viewers = {
        None: None,
        "owner": _player(battle, "owner", hidden_side),
        "rival": _player(battle, "rival", other_side),
        "organiser": _organiser(),
    }
    for key, user in viewers.items():
        sides = report_context(battle, user=user)["sides"]
        assert {s["faction"].slug: s["unidentified"] for s in sides} == expected[key], key
    html = client.get(reverse("battle-detail", kwargs={"pk": battle.pk})).content.decode()
    assert html.count('class="note unidentified"') == 1
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(battle))).pages)
    word = "unité non identifiée" if count == 1 else "unités non identifiées"
    # once on the side card, once in the forces appendix; never on the other side
    assert text.count(f"{count} {word}") == 2
    assert f"0 {word}" not in text
