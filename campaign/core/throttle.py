"""A fixed-window counter in Django's cache, to limit how often an action that costs
something (an e-mail sent) may be asked for, per address or per client.

Shared by the processes when the cache is (Redis, ``REDIS_CACHE_URL``); per process with
the default memory cache, where a limit holds per worker. Log-ins are limited by
django-axes instead (it counts failures, not requests).
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache

__all__ = ["allow"]


def allow(scope: str, key: str, *, limit: int, window: int) -> bool:
    """Count one request of ``scope`` (``"password-reset-ip"``…) for ``key`` (an
    address, an IP) and say whether it is within ``limit`` requests for the ``window``
    seconds that began with the first one. The key is hashed: no address sits in the
    cache in clear."""
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    name = f"throttle:{scope}:{digest}"
    if cache.add(name, 1, timeout=window):
        return True
    try:
        count = cache.incr(name)
    except ValueError:  # expired between add and incr: a new window begins
        cache.add(name, 1, timeout=window)
        return True
    return count <= limit
