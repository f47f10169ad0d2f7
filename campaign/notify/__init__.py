"""Notifications (app label ``notify``): a campaign's events told by e-mail to the members
concerned and by webhook (Discord-compatible) to the campaign's channel.

- ``models``: the kinds, ``NotificationPreference`` (user × kind, e-mail on or off),
  ``NotificationProfile`` (the language a user's notifications are written in),
  ``CampaignWebhook`` and ``Delivery`` (the record of every message and its attempts);
- ``addresses``: the webhook address check (no loopback, private or link-local address);
- ``texts``: each kind's subject and body in the reader's language;
- ``events``: who is told of an event, one ``Delivery`` per message, queued after commit;
- ``receivers``: the lower layers' signals, connected in ``NotifyConfig.ready``;
- ``sending``: one attempt at a delivery (Django's mail, apprise for webhooks);
- ``tasks``: ``notify.deliver`` (retried, then marked failed); ``reminders``: the deadline
  reminder beat runs; ``requeue``: deliveries left queued, queued again by beat;
  ``management/``: the reminder's command for cron;
- ``preferences``, ``webhooks``: the services of the account and campaign settings;
- ``web``, ``api``: their pages and API (pages layer); ``admin``, ``checks``.

Imports: everything below the pages layer (battles' signals, access and models, campaign
turns, the league, campaign.core); nothing below imports it — the events reach it through
signals (import-linter, pyproject.toml).
"""
