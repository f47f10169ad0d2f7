"""The root django-ninja API at ``/api/`` (OpenAPI at ``/api/openapi.json``, docs at
``/api/docs``). Each app owns its router; rules errors map to HTTP 400 here, in one place.
``members``: the membership and invitation endpoints; ``exchange``: a campaign's export
and import.

Imports: every app's routers and anything below them (the top layer); only ``campaign.urls``
imports it (import-linter, pyproject.toml).
"""

import json
from typing import Any

from django.db import DataError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import NinjaAPI, Swagger
from ninja.errors import HttpError
from ninja.parser import Parser

from battles.api.actions import router as battle_actions_router
from battles.api.battles import router as battles_router
from battles.api.desk import router as reports_router
from battles.api.play import router as battle_turns_router
from battles.api.rules import router as rules_router
from battles.api.scoring import router as scoring_router
from battles.api.systems import router as systems_rules_router
from battles.log.refusals import rules_error_text
from battles.rules.errors import RulesError
from campaign.core.json_body import BodyShapeError, parse_object
from campaign.core.refusals import Refused, error_body
from campaign.core.validation import TextError
from campaign.fog.api import router as fog_router
from campaign.starmap.api import router as starmap_router
from campaign.turns.api.moves import router as moves_router
from campaign.turns.api.orders import router as orders_router
from campaign.turns.api.turn import router as turns_router
from campaign.turns.errors import TurnActionError
from factions.api.commanders import router as commanders_router
from factions.api.designs import router as designs_router
from factions.api.fleets import router as factions_router


class CsrfSwagger(Swagger):
    """Swagger UI that always sends the CSRF token (``X-CSRFToken``) with its requests.

    django-ninja adds the token only when the *API-wide* auth needs CSRF; ours is set per
    operation (``campaign.league.api_auth.api_auth``), so without this a POST tried from
    ``/api/docs`` with the session answered "CSRF check Failed". Its template adds a
    viewport to ninja's, so a phone shows it at its width.
    """

    template = "campaign/api_docs.html"

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: object) -> HttpResponse:
        self.settings["url"] = self.get_openapi_url(api, kwargs)
        context = {
            "swagger_settings": json.dumps(self.settings, indent=1),
            "api": api,
            "add_csrf": True,
        }
        return render(request, self.template, context)


class ObjectBodyParser(Parser):
    """Every JSON body the API reads must be one object with finite numbers
    (``campaign.core.json_body``): refused here for every operation at once, before any
    view runs; :func:`http_error` answers it 422 naming the body. Text that is not JSON
    is 422 too (django-ninja would answer 400 "Cannot parse request body")."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        try:
            return parse_object(request.body)
        except BodyShapeError:
            raise
        except ValueError as exc:  # not JSON at all: 422 naming the body, as every write
            raise BodyShapeError(_("body: not JSON (%(error)s)") % {"error": exc}) from exc


class AdmiraltyAPI(NinjaAPI):
    """The API, with its OpenAPI schema built once per process and path prefix.

    django-ninja rebuilds the schema on every ``GET /api/openapi.json`` (about 45 ms
    here; 22 req/s measured under gunicorn); routes do not change while the
    process runs, so the first build is kept.
    """

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: dict | None = None
    ) -> Any:
        key = (path_prefix, tuple(sorted((path_params or {}).items())))
        cache = self.__dict__.setdefault("_schema_cache", {})
        if key not in cache:
            cache[key] = super().get_openapi_schema(
                path_prefix=path_prefix, path_params=path_params
            )
        return cache[key]

    def get_openapi_operation_id(self, operation: Any) -> str:
        """``<module>_<function>`` as django-ninja makes it, with each router's module named
        as before the layout move (:data:`OPERATION_ID_MODULES`), so that clients
        generated from the schema keep their method names."""
        module = operation.view_func.__module__
        module = OPERATION_ID_MODULES.get(module, module)
        return f"{module}_{operation.view_func.__name__}".replace(".", "_")


#: The routers' modules as the OpenAPI operation ids name them: their names before the
#: packages were split by job (an operation id is part of the published schema).
OPERATION_ID_MODULES = {
    "battles.api.battles": "battles.api",
    "battles.api.actions": "battles.api_actions",
    "battles.api.desk": "battles.api_reports",
    "battles.api.play": "battles.api_turns",
    "battles.api.rules": "battles.api_rules",
    "battles.api.systems": "battles.api_systems",
    "campaign.api.members": "campaign.api_members",
    "campaign.api.exchange": "campaign.api_exchange",
    "campaign.turns.api.turn": "turns.api",
    "campaign.turns.api.moves": "turns.api_moves",
    "campaign.turns.api.orders": "turns.api_orders",
    "factions.api.fleets": "factions.api",
    "factions.api.designs": "factions.api_designs",
}


api = AdmiraltyAPI(
    title="Admiralty API",
    version="1.0",
    description=(
        "Campaign manager for Full Thrust Incursion leagues. Writes need a user: the "
        "session (this page sends its CSRF token) or a personal token from /account/, sent "
        "as `Authorization: Bearer adm_…`."
    ),
    docs=CsrfSwagger(),
    parser=ObjectBodyParser(),
)


@api.exception_handler(Refused)
def refused(request: HttpRequest, exc: Refused) -> HttpResponse:
    """The one refusal (``campaign.core.refusals``): 403 for a member of the campaign
    without the right, 404 (never saying why) for anyone else, 409 or 422 with the
    fields named. Every router's ``ErrorOut`` is this body."""
    if exc.status == 404:
        return not_found(request, Http404())
    return api.create_response(request, exc.body(), status=exc.status)


