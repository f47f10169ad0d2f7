"""Each event tells exactly the members concerned, by e-mail, after the commit; nothing
before it, nothing when it rolls back, nothing to whom turned the kind off."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from battles.play.game_turns import turn_orders_submit, turn_play_start
from battles.reports.desk import report_publish
from battles.services import battle_resolve
from battles.services.record import record_submit
from campaign.core.actors import SYSTEM
from campaign.league.models import Membership
from campaign.notify.models import Delivery, NotificationPreference, NotificationProfile
from campaign.notify.preferences import preferences_set
from campaign.turns.closing import campaign_turn_open
from campaign.turns.models import CampaignTurn


def _told(kind):
    return sorted(
        (d.user.username, d.status)
        for d in Delivery.objects.filter(kind=kind, channel="email").select_related("user")
    )


def test_a_turn_opened_tells_every_member_by_mail_after_the_commit(
    mailed, django_capture_on_commit_callbacks, settings
):
    settings.APP_BASE_URL = "https://league.example"
    NotificationProfile.objects.create(user=mailed.norge_player, language="en")
    deadline = timezone.now().replace(microsecond=0) + timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser, deadline=deadline)
        assert mail.outbox == []  # nothing leaves before the commit
    assert len(callbacks) >= 1
    assert _told("turn_opened") == [
        ("chronicler", "sent"),
        ("norge_player", "sent"),
        ("organiser", "sent"),
        ("qatzrin_player", "sent"),
    ]
    assert sorted(m.to[0] for m in mail.outbox) == [
        "chronicler@example.org",
        "norge_player@example.org",
        "organiser@example.org",
        "qatzrin_player@example.org",
    ]
    english = next(m for m in mail.outbox if m.to == ["norge_player@example.org"])
    assert english.subject == "Test league: turn 1 is open"
    assert english.body == (
        f"Turn 1 of Test league is open until {deadline:%Y-%m-%d %H:%M} UTC.\n\n"
        "https://league.example/campaigns/test-league/turn/"
    )
    french = next(m for m in mail.outbox if m.to == ["organiser@example.org"])
    assert french.subject == "Test league\u202f: le tour 1 est ouvert"


def test_a_rolled_back_event_tells_nobody(mailed, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
        raise RuntimeError("undone")
    assert not Delivery.objects.exists() and mail.outbox == []


def test_a_kind_turned_off_sends_no_mail(mailed, django_capture_on_commit_callbacks):
    preferences_set(user=mailed.chronicler, email={"turn_opened": False})
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    assert "chronicler@example.org" not in [m.to[0] for m in mail.outbox]
    assert len(mail.outbox) == 3
    assert NotificationPreference.objects.get(user=mailed.chronicler).email is False


def test_a_user_without_an_address_gets_no_delivery(mailed, django_capture_on_commit_callbacks):
    mailed.chronicler.email = ""
    mailed.chronicler.save()
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    assert [u for u, _s in _told("turn_opened")] == ["norge_player", "organiser", "qatzrin_player"]


@pytest.fixture
def fought(mailed, duel):
    """The duel (Qatzrin v Phalon) with the Phalon player mailed too."""
    duel.phalon_player.email = "phalon_player@example.org"
    duel.phalon_player.save()
    return duel


def test_a_battle_turn_by_turn_tells_its_sides_players_only(
    fought, django_capture_on_commit_callbacks
):
    battle = fought.battle
    with django_capture_on_commit_callbacks(execute=True):
        turn_play_start(battle=battle, user=fought.cast.organiser, seed=7, max_turns=3)
    # Orders due for turn 1: the players of Qatzrin and Phalon, never Norge's, the
    # chronicler's or the organiser's (a draft battle is its sides' business).
    assert _told("orders_due") == [("phalon_player", "sent"), ("qatzrin_player", "sent")]
    assert {m.subject for m in mail.outbox} == {
        "Skirmish skirmish\u202f: vos ordres pour le tour 1"
    }
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        turn_orders_submit(
            battle=battle, side=fought.qatzrin_side, orders={}, user=fought.cast.qatzrin_player
        )
        turn_orders_submit(
            battle=battle, side=fought.phalon_side, orders={}, user=fought.phalon_player
        )
    assert _told("turn_played") == [("phalon_player", "sent"), ("qatzrin_player", "sent")]
    assert Delivery.objects.filter(kind="orders_due").count() == 4  # turn 2's as well
    assert sorted(m.subject for m in mail.outbox) == [
        "Skirmish skirmish\u202f: le tour 1 est joué",
        "Skirmish skirmish\u202f: le tour 1 est joué",
        "Skirmish skirmish\u202f: vos ordres pour le tour 2",
        "Skirmish skirmish\u202f: vos ordres pour le tour 2",
    ]


def test_a_record_entry_tells_the_other_side(fought, django_capture_on_commit_callbacks):
    battle = fought.battle
    raam = fought.qatzrin_side.participants.filter(ship__isnull=False).first()
    with django_capture_on_commit_callbacks(execute=True):
        record_submit(
            battle=battle,
            side=fought.qatzrin_side,
            user=fought.cast.qatzrin_player,
            results=[{"participant": raam.pk, "fate": "damaged", "hull_lost": 1}],
        )
    assert _told("entry_awaiting") == [("phalon_player", "sent")]
    (message,) = mail.outbox
    assert message.body.startswith("Qatzrin a consigné la bataille Skirmish skirmish")
    assert message.body.endswith(f"/battles/{battle.pk}/record/")


def test_an_organisers_entry_tells_the_other_organisers(
    fought, django_user_model, django_capture_on_commit_callbacks
):
    second = django_user_model.objects.create_user("second_org", email="second@example.org")
    Membership.objects.create(campaign=fought.cast.campaign, user=second, role="organiser")
    with django_capture_on_commit_callbacks(execute=True):
        record_submit(battle=fought.battle, side=None, user=fought.cast.organiser, results=[])
    assert _told("entry_awaiting") == [("second_org", "sent")]


def test_a_concluded_battle_and_its_published_report(fought, django_capture_on_commit_callbacks):
    # The callbacks are not run: the report files they would render are not this test's.
    with django_capture_on_commit_callbacks(execute=False):
        battle = battle_resolve(battle=fought.battle, user=SYSTEM, seed=3, max_turns=2)
    assert _told("battle_concluded") == [("phalon_player", "queued"), ("qatzrin_player", "queued")]
    with django_capture_on_commit_callbacks(execute=False):
        report_publish(battle=battle)
        report_publish(battle=battle)  # a second click tells nobody again
    assert _told("report_published") == [
        ("chronicler", "queued"),
        ("norge_player", "queued"),
        ("organiser", "queued"),
        ("phalon_player", "queued"),
        ("qatzrin_player", "queued"),
    ]


def test_a_failing_receiver_never_undoes_the_event(
    mailed, monkeypatch, django_capture_on_commit_callbacks
):
    def broken(**kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("campaign.notify.receivers.notify_event", broken)
    with django_capture_on_commit_callbacks(execute=True):
        turn = campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    turn.refresh_from_db()
    assert turn.number == 1 and not Delivery.objects.exists()


def test_telling_more_members_costs_no_more_queries(mailed, django_user_model):
    def opened() -> int:
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as ctx:
            campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
        CampaignTurn.objects.filter(campaign=mailed.campaign).delete()
        return len(ctx.captured_queries)

    few = opened()
    for i in range(20):
        user = django_user_model.objects.create_user(f"reader{i}", email=f"r{i}@example.org")
        Membership.objects.create(campaign=mailed.campaign, user=user, role="chronicler")
    assert opened() == few
    assert Delivery.objects.filter(kind="turn_opened").count() == 4 + 24
