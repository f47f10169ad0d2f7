"""An organiser reveals a fleet's position to a faction, and revokes it.

While a reveal is live, the faction sees the fleet where it is, turn after turn, as it
would see it in sensor reach (``campaign.fog.knowledge``: a hidden fleet as an unnamed
contact, never its name), and each turn close records it as a sighting (``how`` =
``reveal``), so once revoked the faction keeps its last-known position. A reveal is kept
after it is revoked, with who revealed and revoked it and when.

Refusals (``campaign.core.refusals.Refused``; nothing written): anyone but staff and the
campaign's organisers (404 outside the campaign, 403 for its other members); a fleet
not on the campaign's map or a faction not in the campaign (422 naming ``fleet`` or
``faction``); a public fleet (422 naming ``fleet``: every faction sees it already); the
fleet's own faction (422 naming ``faction``); a second live reveal of the same fleet to
the same faction (409); revoking a revoked reveal (409).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.core.refusals import Kind, Refused
from campaign.fog.models import Reveal
from campaign.league.models import Campaign
from campaign.league.roles import User, require_organiser
from campaign.starmap.models import FleetPosition
from factions.models import Faction, Fleet


def _invalid(field: str, text: str) -> Refused:
    return Refused(text, kind=Kind.INVALID, errors=[(field, text)])


def reveal_fleet(*, campaign: Campaign, fleet: Fleet, faction: Faction, user: User) -> Reveal:
    """Reveal ``fleet``'s position to ``faction`` until revoked; returns the new
    :class:`Reveal`. Raises :class:`Refused` (module docstring)."""
    require_organiser(user, campaign, _("only an organiser reveals a fleet to a faction"))
    if not FleetPosition.objects.filter(campaign=campaign, fleet=fleet).exists():
        raise _invalid(
            "fleet",
            _("fleet: %(fleet)s is not on the map of %(campaign)s")
            % {"fleet": fleet.name, "campaign": campaign.name},
        )
    if not campaign.factions.filter(pk=faction.pk).exists():
        raise _invalid(
            "faction",
            _("faction: %(faction)s does not play in %(campaign)s")
            % {"faction": faction.name, "campaign": campaign.name},
        )
    if not fleet.hidden:
        raise _invalid(
            "fleet",
            _("fleet: %(fleet)s is public, every faction sees where it is") % {"fleet": fleet.name},
        )
    if fleet.faction_id == faction.pk:
        raise _invalid(
            "faction",
            _("faction: %(fleet)s is a fleet of %(faction)s")
            % {"fleet": fleet.name, "faction": faction.name},
        )
    try:
        with transaction.atomic():
            return Reveal.objects.create(
                campaign=campaign, fleet=fleet, faction=faction, revealed_by=_person(user)
            )
    except IntegrityError as exc:
        raise Refused(
            _("%(fleet)s is already revealed to %(faction)s")
            % {"fleet": fleet.name, "faction": faction.name},
            kind=Kind.CONFLICT,
        ) from exc


def reveal_revoke(*, reveal: Reveal, user: User) -> Reveal:
    """Revoke a live ``reveal`` (the faction keeps what it recorded until now); returns
    it. Raises :class:`Refused` (module docstring)."""
    require_organiser(user, reveal.campaign, _("only an organiser revokes a reveal"))
    with transaction.atomic():
        row = Reveal.objects.select_for_update().get(pk=reveal.pk)
        if row.revoked_at is not None:
            raise Refused(_("this reveal is already revoked"), kind=Kind.CONFLICT)
        row.revoked_at = timezone.now()
        row.revoked_by = _person(user)
        row.save(update_fields=["revoked_at", "revoked_by"])
        return row


def _person(user: User):
    """The user to record, None for the system actor and anonymous."""
    return user if getattr(user, "pk", None) and getattr(user, "is_authenticated", False) else None
