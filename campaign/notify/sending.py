"""One attempt at a delivery: an e-mail through Django's mail (the console or locmem backend
in development and tests, SMTP with ``EMAIL_HOST``), a webhook post through apprise.

Webhooks: apprise's JSON plugin (``json://``/``jsons://``) with its payload remapped to
Discord's webhook shape, ``{"content": …, "username": "Admiralty"}`` (apprise docs,
"Custom JSON": a ``:key=value`` argument renames or drops a field, an empty value drops
it). The same post works for a Discord webhook address
(``https://discord.com/api/webhooks/<id>/<token>``) and for any receiver that accepts
Discord's shape (Guilded, a bridge, a script), and lets a test receive it on 127.0.0.1;
apprise's own ``discord://`` plugin always posts to discord.com. Redirects are not followed
(``redirect=no``): a public address answering with a redirect to a private one must not
carry the post inside the network. The address is checked again right before the post
(``campaign.notify.addresses``).
"""

from __future__ import annotations

import logging
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from campaign.core.refusals import Refused
from campaign.notify.addresses import webhook_url_check
from campaign.notify.models import CampaignWebhook, Delivery

#: Discord refuses a message longer than this (its API's ``content`` limit).
DISCORD_CONTENT_MAX = 2000


class DeliveryFailed(Exception):
    """An attempt failed; the message says why. ``final``: trying again cannot help (the
    address is refused, the webhook was removed or turned off)."""

    def __init__(self, message: str, *, final: bool = False) -> None:
        super().__init__(message)
        self.final = final


def apprise_url(url: str) -> str:
    """The apprise address posting Discord-shaped JSON to ``url`` (http or https):
    ``json(s)://host[:port]/path?-query…&:message=content&…&redirect=no``."""
    parts = urlsplit(url)
    scheme = "jsons" if parts.scheme == "https" else "json"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    query = [(f"-{k}", v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    query += [
        (":message", "content"),
        (":title", ""),
        (":version", ""),
        (":attachments", ""),
        (":type", ""),
        (":username", "Admiralty"),
        ("redirect", "no"),
    ]
    path = quote(parts.path or "/", safe="/%")
    return f"{scheme}://{netloc}{path}?{urlencode(query)}"


def webhook_post(url: str, content: str) -> None:
    """Post ``content`` (cut to Discord's 2 000 characters) to the webhook ``url``.
    Raises :class:`DeliveryFailed`: ``final`` for an address refused now
    (:func:`~campaign.notify.addresses.webhook_url_check`), else with apprise's report of
    the failure (status code, connection error)."""
    try:
        webhook_url_check(url)
    except Refused as exc:
        raise DeliveryFailed(str(exc), final=True) from exc
    # apprise loads where a webhook is posted, not with the apps: importing it (all its
    # plugins) costs about 0.2 s of CPU of every ``manage.py`` command (bench/startup.py).
    import apprise

    sender = apprise.Apprise()
    if not sender.add(apprise_url(url)):
        raise DeliveryFailed("apprise does not accept this address", final=True)
    with apprise.LogCapture(level=logging.WARNING) as log:
        ok = sender.notify(
            body=content[:DISCORD_CONTENT_MAX], title="", body_format=apprise.NotifyFormat.TEXT
        )
    if not ok:
        report = log.getvalue().strip() if hasattr(log, "getvalue") else ""
        raise DeliveryFailed(report or "the webhook did not accept the message")


def _send(delivery: Delivery) -> None:
    if delivery.channel == Delivery.Channel.EMAIL:
        email = delivery.user.email if delivery.user_id else ""
        if not email:
            raise DeliveryFailed("the recipient has no e-mail address", final=True)
        try:
            send_mail(
                delivery.subject,
                delivery.body,
                settings.DEFAULT_FROM_EMAIL,
                [email],
                fail_silently=False,
            )
        except Exception as exc:  # SMTP, socket, TLS errors: any of them is worth a retry
            raise DeliveryFailed(f"{type(exc).__name__}: {exc}") from exc
        return
    hook = (
        CampaignWebhook.objects.filter(pk=delivery.webhook_id).first()
        if delivery.webhook_id
        else None
    )
    if hook is None or not hook.enabled:
        raise DeliveryFailed("the campaign's webhook was removed or turned off", final=True)
    webhook_post(hook.url, f"**{delivery.subject}**\n{delivery.body}")


def _webhook_result(delivery: Delivery, error: str) -> None:
    if delivery.webhook_id:
        CampaignWebhook.objects.filter(pk=delivery.webhook_id).update(
            last_status=Delivery.Status.FAILED if error else Delivery.Status.SENT,
            last_error=error,
            last_at=timezone.now(),
        )


def delivery_attempt(*, delivery_id: int, last: bool) -> Delivery | None:
    """Try to send delivery ``delivery_id`` once, counting the attempt. Sent: marked
    ``sent``. Failed: its error kept, then marked ``failed`` if ``last`` or the failure is
    final (and :class:`DeliveryFailed` raised so the task retries otherwise). A delivery
    already sent or failed is left alone (a task delivered twice sends once); None when
    the row is gone."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update()
            .select_related("user")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None or delivery.status != Delivery.Status.QUEUED:
            return delivery
        delivery.attempts += 1
        delivery.save(update_fields=["attempts", "updated_at"])
    try:
        _send(delivery)
    except DeliveryFailed as exc:
        delivery.last_error = str(exc)[:2000]
        if last or exc.final:
            delivery.status = Delivery.Status.FAILED
        delivery.save(update_fields=["last_error", "status", "updated_at"])
        if delivery.channel == Delivery.Channel.WEBHOOK and delivery.status == "failed":
            _webhook_result(delivery, delivery.last_error)
        if delivery.status == Delivery.Status.FAILED:
            return delivery
        raise
    delivery.status = Delivery.Status.SENT
    delivery.sent_at = timezone.now()
    delivery.last_error = ""
    delivery.save(update_fields=["status", "sent_at", "last_error", "updated_at"])
    if delivery.channel == Delivery.Channel.WEBHOOK:
        _webhook_result(delivery, "")
    return delivery
