"""A chronicler's unsaved text survives the end of the session: the
browser keeps a copy, puts it back with a notice on return to the editor, and forgets
it once saved."""

from __future__ import annotations

import pytest

from battles.models import Battle
from tests.battles.reports.report_fixtures import make_battle

pytestmark = pytest.mark.e2e

TYPED = "The Silith held the belt until the fighters came."


def _login(page, live_server, next_url: str) -> None:
    page.goto(f"{live_server.url}/login/?next={next_url}")
    page.fill("#id_username", "chronicler")
    page.fill("#id_password", "pw-12345!")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_url(f"**{next_url}")


def test_unsaved_report_text_is_restored_after_the_session_ended_then_cleared_on_save(
    live_server, page, cast, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = make_battle(cast.campaign)
    editor = f"/battles/{battle.pk}/report/"
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    _login(page, live_server, editor)
    assert page.locator("#draft-notice").is_hidden()
    page.fill("#id_narrative", TYPED)  # fires "input": the browser keeps a copy
    # The session ends (another tab logged out, or it expired) before "Save".
    # (its session cookie goes; the CSRF cookie stays, as it does when a session expires)
    kept = [c for c in page.context.cookies() if c["name"] != settings.SESSION_COOKIE_NAME]
    page.context.clear_cookies()
    page.context.add_cookies(kept)
    page.locator("form.desk-form button[type=submit]").click()
    page.wait_for_url("**/login/**")
    battle.refresh_from_db()
    assert TYPED not in battle.narrative  # nothing reached the server

    _login(page, live_server, editor)
    assert page.locator("#draft-notice").is_visible()
    assert page.locator("#id_narrative").input_value() == TYPED
    page.locator("#report-preview").get_by_text(TYPED).wait_for()  # previewed as well

    page.locator("form.desk-form button[type=submit]").click()
    page.wait_for_url(f"**{editor}")
    battle.refresh_from_db()
    assert battle.narrative == TYPED
    assert page.locator("#draft-notice").is_hidden()
    page.reload()
    assert page.locator("#draft-notice").is_hidden()
    key = f"admiralty-report-draft-{battle.pk}-{cast.chronicler.pk}"
    assert page.evaluate(f"window.localStorage.getItem({key!r})") is None

    # Discarding a restored copy shows the saved text again and forgets the copy.
    page.fill("#id_narrative", "half a sentence")
    page.reload()
    assert page.locator("#id_narrative").input_value() == "half a sentence"
    page.locator("#draft-discard").click()
    assert page.locator("#id_narrative").input_value() == TYPED
    assert page.evaluate(f"window.localStorage.getItem({key!r})") is None
    assert Battle.objects.get(pk=battle.pk).narrative == TYPED
    assert errors == []
