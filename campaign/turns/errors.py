"""The one error of the turn services: bad input, named; nothing was written.

Messages are in the reader's language (``gettext`` at raise time) and begin with the field
they concern, named by :func:`field_label`.
"""

from django.utils.translation import gettext_lazy

from campaign.core.refusals import Kind, Refused

#: Form and API field names as the reader sees them at the head of a message.
FIELD_LABELS = {
    "hull": gettext_lazy("hull"),
    "armour": gettext_lazy("armour"),
    "crew": gettext_lazy("crew"),
    "resources": gettext_lazy("resources"),
    "technology": gettext_lazy("technology"),
    "faction": gettext_lazy("faction"),
    "yard": gettext_lazy("yard"),
    "fleet": gettext_lazy("fleet"),
    "destination": gettext_lazy("destination"),
}


def field_label(name: str) -> str:
    """``name`` (a form or API field, e.g. ``"hull"``) in the active language; a name
    without a label is returned as given."""
    return str(FIELD_LABELS.get(name, name))


class TurnActionError(ValueError):
    """An action of the campaign turn that cannot be done; the message names the ship, yard,
    turn or field. Raised before anything is written (or inside the transaction that is then
    rolled back), so the database and the ledger are as they were. The API answers 400."""


class TurnPermissionError(Refused, PermissionError):
    """A user acting for a faction or campaign they do not run: a forbidden
    :class:`~campaign.core.refusals.Refused` (403 on the pages and the API)."""


class TurnConflict(Refused, TurnActionError):
    """A turn action that names a state which is no longer the campaign's (a reopen of a
    turn that is not the last closed one: a second click of the same form): a conflict
    (409 on the API; a message on the turn page, as any :class:`TurnActionError`)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message, kind=Kind.CONFLICT)
