"""Battles API (django-ninja router mounted at ``/api/``): battle reads, and the two ways
to conclude a draft battle (organisers only): ``POST /api/battles/{id}/resolve`` (the rules
engine) and ``POST /api/battles/{id}/record`` (a game played on the table); and the
Monte-Carlo odds of who wins a draft battle, ``GET /api/battles/{id}/forecast`` (organisers).

Scoping goes through the ``access`` helpers: draft battles are for their campaign's
organisers, and a player of one of a draft's sides reads its briefing
(``battles.api.briefing``, the battle page's); in a concluded battle, a side's fleet and
the participants from fleets the user may not see (hidden fleets of other factions) are
left out, exactly as ``/api/fleets`` leaves those fleets out. The actions answer 401 without a user
(``campaign.league.api_auth.api_auth``: a bearer API token, or the session and its CSRF token),
403 for the campaign's members who do not organise it (``require_organiser``), 404 for an
unknown battle, another campaign's draft and anyone outside the battle's campaign (no
status tells a battle exists) and 400 with the
message for a refused action (``battles.services.BattleActionError``, a ``RulesError``).
"""

from __future__ import annotations

import json

import pydantic
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from ninja import Field, Query, Router, Schema, Status
from ninja.errors import HttpError

from battles.access import actionable_battles, visible_battles
from battles.api.briefing import BattleBriefingOut, briefing_out
from battles.briefing import battle_briefing
from battles.filters import BattleFilter
from battles.models import Battle, BattleSide, Participant
from battles.reports.narrative import narrative_for, reader_language
from battles.scoring.objectives import side_objectives_set
from battles.services import MAX_TURNS_LIMIT, battle_record, battle_resolve
from battles.services.forecast import battle_forecast
from battles.visibility import fleet_hidden, hidden_participants, may_read_draft, reader_for
from campaign.core.api_errors import ErrorOut
from campaign.core.api_pages import array_page, filtered
from campaign.core.json_body import BodyShapeError, parse_object
from campaign.core.limits import NUMBER_MAX, TEXT_MAX_CHARS
from campaign.core.stored_text import stored_text
from campaign.league.api_auth import api_auth
from campaign.league.roles import require_organiser

router = Router(tags=["battles"])


class BattleSideOut(Schema):
    faction: str
    fleet: str | None
    is_winner: bool

    @staticmethod
    def resolve_faction(obj: BattleSide) -> str:
        return obj.faction.slug

    @staticmethod
    def resolve_fleet(obj: BattleSide) -> str | None:
        hidden = obj.fleet_id is None or fleet_hidden(obj.reader, obj.fleet_id)
        return None if hidden else obj.fleet.slug


class BattleOut(Schema):
    id: int
    name: str
    slug: str
    campaign: str
    location: str
    campaign_turn: int | None
    game_turns: int | None
    status: str
    winner: str | None
    sides: list[BattleSideOut]

    @staticmethod
    def resolve_campaign(obj: Battle) -> str:
        return obj.campaign.slug

    @staticmethod
    def resolve_winner(obj: Battle) -> str | None:
        return obj.winner.slug if obj.winner_id else None


class ParticipantOut(Schema):
    """A ship or light-unit group on one side and what the battle did to it (boxes, crew
    factors, system ids, craft). ``id`` is what ``POST /battles/{id}/record`` names."""

    id: int
    ship_id: int | None
    light_units_id: int | None
    name: str
    fate: str
    hull_lost: int
    armour_lost: int
    crew_lost: int
    systems_lost: list[str]
    craft_lost: int
    notes: str

    @staticmethod
    def resolve_name(obj: Participant) -> str:
        if obj.ship_id:
            ship = obj.ship
            return f"{ship.name} ({ship.ship_class.name})" if ship.name else ship.ship_class.name
        return obj.light_units.name


class BattleSideDetailOut(BattleSideOut):
    primary_objective: str
    secondary_objectives: str
    analysis: str
    participants: list[ParticipantOut]

    @staticmethod
    def resolve_participants(obj: BattleSide) -> list[Participant]:
        unseen = {p.pk for p in hidden_participants(obj.participants.all(), obj.reader)}
        return [p for p in obj.participants.all() if p.pk not in unseen]


