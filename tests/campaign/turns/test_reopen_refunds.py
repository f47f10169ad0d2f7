"""Reopening a battle whose damage had a repair order: the order is refunded and the
organiser is told so, on the battle's timeline and in the page's message."""

from django.urls import reverse
from django.utils import translation

from battles.models import BattleAction
from battles.services.reopen import battle_reopen
from campaign.core.stored_text import stored_text
from campaign.turns.repairs import repair_order


def test_the_reopen_names_the_refunded_repair_order(client, damaged):
    s = damaged
    repair_order(campaign=s.campaign, ship=s.tord_a, user=s.norge_player, hull=8)
    client.force_login(s.organiser)
    with translation.override("en"):
        page = client.post(
            reverse("battle-reopen", kwargs={"pk": s.battle.pk}),
            follow=True,
            HTTP_ACCEPT_LANGUAGE="en",
        ).content.decode()
    assert (
        "Battle reopened: every ship is as before it. Repair orders cancelled and refunded: "
        f"{s.tord_a} (8 resources)."
    ) in page.replace("&#x27;", "'")
    line = BattleAction.objects.get(battle=s.battle, kind=BattleAction.Kind.REOPEN)
    assert line.summary == (
        "reopened: every ship and light unit as before the battle; "
        f"repair orders cancelled and refunded: {s.tord_a} (8 resources)"
    )
    with translation.override("fr"):
        assert stored_text(line.summary, line.summary_message) == (
            "rouverte\u202f: chaque vaisseau et unité légère comme avant la bataille\u202f; "
            f"ordres de réparation annulés et remboursés\u202f: {s.tord_a} (8 ressources)"
        )


def test_a_reopen_without_repairs_keeps_its_plain_line(damaged):
    b = battle_reopen(battle=damaged.battle, user=damaged.organiser)
    assert b.repairs_refunded is None
    line = BattleAction.objects.get(battle=b, kind=BattleAction.Kind.REOPEN)
    assert line.summary == "reopened: every ship and light unit as before the battle"
