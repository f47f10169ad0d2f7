"""The root django-ninja API at ``/api/`` (OpenAPI at ``/api/openapi.json``, docs at
``/api/docs``). Each app owns its router; rules errors map to HTTP 400 here, in one place.
"""

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI

from battles.api import router as battles_router
from battles.api_actions import router as battle_actions_router
from battles.api_rules import router as rules_router
from battles.api_systems import router as systems_rules_router
from battles.api_turns import router as battle_turns_router
from battles.rules.errors import RulesError
from factions.api import router as factions_router
from factions.api_designs import router as designs_router
from turns.api import router as turns_router
from turns.api_orders import router as orders_router
from turns.errors import TurnActionError, TurnPermissionError

api = NinjaAPI(
    title="Admiralty API",
    version="1.0",
    description="Campaign manager for Full Thrust Incursion leagues.",
)


@api.exception_handler(RulesError)
def rules_error(request: HttpRequest, exc: RulesError) -> HttpResponse:
    """Map any rules-engine error to 400 with its message (STYLE.md: one place)."""
    return api.create_response(request, {"detail": str(exc)}, status=400)


@api.exception_handler(TurnActionError)
def turn_error(request: HttpRequest, exc: TurnActionError) -> HttpResponse:
    """Bad input to a turn action (names the ship, yard or field): 400, nothing changed."""
    return api.create_response(request, {"detail": str(exc)}, status=400)


@api.exception_handler(TurnPermissionError)
def turn_forbidden(request: HttpRequest, exc: TurnPermissionError) -> HttpResponse:
    """Acting for a faction or campaign the user does not run: 403."""
    return api.create_response(request, {"detail": str(exc)}, status=403)


api.add_router("/", factions_router)
api.add_router("/", turns_router)
api.add_router("/", orders_router)
api.add_router("/", battles_router)
api.add_router("/", battle_actions_router)
api.add_router("/", battle_turns_router)
api.add_router("/designs", designs_router)
api.add_router("/rules", rules_router)
api.add_router("/rules", systems_rules_router)  # seeds 001–004