class BattleDetailOut(BattleOut):
    date: str | None
    scenario: str
    outcome: str
    #: ``outcome`` in the request's language when the engine wrote it
    #: (``campaign.core.stored_text``).
    outcome_display: str
    narrative: str
    analysis: str
    sides: list[BattleSideDetailOut]

    @staticmethod
    def resolve_date(obj: Battle) -> str | None:
        return obj.date.isoformat() if obj.date else None

    @staticmethod
    def resolve_outcome_display(obj: Battle) -> str:
        return stored_text(obj.outcome, obj.outcome_message)


def _battles(request: HttpRequest, *, detail: bool) -> QuerySet[Battle]:
    """Battles the user may see (``visible_battles``): concluded ones, plus the
    drafts of the campaigns the user organises (all for staff)."""
    qs = visible_battles(request.user).select_related("campaign", "winner")
    sides = BattleSide.objects.select_related("faction", "fleet")
    if detail:
        participants = Participant.objects.select_related(
            "ship__ship_class", "light_units__carrier"
        ).order_by("pk")
        sides = sides.prefetch_related(Prefetch("participants", queryset=participants))
    return qs.prefetch_related(Prefetch("sides", queryset=sides))


def _scope_sides(request: HttpRequest, battles: list[Battle]) -> list[Battle]:
    """Mark every battle and side with the user as ``battles.visibility`` reads them
    (``reader``, one query for all)."""
    reader = reader_for(request.user)
    for battle in battles:
        battle.reader = reader
        for side in battle.sides.all():
            side.reader = reader
    return battles


class BattleFilterIn(Schema):
    """``GET /api/battles`` filters (``battles.filters.BattleFilter``)."""

    campaign: str | None = Field(None, description="campaign slug")
    faction: str | None = Field(None, description="slug of a faction on either side")
    status: str | None = Field(None, description="draft or concluded")
    turn: int | None = Field(None, ge=0, le=NUMBER_MAX, description="campaign turn")
    name: str | None = Field(None, description="part of the name, any case")


@router.get("/battles", response=list[BattleOut])
@array_page(prepare=_scope_sides)
def battle_list(request: HttpRequest, response: HttpResponse, filters: Query[BattleFilterIn]):
    """Battles the user may see, with their sides and winner, in the order of their
    campaign, turn, date and name; ``limit``/``offset`` (``X-Total-Count``: how many) and
    the filters of :class:`BattleFilterIn`."""
    battles = _battles(request, detail=False).order_by(
        "campaign", "campaign_turn", "date", "name", "pk"
    )
    return filtered(BattleFilter(filters.model_dump(exclude_none=True), queryset=battles))


@router.get("/battles/{battle_id}", response=BattleDetailOut | BattleBriefingOut)
def battle_detail(request: HttpRequest, battle_id: int):
    """A battle with objectives, participants and their fate, narrative and analyses.
    The people's texts of an unpublished report are empty for whoever may not edit it,
    as on the battle page (``battles.reports.context.report_context``). A player of one
    of a draft's sides gets its briefing instead, as on the battle page
    (``BattleBriefingOut``: their own side's objectives, the others' factions only);
    anyone else 404 for a draft."""
    battle = _battles(request, detail=True).filter(pk=battle_id).first()
    if battle is None:
        draft = get_object_or_404(
            actionable_battles(request.user).select_related("campaign", "territory"),
            pk=battle_id,
        )
        briefing = battle_briefing(draft, request.user)
        if briefing is None:  # actionable_battles lets no one else reach a draft
            raise Http404
        return briefing_out(draft, briefing)
    battle = _scope_sides(request, [battle])[0]
    if not may_read_draft(battle, battle.reader):
        battle.narrative = battle.analysis = ""  # in memory only: never saved
        for side in battle.sides.all():
            side.analysis = ""
    else:  # the draft in the caller's language; a person's text as written
        battle.narrative = narrative_for(battle, reader_language()).text  # never saved
    return battle


# ---- concluding a draft battle (organisers) ----------------------------------------------


class ResolveIn(Schema):
    """``seed``: dice seed (default: the battle's stored seed, else random); ``max_turns``:
    game-turn cap."""

    seed: int | None = Field(default=None, ge=0, lt=2**63)
    max_turns: int = Field(default=20, ge=1, le=MAX_TURNS_LIMIT)


