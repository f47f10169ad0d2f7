"""Opaque keys for the enemy units a side sees, so that a player never learns which ship a
blip or contact is (its pk, hence its name and class at ``/ships/<pk>/``).

A player of a side (``Viewer`` mode ``side``) sees every enemy ship, defence platform and
launched light unit under a key of its own — ``contact-<n>``, and ``contact-<n>.<system>``
for a unit launched from it — in the board data, the orders form, the odds panel and the
API. ``n`` numbers the enemy's units set up in the battle (the ``setup`` row's ``ships``)
in the order of an HMAC of (battle id, viewing side, engine id) under
``settings.SECRET_KEY``: stable for the whole battle, different for the other side and
for every battle, and saying nothing of the pks' order. Orders arrive with these keys and
are translated back to engine ids before the services see them; an engine id of an enemy
unit is refused as an unknown target. Stored orders, the log and the dice keep engine ids:
only what a side is shown changes. Organisers and neutral viewers see engine ids.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext

from battles.models import Battle, BattleSide
from battles.models.turn_orders import TurnOrders
from battles.play.game_turns import turn_orders_submit
from battles.play.orders import ForeignShipError, TurnOrdersError
from battles.refs import ENGINE_REF_IN_TEXT, owner_ref
from battles.services import BattleActionError

__all__ = ["ContactKeys", "submit_side_orders"]

PREFIX = "contact-"


def _digest(battle_id: int | None, side: str, ref: str) -> str:
    message = f"{battle_id}:{side}:{ref}".encode()
    return hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).hexdigest()


class ContactKeys:
    """Engine id <-> opaque key for the units of the side(s) facing ``side`` in battle
    ``battle_id``. ``enemies``: engine ids of the enemy's ships and platforms (the set-up's
    ``ships`` of another side); ``names``: their names and classes, masked in messages.
    ``side`` None: no translation (organisers, neutral viewers). ``own``: the side's
    engine ids; given, an engine id that is neither the side's nor a key (an enemy's,
    another battle's, none) is refused in one way, whatever it is."""

    def __init__(
        self,
        battle_id: int | None,
        side: str | None,
        enemies: Iterable[str] = (),
        names: Iterable[str] = (),
        own: Iterable[str] | None = None,
    ):
        self.active = side is not None
        self._own = frozenset(own) if own is not None else None
        ordered = sorted(enemies, key=lambda ref: _digest(battle_id, side or "", ref))
        self._out = {ref: f"{PREFIX}{n}" for n, ref in enumerate(ordered, 1)} if side else {}
        self._in = {key: ref for ref, key in self._out.items()}
        words = sorted({w for w in names if w}, key=len, reverse=True)
        self._names = (
            re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words))
            if words and self.active
            else None
        )

    @classmethod
    def from_setup(
        cls, battle_id: int | None, side: str | None, setup: Mapping[str, Any]
    ) -> ContactKeys:
        """The keys of ``side`` from a ``setup`` row's data (``{"ships": {id: {"side",
        "name", "class", ...}}}``)."""
        ships = setup.get("ships") or {}
        enemy = {sid: spec for sid, spec in ships.items() if spec.get("side") != side}
        names = [w for spec in enemy.values() for w in (spec.get("name"), spec.get("class"))]
        own = [sid for sid in ships if sid not in enemy]
        return cls(battle_id, side, enemy, [n for n in names if isinstance(n, str)], own)

    def number(self, ref: str) -> str:
        """The ``n`` of an enemy unit's key (for labels such as "blip 3")."""
        return self._out.get(ref, ref).removeprefix(PREFIX)

    def enemy(self, ref: Any) -> bool:
        return isinstance(ref, str) and ref.partition(".")[0] in self._out

    def opaque(self, ref: str) -> str:
        """The key this side knows ``ref`` by (a ship's or a unit launched from it);
        ``ref`` itself for its own units."""
        head, dot, rest = ref.partition(".")
        return self._out[head] + dot + rest if head in self._out else ref

    def real(self, ref: Any) -> Any:
        """The engine id behind an opaque key; other references unchanged. Raises
        :class:`ForeignShipError` for an engine id of an enemy unit (unknown to the side)
        and, when the side's own ids are known, for any engine id not of the side: the
        same words for an enemy's, another battle's or none, so a target is no oracle."""
        if not isinstance(ref, str) or not self.active:
            return ref
        head, dot, rest = ref.partition(".")
        foreign = self._own is not None and owner_ref(ref) is not None and head not in self._own
        if head in self._out or foreign:
            raise ForeignShipError(
                gettext("%(ref)r: no contact of your side is known by this name; nothing stored")
                % {"ref": ref}
            )
        return self._in[head] + dot + rest if head in self._in else ref

    def rekey(self, text: str) -> str:
        """``text`` with each enemy engine id replaced by its key (a log line)."""
        if not self._out:
            return text
        return ENGINE_REF_IN_TEXT.sub(lambda m: self.opaque(m.group(0)), text)

    def mask(self, text: str) -> str:
        """``text`` (an error message answering orders) with enemy engine ids, names and
        unmet classes replaced by "?": an answer never links a key the player sent to an
        enemy ship's identity."""
        if not self.active:
            return text
        text = ENGINE_REF_IN_TEXT.sub(lambda m: "?" if self.enemy(m.group(0)) else m.group(0), text)
        return self._names.sub("?", text) if self._names is not None else text

    def refusal(self, exc: Exception) -> str:
        """The text answering orders refused with ``exc``: masked (:meth:`mask`), except
        the one answer for an id that is not the side's ship, which repeats only the id as
        sent (masking it for an enemy's ship alone would single that ship out)."""
        return str(exc) if isinstance(exc, ForeignShipError) else self.mask(str(exc))

    def orders_in(self, orders: Any) -> Any:
        """Orders as sent (targets by key) -> as the services take them (engine ids).
        Shapes it does not know are passed on for the services to refuse."""
        return self._orders(orders, self.real)

    def orders_out(self, orders: Any) -> Any:
        """Stored orders (engine ids) -> as this side is shown them (keys)."""
        return self._orders(orders, lambda ref: self.opaque(ref) if isinstance(ref, str) else ref)

    def _orders(self, orders: Any, convert: Any) -> Any:
        if not self.active or not isinstance(orders, Mapping):
            return orders
        out: dict[str, Any] = {}
        for ship_id, entry in orders.items():
            if not isinstance(entry, Mapping):
                out[ship_id] = entry
                continue
            entry = dict(entry)
            if isinstance(entry.get("fire"), list):
                entry["fire"] = [
                    {**f, "target": convert(f["target"])}
                    if isinstance(f, Mapping) and "target" in f
                    else f
                    for f in entry["fire"]
                ]
            if isinstance(entry.get("launches"), list):
                entry["launches"] = [
                    [pair[0], convert(pair[1])]
                    if isinstance(pair, list | tuple) and len(pair) == 2
                    else pair
                    for pair in entry["launches"]
                ]
            out[ship_id] = entry
        return out


def submit_side_orders(
    *, battle: Battle, side: BattleSide, orders: Any, keys: ContactKeys, user: Any
) -> TurnOrders:
    """``turn_orders_submit`` for orders sent by a player (page or API): targets named by
    the side's keys are translated to engine ids first, and a refusal's message is
    masked (:meth:`ContactKeys.mask`). Raises ``BattleActionError`` as the service does."""
    try:
        return turn_orders_submit(
            battle=battle, side=side, orders=keys.orders_in(orders), user=user
        )
    except ForeignShipError:
        raise
    except BattleActionError as exc:
        raise TurnOrdersError(keys.refusal(exc)) from exc
