"""Signals of the battles app, so that the layers above a sender act without being
imported by it (README "Layout": arrows point down).

- :data:`battle_concluded`: sent by ``battle_conclude`` inside the conclusion's
  transaction, after its writes, with ``battle``. ``battles.reports.receivers`` writes the
  drafted after-action report and queues the report files (rendered after the commit);
  ``campaign.receivers`` queues the published site's refresh.
- :data:`battle_results_recorded`: sent by ``other_battle_record`` (a battle of another
  game system) inside its transaction, with ``battle``: the report files are queued and
  the site refreshed.
- :data:`battle_reopened`: sent by ``battle_reopen`` inside its transaction, with
  ``battle``: ``battles.scoring.receivers`` deletes the battle's victory awards.
- :data:`report_changed`: sent by the chroniclers' desk (``battles.reports.desk``) once a
  report's edit, publication or withdrawal has committed, with ``battle``.
  ``campaign.receivers`` queues the published site's refresh.

- :data:`record_entry_submitted`: sent by ``record_submit`` inside its transaction, with
  ``entry`` (a ``RecordEntry`` waiting for the other side's, or the organisers',
  confirmation). ``campaign.notify`` tells those who may confirm it.
- :data:`battle_turn_opened`: sent inside the transaction that opens a turn of a battle
  fought turn by turn (``turn_play_start``: turn 1; a turn played that does not end the
  battle: the next), with ``battle``, ``turn`` (its number) and ``deadline`` (or None):
  the sides' orders are due. ``campaign.notify`` tells the sides' players.
- :data:`battle_turn_played`: sent inside the transaction that plays a turn of such a
  battle, with ``battle`` and ``turn`` (the number played). ``campaign.notify`` tells the
  sides' players.
- :data:`report_published`: sent by the chroniclers' desk inside the transaction that
  publishes a report (not on a second click), with ``battle``. ``campaign.notify`` tells
  the campaign's members.

Receivers are connected in their app's ``ready`` (``battles/apps.py``,
``campaign/apps.py``). A receiver that raises aborts the sender's transaction: nothing is
written (Django's ``Signal.send``).
"""

from django.dispatch import Signal

battle_concluded = Signal()
battle_results_recorded = Signal()
battle_reopened = Signal()
report_changed = Signal()
record_entry_submitted = Signal()
battle_turn_opened = Signal()
battle_turn_played = Signal()
report_published = Signal()
