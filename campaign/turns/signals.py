"""Signals of the campaign turn, so that the layers above act without being imported.

- :data:`turn_opened`: sent by ``campaign_turn_open`` inside its transaction, after the
  turn is written, with ``campaign`` and ``turn`` (the new ``CampaignTurn``).
  ``campaign.notify`` tells the campaign's members once the transaction commits.

A receiver that raises aborts the sender's transaction (Django's ``Signal.send``).
"""

from django.dispatch import Signal

turn_opened = Signal()