class ParticipantResultIn(Schema):
    """What one participant lost in the battle (boxes, crew factors, system ids of its
    class design, craft); ``crew_lost`` left out follows the hull lost (D-9)."""

    participant: int
    fate: str = Participant.Fate.UNHARMED
    hull_lost: int = 0
    armour_lost: int = 0
    crew_lost: int | None = None
    systems_lost: list[str] = []
    craft_lost: int = 0
    notes: str = Field(default="", max_length=TEXT_MAX_CHARS)


class RecordIn(Schema):
    """A game played on the table: results per participant (unlisted ones are unharmed),
    the outcome text, the winning side's faction slug (None: a draw), turns played
    (0–``MAX_TURNS_LIMIT``), and optionally the narrative."""

    results: list[ParticipantResultIn] = []
    outcome: str = Field(default="", max_length=TEXT_MAX_CHARS)
    winner: str | None = None
    game_turns: int | None = Field(default=None, ge=0, le=MAX_TURNS_LIMIT)
    # Markdown; left out: the battle's narrative is kept. Limit: campaign.core.limits.
    narrative: str | None = Field(default=None, max_length=TEXT_MAX_CHARS)
    # Objectives met per side's faction slug (0–100), counted in its victory points.
    objectives_met: dict[str, int] = {}


class BattleActionOut(Schema):
    """The concluded battle: its result and the size of its log (entries, dice rolled)."""

    id: int
    status: str
    mode: str
    winner: str | None
    outcome: str
    game_turns: int | None
    seed: int | None
    version: int
    events: int
    rolls: int

    @staticmethod
    def resolve_winner(obj: Battle) -> str | None:
        return obj.winner.slug if obj.winner_id else None

    @staticmethod
    def resolve_events(obj: Battle) -> int:
        return obj.events.count()

    @staticmethod
    def resolve_rolls(obj: Battle) -> int:
        return obj.events.filter(kind="roll").count()


#: The 403 refusals of the organiser actions, by action, in the reader's language.
ORGANISER_OF_CAMPAIGN_ONLY = {
    "resolve": gettext_lazy(
        "only organisers of campaign '%(campaign)s' may resolve its battles (battle %(battle)s)"
    ),
    "record": gettext_lazy(
        "only organisers of campaign '%(campaign)s' may record its battles (battle %(battle)s)"
    ),
    "forecast": gettext_lazy(
        "only organisers of campaign '%(campaign)s' may forecast its battles (battle %(battle)s)"
    ),
}


def _organised_battle(request: HttpRequest, battle_id: int, action: str) -> Battle:
    """The battle for an organiser action: only staff and the organisers of *this*
    battle's campaign may resolve, record or forecast it. 404 for an unknown battle, a
    draft the user may not act on (``actionable_battles``: another campaign's, one their
    faction is not in) and anyone outside the battle's campaign, so that no status tells
    its existence; 403 for the campaign's other members."""
    visible = actionable_battles(request.user).select_related("campaign")
    battle = get_object_or_404(visible, pk=battle_id)
    detail = str(ORGANISER_OF_CAMPAIGN_ONLY[action]) % {
        "campaign": battle.campaign.slug,
        "battle": battle.pk,
    }
    require_organiser(request.user, battle.campaign, detail)
    return battle


_ACTION_RESPONSES = {200: BattleActionOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut}


def _resolve_body(request: HttpRequest) -> ResolveIn:
    """The resolve request's body: empty (the defaults) or one JSON object of
    :class:`ResolveIn`'s fields. A string, a list, a number or double-encoded JSON (a
    string holding an object) is refused with 422 before anything is read or written,
    as is an unknown field or a value out of range."""
    if request.content_type != "application/json":
        if request.POST:  # a form body: the fields must come as JSON
            raise HttpError(422, _("body: send a JSON object (Content-Type: application/json)"))
        return ResolveIn()
    raw = request.body.strip()
    if not raw:
        return ResolveIn()
    try:
        data = parse_object(raw)
    except BodyShapeError as exc:
        raise HttpError(422, str(exc)) from exc  # answered as every other body's
    except ValueError as exc:  # answered as every other body's: 422 naming the body
        shape = BodyShapeError(_("body: not JSON (%(error)s)") % {"error": exc})
        raise HttpError(422, str(shape)) from shape
    unknown = sorted(set(data) - set(ResolveIn.model_fields))
    if unknown:
        raise HttpError(422, _("body: unknown field(s) %(fields)s") % {"fields": unknown})
    try:
        return ResolveIn.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise HttpError(422, f"body.{where}: {first['msg']}") from exc


