"""Who acts when no person does: the scheduler (Celery beat) and the management commands.

Every service that writes takes ``user`` (keyword-only, required): a person, or
:data:`SYSTEM`. The role checks (``campaign.league.roles``) let the system actor do what
an organiser may; it is not a database user, so the rows it writes name no user and the
history shows its :attr:`SystemActor.name`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SystemActor:
    """A named non-person actor; not authenticated (it logs into nothing)."""

    name: str
    is_authenticated = False
    is_staff = False
    is_anonymous = False
    pk = None

    def __str__(self) -> str:
        return self.name


#: The one system actor: beat tasks, ``close_due_turns``, ``demo``, ``load_sample``.
SYSTEM = SystemActor("scheduler")


def is_system(user: object) -> bool:
    """True for the system actor."""
    return isinstance(user, SystemActor)
