"""The receivers of every change a public page shows, connected in ``AdmiraltyConfig.ready``:
each asks for the published site's refresh (``campaign.refresh``) — a battle concluded or
recorded (``battles.signals.battle_concluded``, ``battle_results_recorded``), a report
edited, published or withdrawn (``report_changed``), a battle reopened, a campaign turn
closed or reopened, an organiser's *Rebuild the site* (``campaign.core.signals.public_change``).

Loaded at set-up, so it imports only the light request module, not the site builder nor
Celery's task module (``campaign.tasks``, which a worker loads)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from battles.signals import battle_concluded, battle_results_recorded, report_changed
from campaign.core.signals import public_change
from campaign.refresh import site_refresh_request


@receiver(report_changed, dispatch_uid="site-refresh-on-report-changed")
def refresh_on_report_changed(sender: Any, *, battle: Any, **kwargs: Any) -> None:
    """A report was edited, published or withdrawn (``battles.signals.report_changed``,
    sent after the commit): refresh the published site."""
    site_refresh_request(campaign_slug=battle.campaign.slug)


@receiver(battle_concluded, dispatch_uid="site-refresh-on-battle-concluded")
@receiver(battle_results_recorded, dispatch_uid="site-refresh-on-results-recorded")
def refresh_on_battle_concluded(sender: Any, *, battle: Any, **kwargs: Any) -> None:
    """A battle was concluded (resolved, recorded, played out) or another system's battle
    recorded, inside its transaction: refresh the site once it commits."""
    site_refresh_request(campaign_slug=battle.campaign.slug)


@receiver(public_change, dispatch_uid="site-refresh-on-public-change")
def refresh_on_public_change(
    sender: Any, *, campaign: Any = None, full: bool = False, user: Any = None, **kwargs: Any
) -> None:
    """A battle reopened, a campaign turn closed or reopened, or a rebuild asked for
    (``campaign.core.signals.public_change``): refresh the site once it commits."""
    site_refresh_request(campaign_slug=getattr(campaign, "slug", None), full=full, user=user)
