"""The new invitation link comes with a button that copies it (a static script: the CSP
forbids inline ones); without JavaScript the button stays hidden and the field is there."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from tests.conftest import client_for


def test_the_new_link_has_a_copy_button(cast):
    client = client_for(cast, None, "organiser")
    client.post("/campaigns/test-league/invitations/", {"role": "chronicler"})
    page = client.get("/campaigns/test-league/members/").content.decode()
    assert (
        '<button type="button" class="copy-button" data-copy="invitation-link" '
        'data-copied="Copié" data-failed="Sélectionné\u202f: copiez-le à la main" hidden>'
        "Copier le lien</button>"
    ) in page
    assert '<script src="/static/js/copy-link.js" defer></script>' in page
    assert 'id="invitation-link"' in page
    # Only once a link was just made: the button has nothing to copy otherwise.
    again = client.get("/campaigns/test-league/members/").content.decode()
    assert "copy-button" not in again


def test_the_copy_script_writes_to_the_clipboard():
    script = (Path(settings.BASE_DIR) / "static" / "js" / "copy-link.js").read_text()
    assert "navigator.clipboard.writeText(field.value)" in script
    assert "button.hidden = false" in script
