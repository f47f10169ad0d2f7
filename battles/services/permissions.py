"""Who may act on a battle: the checks every battle service runs before it writes.

Each raises :class:`~campaign.core.refusals.Refused` (not found for someone outside the
battle's campaign, forbidden for a member without the right); the system actor
(``campaign.core.actors.SYSTEM``: commands, the due-turn task) passes as an organiser.
The pages and the API check the same before they call, to choose their page; these
checks make a service safe whoever calls it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from battles.access import played_side_ids
from battles.models import Battle, RecordEntry
from campaign.core.refusals import Refused
from campaign.league.models import Campaign, Membership
from campaign.league.roles import require_member, require_organiser


def require_battle_organiser(user: Any, campaign: Campaign) -> None:
    """Set up, resolve, reseed, record outright or reopen: staff and the campaign's
    organisers."""
    require_organiser(
        user,
        campaign,
        _("only an organiser of %(campaign)s may do this") % {"campaign": campaign.name},
    )


def require_side_or_organiser(user: Any, battle: Battle, side_id: int | None) -> None:
    """Submit a record entry for side ``side_id`` (None: every side, organisers only):
    the campaign's organisers and the side's players."""
    roles = require_member(user, battle.campaign)
    if Membership.Role.ORGANISER in roles:
        return
    if side_id is None or side_id not in played_side_ids(user, battle):
        raise Refused(_("a player submits the entry of their own side only"))


def require_confirmer(user: Any, entry: RecordEntry, *, withdraw: bool = False) -> None:
    """Confirm or reject ``entry``: the organisers, or a player of another side;
    ``withdraw``: the organisers or a player of the entry's own side."""
    roles = require_member(user, entry.battle.campaign)
    if Membership.Role.ORGANISER in roles:
        return
    own = played_side_ids(user, entry.battle)
    if withdraw:
        if entry.side_id not in own:
            raise Refused(_("only the entry's side or the organisers may withdraw it"))
    elif entry.side_id is None or not (own - {entry.side_id}):
        raise Refused(_("only the organisers or the other side may confirm an entry"))


def require_battle_player(user: Any, battle: Battle) -> None:
    """Conclude: the organisers and the players of one of the battle's sides (a
    confirmation or the last orders of turn-by-turn play conclude it)."""
    roles = require_member(user, battle.campaign)
    if Membership.Role.ORGANISER not in roles and not played_side_ids(user, battle):
        raise Refused(_("only the organisers and the players of its sides conclude a battle"))
