"""The webhook address check: a campaign's webhook may post only to the public internet.

An organiser types the address and the server posts to it, so an address inside the
server's own network would let them reach services never meant to be reachable (a cloud
metadata endpoint at 169.254.169.254, a database on 127.0.0.1): server-side request
forgery (OWASP, "Server Side Request Forgery Prevention Cheat Sheet"). The host is resolved
(``socket.getaddrinfo``) and every address it gives must be global (``ipaddress``): no
loopback, private, link-local, shared, reserved, multicast or unspecified address. The check
runs when the address is saved and again right before each post, because a name may resolve
elsewhere by then.

``settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS`` (default False; the production settings refuse
it) lets the tests post to a receiver on 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from campaign.core.refusals import Kind, Refused
from campaign.core.validation import TextError, clean_text

#: The longest address kept (``CampaignWebhook.url``).
URL_MAX_LENGTH = 500


class WebhookAddressRefused(Refused):
    """An address the server will not post to; ``errors`` names the field."""

    kind = Kind.INVALID


def _refuse(field: str, message: str) -> WebhookAddressRefused:
    return WebhookAddressRefused(message, errors=[(field, message)])


def _forbidden(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope (fe80::1%eth0)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    return not ip.is_global or ip.is_multicast


def webhook_url_check(url: str, *, field: str = "url") -> str:
    """Return ``url`` stripped when the server may post to it; else raise
    :class:`WebhookAddressRefused` (422) naming ``field``: not an http(s) address, a user
    name or password in it, longer than 500 characters, a host that does not resolve, or
    one that resolves to any loopback, private, link-local, reserved, multicast or
    unspecified address (IPv4 or IPv6), or a NUL or lone surrogate in it."""
    try:
        url = clean_text(url or "", field=field)  # no NUL, no lone surrogate
    except TextError as exc:
        raise _refuse(field, str(exc)) from None
    if not url:
        raise _refuse(field, _("%(field)s: give the webhook's address") % {"field": field})
    if len(url) > URL_MAX_LENGTH:
        raise _refuse(
            field,
            _("%(field)s: at most %(max)s characters") % {"field": field, "max": URL_MAX_LENGTH},
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise _refuse(
            field,
            _("%(field)s: %(url)s is not an http:// or https:// address")
            % {"field": field, "url": url},
        )
    if parts.username is not None or parts.password is not None:
        raise _refuse(
            field,
            _("%(field)s: an address with a user name or password is refused") % {"field": field},
        )
    host = parts.hostname
    try:
        infos = socket.getaddrinfo(host, port or 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):  # ValueError: a name getaddrinfo cannot take
        raise _refuse(
            field,
            _("%(field)s: the host %(host)s cannot be found") % {"field": field, "host": host},
        ) from None
    if getattr(settings, "NOTIFY_ALLOW_PRIVATE_WEBHOOKS", False):
        return url
    for info in infos:
        address = str(info[4][0])
        if _forbidden(address):
            raise _refuse(
                field,
                _(
                    "%(field)s: %(host)s is %(address)s, an address inside a private "
                    "network (loopback, private, link-local or reserved); a webhook must "
                    "be on the internet"
                )
                % {"field": field, "host": host, "address": address},
            )
    return url
