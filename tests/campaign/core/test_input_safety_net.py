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
