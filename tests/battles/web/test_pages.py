"""Battle page: sides, objectives, participants, report, PDF link, scoping."""

from django.core.files.base import ContentFile
from django.urls import reverse

from battles.models import Participant, Report
from tests.world import add_ships


def battle_url(world):
    return reverse("battle-detail", kwargs={"pk": world.battle.pk})


def test_battle_page_shows_sides_objectives_participants_and_winner(client, world):
    response = client.get(battle_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Bataille de Fjordheim" in html
    assert "Détruire le chantier naval." in html and "Tenir l" in html
    assert "Nimrod" in html
    assert "Fenrir" not in html  # a ship of a hidden fleet is not named to the public
    assert "Qatzrin" in html and "Kongeriket Norge" in html
    assert "<strong>attaquent</strong>" in html  # the narrative, rendered from Markdown


def test_battle_page_links_only_ships_the_user_may_see(client, world):
    public_ship = reverse("ship-detail", kwargs={"pk": world.damaged_ship.pk})
    hidden_ship = reverse("ship-detail", kwargs={"pk": world.norge_hidden_ship.pk})
    html = client.get(battle_url(world)).content.decode()
    assert public_ship in html
    assert hidden_ship not in html
    assert "Skyggeflåten" not in html  # the hidden fleet is not named

    client.force_login(world.cast.norge_player)
    html = client.get(battle_url(world)).content.decode()
    assert hidden_ship in html
    assert "Skyggeflåten" in html


def test_hostile_markdown_in_a_narrative_is_inert(client, world):
    world.battle.narrative = (
        '<script>alert(1)</script>\n\n[x](javascript:alert(2))\n\n<img src=x onerror="alert(3)">'
        "\n\nThe escort **held**."
    )
    world.battle.save()
    response = client.get(battle_url(world))
    assert response.status_code == 200
    html = response.content.decode()
    assert "The escort <strong>held</strong>." in html  # the narrative is on the page
    assert "<script>alert" not in html
    assert "javascript:" not in html
    assert "onerror" not in html


def test_battle_page_links_the_pdf_report_when_rendered(client, world, settings, tmp_path):
    assert ".pdf" not in client.get(battle_url(world)).content.decode()
    settings.MEDIA_ROOT = tmp_path
    report = Report(battle=world.battle, format=Report.Format.PDF, version=1)
    report.file.save("fjordheim.pdf", ContentFile(b"%PDF-1.7\n"), save=True)
    html = client.get(battle_url(world)).content.decode()
    assert f'href="{report.file.url}"' in html
    assert report.file.url.endswith(".pdf")


def test_battle_page_of_unknown_pk_is_404(client, db):
    assert client.get(reverse("battle-detail", kwargs={"pk": 999})).status_code == 404


def test_battle_page_costs_the_same_queries_for_many_participants(
    client, world, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        client.get(battle_url(world))
    baseline = len(ctx.captured_queries)
    side = world.battle.sides.get(faction=world.cast.qatzrin)
    for ship in add_ships(world.public_fleet, world.saar, 40, prefix="Extra"):
        Participant.objects.create(side=side, ship=ship, fate="unharmed")
    with django_assert_num_queries(baseline):
        response = client.get(battle_url(world))
    assert "Extra 40" in response.content.decode()
