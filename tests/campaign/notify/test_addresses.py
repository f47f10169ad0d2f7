"""A webhook address inside a private network is refused, naming the field, when saved
and again right before a post."""

import pytest

from campaign.core.refusals import Kind
from campaign.notify.addresses import WebhookAddressRefused, webhook_url_check
from campaign.notify.models import CampaignWebhook, Delivery
from campaign.notify.sending import DeliveryFailed, webhook_post
from campaign.notify.webhooks import campaign_webhook_save

pytestmark = pytest.mark.usefixtures("english")

PRIVATE = [
    ("http://127.0.0.1/hook", "127.0.0.1"),
    ("https://10.0.0.1/hook", "10.0.0.1"),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
    ("http://[::1]:8080/hook", "::1"),
    ("http://localhost:9000/hook", None),  # a name resolving to loopback
    ("http://[::ffff:127.0.0.1]/hook", "::ffff:127.0.0.1"),
    ("http://0.0.0.0/hook", "0.0.0.0"),
    ("http://192.168.1.20/hook", "192.168.1.20"),
    ("http://224.0.0.1/hook", "224.0.0.1"),
]


@pytest.mark.parametrize("url,address", PRIVATE)
def test_a_private_address_is_refused_naming_the_field(url, address):
    with pytest.raises(WebhookAddressRefused) as refused:
        webhook_url_check(url)
    assert refused.value.kind == Kind.INVALID and refused.value.status == 422
    field, message = refused.value.errors[0]
    assert field == "url" and message.startswith("url: ")
    assert "private network" in message
    if address:
        assert f"is {address}," in message


@pytest.mark.parametrize(
    "url,why",
    [
        ("", "give the webhook's address"),
        ("ftp://example.org/hook", "is not an http:// or https:// address"),
        ("https://user:pw@discord.com/api/webhooks/1/x", "user name or password"),
        ("https://no-such-host.invalid/hook", "cannot be found"),
        ("https://" + "a" * 500 + ".org/", "at most 500 characters"),
    ],
)
def test_other_bad_addresses_are_refused_naming_the_field(url, why):
    with pytest.raises(WebhookAddressRefused, match=why) as refused:
        webhook_url_check(url)
    assert refused.value.errors[0][0] == "url"


def test_a_public_address_is_accepted():
    # An address literal: no DNS needed.
    assert webhook_url_check(" https://93.184.215.14/api/webhooks/1/t ") == (
        "https://93.184.215.14/api/webhooks/1/t"
    )


def test_the_tests_setting_lets_loopback_through(settings):
    settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS = True
    assert webhook_url_check("http://127.0.0.1:8123/x") == "http://127.0.0.1:8123/x"


@pytest.mark.parametrize("url", [u for u, _ in PRIVATE[:5]])
def test_saving_a_private_address_writes_nothing(mailed, url):
    with pytest.raises(WebhookAddressRefused):
        campaign_webhook_save(
            campaign=mailed.campaign, user=mailed.organiser, url=url, kinds=["turn_opened"]
        )
    assert not CampaignWebhook.objects.exists()


def test_an_address_is_checked_again_before_the_post(mailed, settings):
    # Saved while allowed (as if the name resolved elsewhere then), refused when sent.
    settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS = True
    campaign_webhook_save(
        campaign=mailed.campaign,
        user=mailed.organiser,
        url="http://127.0.0.1:1/hook",
        kinds=["turn_opened"],
    )
    settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS = False
    with pytest.raises(DeliveryFailed, match="url: 127.0.0.1 is 127.0.0.1") as failed:
        webhook_post("http://127.0.0.1:1/hook", "hello")
    assert failed.value.final
    assert not Delivery.objects.exists()
