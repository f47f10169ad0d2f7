"""Password reset with Django's views and the league's templates: the login page links it,
the e-mail carries a one-use link, the new password logs in, the link then refuses."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client

pytestmark = pytest.mark.django_db


def test_password_reset_flow(cast):
    cast.norge_player.email = "norge@example.org"
    cast.norge_player.save()
    client = Client()
    login = client.get("/login/").content.decode()
    assert '<a href="/password-reset/">Mot de passe oublié\u202f?</a>' in login
    assert "Mot de passe oublié" in client.get("/password-reset/").content.decode()

    r = client.post("/password-reset/", {"email": "norge@example.org"})
    assert r.status_code == 302 and r["Location"] == "/password-reset/sent/"
    assert "Consultez vos e-mails" in client.get(r["Location"]).content.decode()
    # An unknown address gets the same answer and no e-mail (no account is revealed).
    r = client.post("/password-reset/", {"email": "nobody@example.org"})
    assert r["Location"] == "/password-reset/sent/"
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["norge@example.org"]
    assert sent.subject == "Admiralty\u202f: choisissez un nouveau mot de passe"
    assert "pour le compte norge_player sur Admiralty" in sent.body
    link = re.search(r"http://testserver(/password-reset/[^/\s]+/[^/\s]+/)", sent.body)[1]

    r = client.get(link)  # Django swaps the token for a session marker and redirects
    assert r.status_code == 302
    form_url = r["Location"]
    page = client.get(form_url).content.decode()
    assert "Nouveau mot de passe (confirmation)" in page
    r = client.post(form_url, {"new_password1": "12345678", "new_password2": "12345678"})
    assert r.status_code == 200 and "errors" in r.content.decode()
    r = client.post(
        form_url, {"new_password1": "fresh passphrase 7", "new_password2": "fresh passphrase 7"}
    )
    assert r.status_code == 302 and r["Location"] == "/password-reset/done/"
    assert (
        "Votre nouveau mot de passe est enregistré." in client.get(r["Location"]).content.decode()
    )
    cast.norge_player.refresh_from_db()
    assert cast.norge_player.check_password("fresh passphrase 7")

    used = Client().get(link, follow=True).content.decode()
    assert "Ce lien ne fonctionne pas" in used


def test_password_reset_requests_are_limited_per_address(cast, settings):
    """Ten requests in two seconds sent ten e-mails to one mailbox."""
    cast.norge_player.email = "norge@example.org"
    cast.norge_player.save()
    answers = [
        Client(REMOTE_ADDR=f"10.0.0.{n}").post("/password-reset/", {"email": "Norge@example.org"})
        for n in range(10)
    ]
    assert [r.status_code for r in answers] == [302] * 3 + [429] * 7
    assert len(mail.outbox) == 3 == settings.PASSWORD_RESET_PER_ADDRESS
    page = answers[-1].content.decode()
    assert "Trop de demandes de nouveau mot de passe\u202f: réessayez dans une heure." in page
    # Another address is not held back by this one's limit.
    other = Client(REMOTE_ADDR="10.0.1.1").post("/password-reset/", {"email": "x@example.org"})
    assert other.status_code == 302


def test_password_reset_requests_are_limited_per_client(cast, settings):
    """One client cycling through addresses (known or not) is held back too, and an
    unknown address counts as a known one does: the limit reveals no account."""
    client = Client(REMOTE_ADDR="10.9.9.9")
    answers = [
        client.post("/password-reset/", {"email": f"user{n}@example.org"}) for n in range(12)
    ]
    limit = settings.PASSWORD_RESET_PER_IP
    assert [r.status_code for r in answers] == [302] * limit + [429] * (12 - limit)
    assert (
        Client(REMOTE_ADDR="10.9.9.8")
        .post("/password-reset/", {"email": "user0@example.org"})
        .status_code
        == 302
    )
