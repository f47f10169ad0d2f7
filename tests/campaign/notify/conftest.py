"""The notification tests' cast: the shared cast with e-mail addresses, and a local webhook
receiver (an ``http.server`` on 127.0.0.1, allowed by the tests' setting only)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


@pytest.fixture
def mailed(cast):
    """The cast, each with an address ``<username>@example.org``."""
    for user in (cast.organiser, cast.norge_player, cast.qatzrin_player, cast.chronicler):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    cast.outsider.email = "outsider@example.org"
    cast.outsider.save(update_fields=["email"])
    return cast


class Receiver:
    """What the local webhook receiver got: ``posts`` (path, JSON body) and the status it
    answers (``status``, 204 by default)."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, dict]] = []
        self.status = 204
        self.then: int | None = None  # the status answered after the first post
        self.url = ""


@pytest.fixture
def receiver(settings):
    """A webhook receiver on 127.0.0.1 (a free port), with ``NOTIFY_ALLOW_PRIVATE_WEBHOOKS``
    on for the test."""
    settings.NOTIFY_ALLOW_PRIVATE_WEBHOOKS = True
    got = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            got.posts.append((self.path, json.loads(body or b"{}")))
            self.send_response(got.status)
            if got.then is not None:
                got.status = got.then
            self.end_headers()

        def log_message(self, *args):  # quiet
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    got.url = f"http://127.0.0.1:{server.server_address[1]}/api/webhooks/42/secret-token"
    yield got
    server.shutdown()
    server.server_close()
