"""The campaign's webhook: a Discord-shaped JSON post received by a local receiver; a
failing receiver is retried, then the delivery is marked failed with its error."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from campaign.notify.models import CampaignWebhook, Delivery
from campaign.notify.requeue import stale_deliveries_requeue
from campaign.notify.sending import apprise_url
from campaign.notify.tasks import MAX_RETRIES
from campaign.notify.webhooks import campaign_webhook_save, campaign_webhook_test
from campaign.turns.closing import campaign_turn_open


def test_the_apprise_address_posts_discords_shape_without_redirects():
    assert apprise_url("https://discord.com/api/webhooks/1/tok?thread_id=9") == (
        "jsons://discord.com/api/webhooks/1/tok?-thread_id=9&%3Amessage=content&%3Atitle="
        "&%3Aversion=&%3Aattachments=&%3Atype=&%3Ausername=Admiralty&redirect=no"
    )
    assert apprise_url("http://127.0.0.1:8080/hook").startswith("json://127.0.0.1:8080/hook?")


def test_a_turn_opened_is_posted_to_the_campaigns_webhook(
    mailed, receiver, django_capture_on_commit_callbacks, settings
):
    settings.APP_BASE_URL = "https://league.example"
    mailed.campaign.language = "en"
    mailed.campaign.save()
    campaign_webhook_save(
        campaign=mailed.campaign,
        user=mailed.organiser,
        url=receiver.url,
        kinds=["turn_opened", "battle_concluded"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    assert receiver.posts == [
        (
            "/api/webhooks/42/secret-token",
            {
                "content": "**Test league: turn 1 is open**\nTurn 1 of Test league is open."
                "\n\nhttps://league.example/campaigns/test-league/turn/",
                "username": "Admiralty",
            },
        )
    ]
    hook = Delivery.objects.get(channel="webhook")
    assert (hook.status, hook.attempts, hook.last_error) == ("sent", 1, "")
    # The secret token of the address is not recorded on the delivery.
    assert hook.address == receiver.url.split("/")[2]
    webhook = CampaignWebhook.objects.get()
    assert (webhook.last_status, webhook.last_error) == ("sent", "")
    assert len(mail.outbox) == 4  # the members' e-mails as well


def test_a_kind_not_asked_for_is_not_posted(mailed, receiver, django_capture_on_commit_callbacks):
    campaign_webhook_save(
        campaign=mailed.campaign,
        user=mailed.organiser,
        url=receiver.url,
        kinds=["report_published"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    assert receiver.posts == [] and not Delivery.objects.filter(channel="webhook").exists()


def test_a_failing_receiver_is_retried_then_the_delivery_is_failed(
    mailed, receiver, django_capture_on_commit_callbacks
):
    receiver.status = 500
    campaign_webhook_save(
        campaign=mailed.campaign, user=mailed.organiser, url=receiver.url, kinds=["turn_opened"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        delivery = campaign_webhook_test(campaign=mailed.campaign, user=mailed.organiser)
    delivery.refresh_from_db()
    assert len(receiver.posts) == 1 + MAX_RETRIES == 4
    assert (delivery.status, delivery.attempts) == ("failed", 4)
    assert "500" in delivery.last_error
    webhook = CampaignWebhook.objects.get()
    assert webhook.last_status == "failed" and "500" in webhook.last_error


def test_a_receiver_that_recovers_gets_the_message_once(
    mailed, receiver, django_capture_on_commit_callbacks, monkeypatch
):
    receiver.status = 503
    receiver.then = 204  # the first post fails, the next ones pass
    campaign_webhook_save(
        campaign=mailed.campaign, user=mailed.organiser, url=receiver.url, kinds=["turn_opened"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        delivery = campaign_webhook_test(campaign=mailed.campaign, user=mailed.organiser)
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("sent", 2, "")


def test_a_test_message_without_a_webhook_is_refused(mailed):
    with pytest.raises(Exception, match="n’a aucun webhook activé") as refused:
        campaign_webhook_test(campaign=mailed.campaign, user=mailed.organiser)
    assert refused.value.status == 409
    assert not Delivery.objects.exists()


def test_a_failing_mail_server_is_retried_then_failed(
    mailed, django_capture_on_commit_callbacks, monkeypatch
):
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args[3])
        raise ConnectionRefusedError("SMTP server down")

    monkeypatch.setattr("campaign.notify.sending.send_mail", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    rows = Delivery.objects.filter(channel="email")
    assert rows.count() == 4
    assert {(d.status, d.attempts, d.last_error) for d in rows} == {
        ("failed", 4, "ConnectionRefusedError: SMTP server down")
    }
    assert len(calls) == 16


def test_a_delivery_left_queued_is_queued_again(
    mailed, django_capture_on_commit_callbacks, monkeypatch
):
    # The broker refuses the task after the commit: the row stays queued, the error logged.
    def refused(pk):
        raise ConnectionError("broker down")

    monkeypatch.setattr("campaign.notify.events.deliver.delay", refused)
    with django_capture_on_commit_callbacks(execute=True):
        campaign_turn_open(campaign=mailed.campaign, user=mailed.organiser)
    assert set(Delivery.objects.values_list("status", flat=True)) == {"queued"}
    monkeypatch.undo()
    assert stale_deliveries_requeue() == []  # too recent: a retry may be on its way
    later = timezone.now() + timedelta(minutes=31)
    again = stale_deliveries_requeue(now=later)
    assert len(again) == 4 and len(mail.outbox) == 4
    assert set(Delivery.objects.values_list("status", "attempts")) == {("sent", 1)}
