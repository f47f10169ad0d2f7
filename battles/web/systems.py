"""Pages of the other game systems' helpers (seeds 001–004): thin views over the pure
rules packages. None writes to the database: the GM token tracker keeps its ships in the
visitor's session, the calculators answer GET forms. Rules errors are shown, never a 500.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from battles.access import visible_battles
from battles.models.other_games import SystemUnit
from battles.rules.dice import Dice
from battles.rules.errors import RulesError
from battles.systems import epic, sf_boarding, sf_tokens, swsb
from battles.systems.games import SYSTEMS
from battles.web.system_forms import (
    TIER_CHOICES,
    AttackOddsForm,
    BoardingForm,
    ShieldOddsForm,
    TrackerShipForm,
)

CHECK_LABELS = {
    "piloting": gettext_lazy("Piloting"),
    "gunnery": gettext_lazy("Gunnery"),
    "special-gunnery": gettext_lazy("Special gunnery"),
}
POST_LABELS = {
    "pilot": gettext_lazy("pilot"),
    "gunner": gettext_lazy("gunner"),
    "science": gettext_lazy("science officer"),
    "engineer": gettext_lazy("engineer"),
}
SESSION_KEY = "sf_tracker"
MAX_TRACKED_SHIPS = 12
DEFAULT_DC = 15


def rules_index(request: HttpRequest) -> HttpResponse:
    """The game systems and their helpers (``battles.systems.games``)."""
    return render(request, "systems/index.html", {"systems": SYSTEMS.values()})


def _battle(request: HttpRequest) -> Any:
    """The battle named by ``?battle=`` if the user may see it (for a link back)."""
    pk = request.GET.get("battle") or request.POST.get("battle")
    if not (pk and str(pk).isdigit()):
        return None
    return visible_battles(request.user).filter(pk=int(pk)).first()


def _tracker_state(request: HttpRequest) -> tuple[list[sf_tokens.GMShip], int]:
    raw = request.session.get(SESSION_KEY) or {}
    ships = []
    for data in raw.get("ships", [])[:MAX_TRACKED_SHIPS]:
        try:
            ships.append(sf_tokens.GMShip.from_dict(data))
        except RulesError:
            continue  # a stale or tampered entry is dropped, not a 500
    dc = raw.get("dc", DEFAULT_DC)
    return ships, dc if isinstance(dc, int) and -100 <= dc <= 200 else DEFAULT_DC


def _save_tracker(request: HttpRequest, ships: list[sf_tokens.GMShip], dc: int) -> None:
    request.session[SESSION_KEY] = {"ships": [s.to_dict() for s in ships], "dc": dc}


def _ship_card(ship: sf_tokens.GMShip, index: int, dc: int) -> dict[str, Any]:
    options = sf_tokens.available_actions(ship)
    return {
        "index": index,
        "ship": ship,
        "allowed": [
            (sf_tokens.ACTIONS[o.id], o, POST_LABELS[sf_tokens.ACTIONS[o.id].post])
            for o in options
            if o.allowed
        ],
        "refused": [(sf_tokens.ACTIONS[o.id], o) for o in options if not o.allowed],
        "checks": [(CHECK_LABELS[c.check], c) for c in sf_tokens.check_table(ship, dc)],
        "states": sorted(ship.states.items()),
        "maintainable": [s for s, st in ship.states.items() if st in ("malfunctioning", "wrecked")],
        "log": list(reversed(ship.log[-8:])),
        "token_marks": ["full"] * ship.tokens + ["spent"] * (ship.pool - ship.tokens),
    }


@require_http_methods(["GET", "POST"])
def sf_tracker(request: HttpRequest) -> HttpResponse:
    """The GM's round tracker (seed 001): each GM ship's tokens left this round, its
    critical states, the advanced actions it may still take (and why not the others) and
    the odds of its basic checks against a DC with and without a token."""
    ships, dc = _tracker_state(request)
    battle = _battle(request)
    if request.method == "POST":
        form = TrackerShipForm(request.POST) if request.POST.get("op") == "add" else None
        try:
            dc = _tracker_op(request.POST, ships, dc, form)
        except RulesError as exc:
            messages.error(request, str(exc))
        _save_tracker(request, ships, dc)
        if form is not None and form.errors:
            return _render_tracker(request, ships, dc, battle, form, status=400)
        suffix = f"?battle={battle.pk}" if battle else ""
        return redirect(request.path + suffix)
    return _render_tracker(request, ships, dc, battle, TrackerShipForm())


def _index(post: Any, ships: list[sf_tokens.GMShip]) -> int:
    raw = post.get("ship", "")
    if not raw.isdigit() or int(raw) >= len(ships):
        raise sf_tokens.TokenRulesError(_("ship: no such ship in the tracker"))
    return int(raw)


def _tracker_op(post: Any, ships: list[sf_tokens.GMShip], dc: int, form: Any) -> int:
    """Apply one tracker operation in place; returns the DC."""
    op = post.get("op")
    if op == "add":
        if form.is_valid():
            if len(ships) >= MAX_TRACKED_SHIPS:
                raise sf_tokens.TokenRulesError(_("ships: at most %d ships") % MAX_TRACKED_SHIPS)
            d = form.cleaned_data
            ships.append(
                sf_tokens.new_ship(
                    name=d["name"],
                    tier=d["tier"],
                    pc_tier=d["pc_tier"],
                    crew=d["crew"],
                    posts=d["posts"],
                    bonuses={
                        "piloting": d["piloting"],
                        "gunnery": d["gunnery"],
                        "special-gunnery": d["special_gunnery"],
                    },
                )
            )
    elif op == "add-roster":
        if len(ships) >= MAX_TRACKED_SHIPS:
            raise sf_tokens.TokenRulesError(_("ships: at most %d ships") % MAX_TRACKED_SHIPS)
        ships.append(_roster_ship(post.get("unit", ""), post.get("pc_tier", "")))
    elif op == "dc":
        raw = post.get("dc", "")
        if not raw.lstrip("-").isdigit() or not -100 <= int(raw) <= 200:
            raise sf_tokens.TokenRulesError(_("dc: a whole number, e.g. 15"))
        dc = int(raw)
    elif op == "next-round":
        for ship in ships:
            sf_tokens.next_round(ship)
    elif op == "reset":
        ships.clear()
    elif op == "remove":
        ships.pop(_index(post, ships))
    elif op == "spend":
        ship = ships[_index(post, ships)]
        sf_tokens.spend(
            ship,
            post.get("action", ""),
            arc=post.get("arc", "forward"),
            system=post.get("system", ""),
        )
    elif op == "boost":
        sf_tokens.boost(ships[_index(post, ships)], post.get("kind", ""))
    elif op == "state":
        sf_tokens.set_state(
            ships[_index(post, ships)], post.get("system", ""), post.get("state", "")
        )
    else:
        raise sf_tokens.TokenRulesError(_("op: unknown operation"))
    return dc


def _roster_ship(unit_pk: str, pc_tier: str) -> sf_tokens.GMShip:
    """A tracker ship from a Starfinder roster unit (``SystemUnit.stats``: ``tier``,
    ``crew``, optional ``posts`` and ``bonuses``) against the PCs' ``pc_tier``."""
    unit = (
        SystemUnit.objects.filter(game_system="starfinder", pk=int(unit_pk)).first()
        if unit_pk.isdigit()
        else None
    )
    if unit is None:
        raise sf_tokens.TokenRulesError(_("unit: choose a Starfinder unit of the roster"))
    stats = unit.stats if isinstance(unit.stats, dict) else {}
    return sf_tokens.new_ship(
        name=unit.name,
        tier=stats.get("tier"),
        pc_tier=pc_tier,
        crew=stats.get("crew"),
        posts=stats.get("posts", sf_tokens.POSTS),
        bonuses=stats.get("bonuses"),
    )


