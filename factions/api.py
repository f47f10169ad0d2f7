"""Factions, fleets and ships API (django-ninja router)."""

from ninja import Router

router = Router(tags=["factions"])
