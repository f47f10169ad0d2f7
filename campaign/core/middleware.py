"""Input guards that run before any view.

- a request body over ``limits.REQUEST_BODY_MAX_BYTES`` is refused with 413 and a
  readable message (JSON on ``/api/``, a page elsewhere) instead of Django's bare HTML
  400 for ``RequestDataTooBig``;
- a NUL character in the path or the query string is a 400 (PostgreSQL cannot compare
  text holding one: the lookup would be a 500);
- a multipart body without a valid boundary, or one Django cannot parse, is a 400 saying
  so (JSON on ``/api/``, the input error page elsewhere), alike with DEBUG on or off:
  Django's own answer was a 500 under DEBUG and a bare English page otherwise;
- a JSON body sent to ``/api/`` whose strings hold a NUL or a lone UTF-16 surrogate is a
  422 naming the JSON path (``results[0].notes``): no endpoint, present or future, has to
  remember it, and SQLite and PostgreSQL answer alike;
- a :class:`~campaign.core.refusals.Refused` raised by a page (its ``require_*`` role
  check or a service) is the 403 or 404 page, once for every page;
- the safety net behind the forms' own checks: a text no column can store
  (:class:`~campaign.core.validation.TextError`, raised before every save) or a number no
  column can hold (``OverflowError`` from the database driver) that reaches no form
  error is a 400 page naming the field, not a 500. The write's transaction has rolled
  back: nothing was stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults

from campaign.core import limits
from campaign.core.refusals import Kind, Refused
from campaign.core.validation import TextError, json_text_problem


def _refuse(request: HttpRequest, status: int, message: str, field: str = "") -> HttpResponse:
    if request.path.startswith("/api/"):
        body: dict = {"detail": message}
        if field:
            body["errors"] = [{"field": field, "message": message}]
        return JsonResponse(body, status=status)
    return render(request, "campaign/input_error.html", {"message": message}, status=status)


def _too_big(request: HttpRequest) -> HttpResponse:
    message = _("The request is too large: the limit is %(limit)s MiB.") % {
        "limit": limits.REQUEST_BODY_MAX_BYTES // (1024 * 1024)
    }
    return _refuse(request, 413, message)


#: A boundary as Django's multipart parser checks it (printable ASCII, not ending in a space).
_BOUNDARY = re.compile(r"[ -~]{0,200}[!-~]")


def _unreadable_form(request: HttpRequest) -> HttpResponse:
    return _refuse(
        request,
        400,
        _("The form data cannot be read: send multipart/form-data with a valid boundary."),
        field="body",
    )


def _refused_page(request: HttpRequest, exc: Refused) -> HttpResponse:
    """The project's 404 page (never saying why) or 403 page (with the reason), as for
    Django's own ``Http404`` and ``PermissionDenied``; other kinds: the input error page."""
    if exc.kind == Kind.NOT_FOUND:
        return defaults.page_not_found(request, Http404())
    if exc.kind == Kind.FORBIDDEN:
        return defaults.permission_denied(request, PermissionDenied(str(exc)))
    return _refuse(request, exc.status, str(exc))


class InputGuardMiddleware:
    """See the module docstring. Place after ``LocaleMiddleware`` (translated messages)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limits.REQUEST_BODY_MAX_BYTES:
            return _too_big(request)
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return _refuse(request, 400, _("The address contains a NUL character (\\x00)."))
        if (
            request.method in {"POST", "PUT", "PATCH"}
            and request.content_type == "multipart/form-data"
            and not _BOUNDARY.fullmatch(request.content_params.get("boundary", ""))
        ):
            return _unreadable_form(request)
        if (
            request.path.startswith("/api/")
            and request.method in {"POST", "PUT", "PATCH"}
            and request.content_type == "application/json"
        ):
            refused = self._check_json(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    def _check_json(self, request: HttpRequest) -> HttpResponse | None:
        try:
            data = json.loads(request.body)
        except RequestDataTooBig:
            return _too_big(request)
        except ValueError:
            return None  # not JSON: the endpoint answers its own parse error
        found = json_text_problem(data)
        if found is None:
            return None
        where, problem = found
        where = where or "body"
        return _refuse(request, 422, f"{where}: {problem}", field=where)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Refused):
            return _refused_page(request, exception)
        if isinstance(exception, RequestDataTooBig):
            return _too_big(request)
        if isinstance(exception, MultiPartParserError):
            return _unreadable_form(request)
        if isinstance(exception, TextError):
            return _refuse(request, 400, exception.messages[0], field=exception.field)
        if isinstance(exception, OverflowError):
            return _refuse(
                request,
                400,
                _("A number is out of range (at most %(max)s).") % {"max": limits.NUMBER_MAX},
            )
        return None
