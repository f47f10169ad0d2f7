"""Signals every layer may send, so that the top layer acts without being imported.

- :data:`public_change`: something the published site shows changed (a battle reopened,
  a campaign turn closed or reopened, a rebuild asked for), sent inside the writing
  transaction with ``campaign`` (the campaign whose pages changed, or None) and ``full``
  (True: build the site even where none was baked before). ``campaign.receivers`` queues one
  coalesced site refresh once the transaction commits; a rolled-back change queues none.

- :data:`turn_closed`: a campaign turn closed (``campaign``, ``turn``: its number), sent
  inside the close's transaction once every fleet has moved; :data:`turn_reopened`: the
  closed turn ``turn`` of ``campaign`` reopened, inside its transaction.
  ``battles.scoring.receivers`` writes the turn's holding awards and fleet strengths, or
  deletes them; the fog of war (``campaign.fog.sightings``) writes and deletes its
  sightings. A receiver that raises aborts the close or reopen.
- :data:`fleets_met`: enemy fleets met on the star map at a turn close
  (``campaign.starmap.advance``), sent once the close commits with ``campaign``,
  ``system`` (a ``StarSystem``, or None for fleets crossing on a link), ``link`` (the
  ``StarLink`` of a crossing, else None), ``turn`` (the closed turn's number) and
  ``fleets`` (the ``Fleet`` rows, their faction loaded). ``battles.services.meetings``
  drafts the battle.

A battle's conclusion and recording send ``battles.signals.battle_concluded`` and
``battle_results_recorded``, which ``campaign.receivers`` also receives.
"""

from django.dispatch import Signal

public_change = Signal()
turn_closed = Signal()
turn_reopened = Signal()
fleets_met = Signal()
