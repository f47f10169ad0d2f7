"""Rules API: exact odds (django-ninja router)."""

from ninja import Router

router = Router(tags=["rules"])