@api.exception_handler(RulesError)
def rules_error(request: HttpRequest, exc: RulesError) -> HttpResponse:
    """Map any rules-engine error (``BattleActionError`` among them) to 400 with its
    message in the reader's language (``battles.log.refusals``: one place)."""
    return api.create_response(request, error_body(rules_error_text(exc)), status=400)


@api.exception_handler(TurnActionError)
def turn_error(request: HttpRequest, exc: TurnActionError) -> HttpResponse:
    """Bad input to a turn action (names the ship, yard or field): 400, nothing changed."""
    return api.create_response(request, error_body(str(exc)), status=400)


@api.exception_handler(TextError)
def text_error(request: HttpRequest, exc: TextError) -> HttpResponse:
    """Text no column can store (NUL, lone surrogate, too long; ``campaign.core.validation``),
    caught before any write: 422 naming the field, identical on SQLite and PostgreSQL."""
    message = str(exc)
    return api.create_response(request, error_body(message, [(exc.field, message)]), status=422)


@api.exception_handler(DataError)
def data_error(request: HttpRequest, exc: DataError) -> HttpResponse:
    """A value the database refused (an id beyond 64 bits on PostgreSQL…): the request's
    fault, so 422, not a 500. Writes are in transactions, so nothing is half-written."""
    detail = _("a value cannot be stored or looked up: %(error)s") % {"error": exc}
    return api.create_response(request, error_body(detail.strip()), status=422)


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    """Every 404 says the same, in the reader's language, never why: "not your faction's
    fleet" or django-ninja's DEBUG text ("No Battle matches the given query.") would tell
    a hidden object from a missing one, in English."""
    return api.create_response(request, error_body(_("not found")), status=404)


#: django-ninja's own refusals (English constants in ``ninja.errors``, ``ninja.security``),
#: in the reader's language.
NINJA_TEXTS = {
    "Unauthorized": gettext_lazy(
        "log in, or send a personal token from /account/ (Authorization: Bearer adm_…)"
    ),
    "Forbidden": gettext_lazy("forbidden"),
    "CSRF check Failed": gettext_lazy(
        "CSRF check failed: send the page's CSRF token (X-CSRFToken) or a personal token"
    ),
    "Too many requests.": gettext_lazy("too many requests"),
}


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    """An ``HttpError``'s status and message; ours are translated where raised,
    django-ninja's own through :data:`NINJA_TEXTS`. A body :class:`ObjectBodyParser`
    refused (django-ninja wraps it in a 400) is 422 naming the body."""
    if isinstance(exc.__cause__, BodyShapeError):
        message = str(exc.__cause__)
        return api.create_response(request, error_body(message, [("body", message)]), status=422)
    detail = NINJA_TEXTS.get(str(exc), str(exc))
    return api.create_response(request, error_body(str(detail)), status=exc.status_code)


api.add_router("/", factions_router)
api.add_router("/", commanders_router)
api.add_router("/", turns_router)
api.add_router("/", orders_router)
api.add_router("/", moves_router)
api.add_router("/", starmap_router)
api.add_router("/", fog_router)  # the organisers' reveals on the star map
api.add_router("/", battles_router)
api.add_router("/", battle_actions_router)
api.add_router("/", reports_router)
api.add_router("/", battle_turns_router)
api.add_router("/", scoring_router)  # standings, scoring rules, objectives met
api.add_router("/", "campaign.api.members.router")  # members and invitations
api.add_router("/", "campaign.notify.api.router")  # notification preferences, webhooks
api.add_router("/", "campaign.api.exchange.router")  # the whole campaign out and back in
api.add_router("/designs", designs_router)
api.add_router("/rules", rules_router)
api.add_router("/rules", systems_rules_router)  # seeds 001–004