def _render_tracker(request, ships, dc, battle, form, *, status: int = 200) -> HttpResponse:
    return render(
        request,
        "systems/sf_tracker.html",
        {
            "cards": [_ship_card(s, i, dc) for i, s in enumerate(ships)],
            "dc": dc,
            "battle": battle,
            "form": form,
            "systems": sf_tokens.SYSTEMS,
            "states": sf_tokens.CRITICAL_STATES,
            "arcs": sf_tokens.data.ARCS,
            "removed": sf_tokens.REMOVED_ACTIONS,
            "round": max((s.round for s in ships), default=1),
            "roster": SystemUnit.objects.filter(game_system="starfinder").select_related("faction"),
            "tiers": [t for t, _label in TIER_CHOICES],
        },
        status=status,
    )


def sf_boarding_page(request: HttpRequest) -> HttpResponse:
    """The boarding calculator (seed 003): exact probability of each result band for a
    party against a ship, and a roll that resolves and logs one boarding attack."""
    form = BoardingForm(request.GET if request.GET.get("party_size") else None)
    context: dict[str, Any] = {"form": form, "battle": _battle(request)}
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        try:
            if d["pathogen"]:
                party = sf_boarding.pathogen_party(d["party_tier"], d["party_size"])
            else:
                party = sf_boarding.Party.build(
                    d["party_size"], d["party_tier"], d["party_training"]
                )
            mod = sf_boarding.boarding_attack_modifier(
                party,
                d["target_crew"],
                officer_bonus=d["officer_bonus"],
                pathogen_weakened=d["pathogen_weakened"],
            )
            security = sf_boarding.security_modifier(
                antipersonnel_level=d["antipersonnel_level"],
                heavy_antipersonnel_level=d["heavy_antipersonnel_level"],
                biometric_locks=d["biometric_locks"],
                countermeasures=d["countermeasures"],
                first_attack=d["first_attack"],
            )
            ra = sf_boarding.boarding_resistance(
                d["ship_tier"],
                security=security,
                training=d["ship_training"],
                repel_bonus=d["repel_bonus"],
            )
            odds = sf_boarding.band_odds(mod, ra)
            context.update(
                party=party,
                attack_modifier=mod,
                security=security,
                resistance=ra,
                size_modifier=0
                if party.pathogen
                else sf_boarding.size_modifier(party.size, d["target_crew"]),
                bands=[
                    {
                        "id": band,
                        "p": odds[band],
                        "party_lost": {
                            "wiped-out": party.size,
                            "repelled-with-losses": party.size // 3,
                        }.get(band, 0),
                        "crew_lost": d["target_crew"] // 10 if band == "overwhelming" else 0,
                    }
                    for band in sf_boarding.BANDS
                ],
                tactical_cr=sf_boarding.tactical_cr(d["ship_tier"], pcs_boarded=False),
            )
            if request.GET.get("roll"):
                seed = d["seed"] if d["seed"] is not None else secrets.randbits(48)
                dice = Dice(seed)
                result = sf_boarding.resolve_boarding(
                    dice,
                    party,
                    target_crew=d["target_crew"],
                    resistance=ra,
                    officer_bonus=d["officer_bonus"],
                    pathogen_weakened=d["pathogen_weakened"],
                )
                context.update(result=result, seed=seed, rolls=dice.log)
        except RulesError as exc:
            context["rules_error"] = str(exc)
    return render(request, "systems/sf_boarding.html", context)


