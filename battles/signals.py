"""Signals of the battles app, so that the layers above a sender act without being
imported by it (README "Layout": arrows point down).

- :data:`battle_concluded`: sent by ``battle_conclude`` inside the conclusion's
  transaction, after its writes, with ``battle``. ``battles.reports.receivers`` writes the
  drafted after-action report and queues the report files (rendered after the commit);
  ``campaign.tasks`` queues the published site's refresh.
- :data:`battle_results_recorded`: sent by ``other_battle_record`` (a battle of another
  game system) inside its transaction, with ``battle``: the report files are queued and
  the site refreshed.
- :data:`battle_reopened`: sent by ``battle_reopen`` inside its transaction, with
  ``battle``: ``battles.scoring.receivers`` deletes the battle's victory awards.
- :data:`report_changed`: sent by the chroniclers' desk (``battles.reports.desk``) once a
  report's edit, publication or withdrawal has committed, with ``battle``.
  ``campaign.tasks`` queues the published site's refresh.

Receivers are connected in their app's ``ready`` (``battles/apps.py``,
``campaign/apps.py``). A receiver that raises aborts the sender's transaction: nothing is
written (Django's ``Signal.send``).
"""

from django.dispatch import Signal

battle_concluded = Signal()
battle_results_recorded = Signal()
battle_reopened = Signal()
report_changed = Signal()
