"""A number no column holds and a text no column stores, typed into a form
or sent to the API, are a clear error naming the field, never a 500, and store nothing
(campaign.core.limits.NUMBER_MAX; campaign.core.validation.TextError; campaign.core.middleware)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.utils import translation

from campaign.core.middleware import InputGuardMiddleware
from campaign.core.validation import TextError


@pytest.mark.parametrize(
    "path,exception,status,needle",
    [
        ("/x/", TextError("reason: holds a NUL character", field="reason"), 400, "reason: holds"),
        ("/api/x", TextError("name: too long", field="name"), 400, '"field": "name"'),
        ("/x/", OverflowError("Python int too large to convert to SQLite INTEGER"), 400, "range"),
    ],
)
def test_the_safety_net_answers_400_naming_the_field(path, exception, status, needle):
    request = RequestFactory().post(path, HTTP_ACCEPT_LANGUAGE="en")
    with translation.override("en"):
        response = InputGuardMiddleware(lambda r: None).process_exception(request, exception)
    assert response is not None and response.status_code == status
    assert needle in response.content.decode()
    other = InputGuardMiddleware(lambda r: None).process_exception(request, KeyError("x"))
    assert other is None  # a real bug stays a 500


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    "path", ["/login/", "/password-reset/", "/api/fleets/import", "/api/designs/validate"]
)
def test_a_multipart_body_without_a_boundary_is_a_clean_400(settings, path, debug):
    """It was a 500 with DEBUG on and Django's bare English 400 page otherwise; now the
    league's page (JSON on the API) says what is wrong, in the reader's language."""
    from django.test import Client

    settings.DEBUG = debug
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):
        response = Client().post(
            path, b"--x\r\n\r\n--x--", content_type=content_type, HTTP_ACCEPT_LANGUAGE="en"
        )
        assert response.status_code == 400
        message = "The form data cannot be read: send multipart/form-data with a valid boundary."
        if path.startswith("/api/"):
            assert response.json() == {
                "detail": message,
                "errors": [{"field": "body", "message": message}],
            }
        else:
            page = response.content.decode()
            assert response["Content-Type"].startswith("text/html")
            assert "<h1>Request refused</h1>" in page and message in page
    french = Client().post(path, b"--x\r\n", content_type="multipart/form-data")
    shown = french.json()["detail"] if path.startswith("/api/") else french.content.decode()
    assert "Les données du formulaire sont illisibles\u202f: envoyez" in shown


def test_a_multipart_body_django_cannot_parse_is_the_same_400():
    from django.http.multipartparser import MultiPartParserError

    request = RequestFactory().post("/api/x", HTTP_ACCEPT_LANGUAGE="en")
    with translation.override("en"):
        response = InputGuardMiddleware(lambda r: None).process_exception(
            request, MultiPartParserError("Invalid boundary in multipart: None")
        )
    assert response.status_code == 400
    assert "valid boundary" in response.content.decode()
