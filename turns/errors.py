"""The one error of the turn services: bad input, named; nothing was written."""


class TurnActionError(ValueError):
    """An action of the campaign turn that cannot be done; the message names the ship, yard,
    turn or field. Raised before anything is written (or inside the transaction that is then
    rolled back), so the database and the ledger are as they were. The API answers 400."""


class TurnPermissionError(PermissionError):
    """A user acting for a faction or campaign they do not run (the API answers 403)."""
