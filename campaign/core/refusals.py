"""The one refusal: an action a user may not take, an object they may not see, input
that cannot be used, or a state that forbids the action.

Raised by the ``require_*`` role checks (``campaign.league.roles``) and by the services;
answered once for the pages (``campaign.core.middleware``: the 403 or 404 page) and once
for the API (the root ``NinjaAPI``: the ``ErrorOut`` body, ``campaign.core.api_errors``).
The rule between 403 and 404: a member of the campaign without the right gets 403; anyone
else, and any object of another campaign, gets 404, so that a status never tells that a
hidden object exists.
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """What was refused, with its HTTP status (:attr:`status`)."""

    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    INVALID = "invalid"
    CONFLICT = "conflict"

    @property
    def status(self) -> int:
        return _STATUS[self]


_STATUS = {Kind.FORBIDDEN: 403, Kind.NOT_FOUND: 404, Kind.INVALID: 422, Kind.CONFLICT: 409}


class Refused(Exception):
    """A refusal: ``message`` in the reader's language (translated where raised), its
    :class:`Kind` and, for invalid input, ``errors``: ``[(field, message), …]``."""

    kind: Kind = Kind.FORBIDDEN

    def __init__(
        self,
        message: str = "",
        *,
        kind: Kind | None = None,
        errors: list[tuple[str, str]] | None = None,
    ) -> None:
        super().__init__(message)
        if kind is not None:
            self.kind = kind
        self.errors = list(errors or [])

    @property
    def status(self) -> int:
        """The HTTP status that answers it: 403, 404, 409 or 422."""
        return self.kind.status

    def body(self) -> dict:
        """The API's answer, shaped as :class:`ErrorOut`."""
        return error_body(str(self), self.errors)


def error_body(detail: str, errors: list[tuple[str, str]] | None = None) -> dict:
    """An ``ErrorOut`` (``campaign.core.api_errors``) as a dict: ``{"detail": str,
    "errors": [{"field", "message"}]}``, ``errors`` left out when there are none (the
    schema's default: an empty list)."""
    body: dict = {"detail": detail}
    if errors:
        body["errors"] = [{"field": f, "message": m} for f, m in errors]
    return body
