"""Commanders: the admirals, squadron commanders and captains of the factions' fleets, and
their renown.

- ``models``: :class:`~factions.commanders.models.Commander` (one place at a time: a
  fleet, a squadron or a ship) and :class:`~factions.commanders.models.RenownAward` (one
  row per reason a battle gave renown; renown is their sum, never a stored total).
- ``records``: finding or creating a faction's commander by name and posting them
  (what fleet lists, the API and the sample loader call).
- ``renown``: the rule that turns a concluded battle into awards and fates, and its undoing
  when the battle is reopened (what ``battles.services`` calls: the arrow points down).

Imports Django, ``campaign.core`` and the factions models only: never ``battles``.
"""