@router.post(
    "/battles/{battle_id}/resolve",
    response={**_ACTION_RESPONSES, 422: ErrorOut},
    auth=api_auth,
    openapi_extra={
        "requestBody": {
            "required": False,
            "content": {"application/json": {"schema": ResolveIn.model_json_schema()}},
        }
    },
)
def battle_resolve_view(request: HttpRequest, battle_id: int):
    """Fight a draft battle with the rules engine and conclude it; every die roll goes to
    its log. Body: nothing, or ``{"seed": int, "max_turns": int}`` (422 otherwise)."""
    battle = _organised_battle(request, battle_id, "resolve")
    payload = _resolve_body(request)
    return battle_resolve(
        battle=battle, seed=payload.seed, max_turns=payload.max_turns, user=request.user
    )


def _json_type(request: HttpRequest) -> str:
    """The JSON type name of the request's body (``dict`` for an object)."""
    try:
        return type(json.loads(request.body or b"null")).__name__
    except ValueError:
        return "text"


@router.post(
    "/battles/{battle_id}/record",
    response={**_ACTION_RESPONSES, 422: ErrorOut},
    auth=api_auth,
)
def battle_record_view(request: HttpRequest, battle_id: int, payload: RecordIn):
    """Record what happened on the table, checked against each ship's SSD. The body must
    be one JSON object: django-ninja read a bare string (``"hello"``) as every default,
    and the battle was concluded with no result (422 now, as ``/resolve`` does)."""
    battle = _organised_battle(request, battle_id, "record")
    if (kind := _json_type(request)) != "dict":
        detail = _('body: expected a JSON object such as {"results": []}, got %(type)s')
        return Status(422, {"detail": detail % {"type": kind}})
    results = [r.model_dump(exclude_none=True) for r in payload.results]
    # One transaction: a refused record leaves the objectives as they were.
    with transaction.atomic():
        if payload.objectives_met:
            side_objectives_set(battle=battle, user=request.user, values=payload.objectives_met)
        return battle_record(
            battle=battle,
            results=results,
            outcome=payload.outcome,
            winner=payload.winner,
            game_turns=payload.game_turns,
            narrative=payload.narrative,
            user=request.user,
        )


# ---- Monte-Carlo odds of a draft battle (organisers) -------------------------------------

#: Battles one API request may fight (about 10 ms each): longer runs use the command.
MAX_API_FORECAST = 500


class ForecastOutcomeOut(Schema):
    side: str | None  # a faction slug; None: the draws
    battles: int
    share: float
    interval_95: list[float]


class ForecastOut(Schema):
    """``battles`` fought (battle i with seed ``seed + i``), per outcome the count, share
    and Wilson 95 % interval, how they ended, and the mean length in turns."""

    battles: int
    seed: int
    outcomes: list[ForecastOutcomeOut]
    endings: dict[str, int]
    mean_turns: float


@router.get(
    "/battles/{battle_id}/forecast",
    response={200: ForecastOut, 400: ErrorOut, 403: ErrorOut, 404: ErrorOut},
    auth=api_auth,
)
def battle_forecast_view(
    request: HttpRequest,
    battle_id: int,
    battles: int = Query(200, ge=1, le=MAX_API_FORECAST),
    seed: int = Query(0, ge=0, lt=2**62),
    max_turns: int = Query(20, ge=1, le=MAX_TURNS_LIMIT),
):
    """Monte-Carlo odds of who wins a draft battle, from its fleets as they stand (hidden
    ones included, hence organisers only). Changes nothing."""
    battle = _organised_battle(request, battle_id, "forecast")
    forecast = battle_forecast(battle=battle, battles=battles, seed=seed, max_turns=max_turns)
    return forecast.as_dict()
