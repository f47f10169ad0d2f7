"""Admiralty project package and the league app (campaigns, memberships, publishing)."""

from campaign.celery import app as celery_app

__all__ = ("celery_app",)