def swsb_attack_page(request: HttpRequest) -> HttpResponse:
    """Attack odds for Star Wars Starship Battles (seed 002): d20 against defence with
    range penalties, critical chance through the screen, damage through."""
    form = AttackOddsForm(request.GET if request.GET.get("attack") else None)
    context: dict[str, Any] = {
        "form": form,
        "battle": _battle(request),
        "table": swsb.CRITICAL_TABLE,
    }
    if form.is_bound and form.is_valid():
        try:
            context["odds"] = swsb.attack_odds(**form.cleaned_data)
        except RulesError as exc:
            context["rules_error"] = str(exc)
    return render(request, "systems/swsb_attack.html", context)


def epic_page(request: HttpRequest) -> HttpResponse:
    """Epic-scale special abilities (seed 004) and the energy-shield odds."""
    form = ShieldOddsForm(request.GET if request.GET.get("shots") else None)
    context: dict[str, Any] = {
        "form": form,
        "battle": _battle(request),
        "abilities": epic.ABILITIES.values(),
    }
    if form.is_bound and form.is_valid():
        try:
            context["shield_odds"] = epic.energy_shields_odds(**form.cleaned_data)
        except RulesError as exc:
            context["rules_error"] = str(exc)
    return render(request, "systems/epic.html", context)
