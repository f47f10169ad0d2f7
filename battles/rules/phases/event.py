"""One entry of the battle log: ``Event`` (re-exported by ``phases.state``).

Its own module because it stays a plain Python class when the engine is compiled with mypyc
(``battles.rules_build`` leaves this module out): its ``summary`` and ``data`` are
``_Written`` descriptors over slots, which mypyc's native classes do not support.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


class _Written:
    """An ``Event`` field stored as given: its value, or a ``(write, *args)`` tuple that
    ``write(*args)`` turns into the value on first read (then kept). The engine's busiest
    log sites pass the tuple for ``summary`` and ``data``: the text (float formatting,
    names) and the data dict (positions rounded to 3 decimals, lists) are written only
    when a report, the stored battle or a hash reads them, never by a run that does not
    (a recorded Skirmish at Mieska reads none of them while it is fought)."""

    def __init__(self, slot: str) -> None:
        self.slot = slot  # the slot holding the value or its (write, *args) tuple

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, event: Event | None, owner: type) -> Any:
        if event is None:
            raise AttributeError(self.name)  # no class-level default (a required field)
        value = getattr(event, self.slot)
        if type(value) is tuple:
            value = value[0](*value[1:])
            setattr(event, self.slot, value)
        return value

    def __set__(self, event: Event, value: Any) -> None:
        setattr(event, self.slot, value)


@dataclass(init=False)
class Event:
    """One decision or roll-backed outcome: ``{turn, phase, kind, summary, data}``; ``data``
    holds only JSON types (the ``Event`` rows of the battles app store it as is).
    ``summary`` reads as a ``str`` and ``data`` as a dict (see ``_Written``: either may
    be written on first read, from what the event was given when it was logged)."""

    __slots__ = ("turn", "phase", "kind", "_summary", "_data")

    turn: int
    phase: int
    kind: str
    summary: str = _Written("_summary")  # type: ignore[assignment]  # (no default: _Written)
    data: dict[str, Any] = _Written("_data")  # type: ignore[assignment]

    def __init__(
        self,
        turn: int,
        phase: int,
        kind: str,
        summary: str | tuple[Any, ...],
        data: dict[str, Any] | tuple[Any, ...] | None = None,
    ) -> None:
        self.turn = turn
        self.phase = phase
        self.kind = kind
        self._summary = summary
        self._data = {} if data is None else data

    def as_dict(self) -> dict[str, Any]:
        """The JSON-ready record."""
        return asdict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.turn, self.phase, self.kind, self.summary, self.data))
