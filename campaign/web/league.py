"""League pages: thin views that look up, scope through the ``access`` helpers and render."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, F, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from battles.access import actionable_battles, visible_battles
from battles.filters import BattleFilter
from battles.models import Battle
from battles.readings import rules_in_force
from battles.standings import campaign_standings
from campaign.core.listing import listing
from campaign.core.markdown import render_markdown
from campaign.core.page_cache import cached_body
from campaign.league.models import Campaign, Membership
from campaign.league.roles import User, campaign_faction_ids_for, campaign_roles
from campaign.league.site_builds import site_build_state, site_rebuild_request
from factions.models import Faction
from factions.versioning import read_versions

RECENT_BATTLES = 10
DETAIL_BODY = "campaign/_detail_body.html"


def recent_battles(user: User, campaign: Campaign | None = None) -> QuerySet[Battle]:
    """Battles ``user`` (None: the public) may see, latest first (by date, then campaign
    turn, then creation)."""
    qs = visible_battles(user).select_related("campaign", "winner")
    if campaign is not None:
        qs = qs.filter(campaign=campaign)
    return qs.order_by(
        F("date").desc(nulls_last=True),
        F("campaign_turn").desc(nulls_last=True),
        "-created_at",
        "-pk",
    )


def home(request: HttpRequest) -> HttpResponse:
    """The index: campaigns, factions and the most recent battles."""
    return render(
        request,
        "campaign/home.html",
        {
            "campaigns": Campaign.objects.annotate(faction_count=Count("factions")),
            "factions": Faction.objects.all(),
            "battles": recent_battles(request.user)[:RECENT_BATTLES],
        },
    )


def campaign_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A campaign: its factions, its battles (a page at a time, filtered by status, turn,
    faction and name: ``battles.filters.BattleFilter``) and simple standings; for its
    organisers, the published site's last build and *Rebuild the site*."""
    seconds = settings.TURN_CACHE_SECONDS
    # The versions first: no row the cached body shows is older than its key.
    versions = read_versions() if seconds > 0 and not request.GET else None
    campaign = get_object_or_404(Campaign, slug=slug)
    if request.GET:  # a filtered list or another page of it: built every time
        context, valid = _detail_context(request, campaign)
        context["page_body"] = render_to_string(DETAIL_BODY, context, request=request)
        return render(request, "campaign/detail.html", context, status=200 if valid else 400)
    key = None
    if versions is not None:
        # One body per viewer: what a member sees (battles, drafts to fight or record,
        # organiser's links and site build) is theirs; the public's is shared.
        viewer = f"u{request.user.pk}" if request.user.is_authenticated else "public"
        key = (
            f"campaign-body:{versions[0]}:{versions[1]}:{campaign.pk}:{viewer}:"
            f"{translation.get_language()}:{timezone.get_current_timezone_name()}"
        )
    body = cached_body(
        request, DETAIL_BODY, key, lambda: _detail_context(request, campaign)[0], seconds
    )
    return render(request, "campaign/detail.html", {"campaign": campaign, "page_body": body})


def _detail_context(request: HttpRequest, campaign: Campaign) -> tuple[dict, bool]:
    """What the campaign page's body shows, and whether the battle filters were valid."""
    # The viewer's roles read once: campaign_roles counts staff (and the system) as
    # organisers, as is_organiser does.
    roles = campaign_roles(request.user, campaign)
    organiser = Membership.Role.ORGANISER in roles
    # The battles a page at a time, filtered (battles.filters; a bad filter: its error, 400).
    filters = BattleFilter(request.GET, queryset=recent_battles(request.user, campaign))
    valid = filters.is_valid()
    battles = listing(request, filters.qs if valid else Battle.objects.none())
    drafts = actionable_battles(request.user).filter(campaign=campaign, status=Battle.Status.DRAFT)
    context = {
        "campaign": campaign,
        "description_html": render_markdown(campaign.description),
        "battles": battles.rows,
        "listing": battles,
        "battle_filters": filters,
        "standings": campaign_standings(campaign, user=request.user),
        "open_turn": campaign.turns.filter(status="open").first(),
        # who sees some faction's turn (campaign_faction_ids_for): organisers, players
        "turn_member": organiser
        or (
            Membership.Role.PLAYER in roles
            and campaign_faction_ids_for(request.user, campaign) != set()
        ),
        # every member reads the star map (as campaign.starmap.view shows it to them)
        "map_member": bool(roles),
        "organiser": organiser,
        "site_build": site_build_state() if organiser else None,
        # Those fought turn by turn are under "fighting": no record link for them.
        "playing": list(drafts.filter(turn_play__isnull=True))
        if request.user.is_authenticated
        else [],
        # Drafts being fought turn by turn that the user may open.
        "fighting": drafts.filter(turn_play__isnull=False),
    }
    return context, valid


@require_POST
def site_rebuild(request: HttpRequest, slug: str) -> HttpResponse:
    """Queue a full build of the published site (organisers of the campaign and staff; 404
    for non-members, 403 for its other members); back to the campaign page, which shows
    the build's state."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    campaign = get_object_or_404(Campaign, slug=slug)
    site_rebuild_request(campaign=campaign, user=request.user)
    messages.success(request, _("The site will be rebuilt in the background."))
    return redirect("campaign-detail", slug=campaign.slug)


def campaign_rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The campaign's rules in force: every reading D-n of the rules, what it
    means, the seed's words and the campaign's setting against the default (§16). Readable
    by anyone who can see the campaign (campaigns are public, as ``campaign_detail``)."""
    campaign = get_object_or_404(Campaign, slug=slug)
    return render(
        request,
        "campaign/rules.html",
        {"campaign": campaign, **rules_in_force(rule_options=campaign.rule_options)},
    )
