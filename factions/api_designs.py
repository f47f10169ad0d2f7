"""Ship designs API: list, read, create, validate, import (django-ninja router)."""

from ninja import Router

router = Router(tags=["designs"])
