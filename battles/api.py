"""Battles and rules API (django-ninja router)."""

from ninja import Router

router = Router(tags=["battles"])
