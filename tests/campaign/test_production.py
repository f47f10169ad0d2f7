"""End to end: with ``DJANGO_DEBUG=0`` under gunicorn, static files are
served by whitenoise (hashed names), report PDFs by the access-checked view, the API docs
work, and a draft's PDF is a 404 for the public."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest

from bench.server import production_server

SETUP = """
from battles.models import Battle, Report
from campaign.league.models import Campaign
from pathlib import Path
from django.conf import settings
c = Campaign.objects.create(name="Prod", slug="prod")
for slug, status in (("fought", "concluded"), ("planned", "draft")):
    b = Battle.objects.create(campaign=c, name=slug, slug=slug, status=status)
    name = f"reports/prod/{slug}.pdf"
    path = Path(settings.MEDIA_ROOT) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"%PDF-1.7 " + slug.encode())
    Report.objects.create(battle=b, format="pdf", version=1, digest="x", file=name)
"""


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:  # noqa: S310 - loopback
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


pytestmark = pytest.mark.slow  # gunicorn with production settings


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with production_server(tmp_path_factory.mktemp("prod"), setup=SETUP, workers=1) as url:
        yield url


def test_pages_link_hashed_static_files_that_whitenoise_serves(server):
    status, _, body = get(f"{server}/")
    assert status == 200
    css = re.search(rb'href="(/static/css/admiralty\.[0-9a-f]{12}\.css)"', body).group(1)
    status, headers, _ = get(server + css.decode())
    assert status == 200 and "max-age=315360000" in headers["Cache-Control"]


def test_the_api_docs_and_their_assets_are_served(server):
    status, _, body = get(f"{server}/api/docs")
    assert status == 200
    for asset in re.findall(rb'(?:src|href)="(/static/ninja/[^"]+)"', body):
        assert get(server + asset.decode())[0] == 200, asset


def test_a_concluded_battle_s_pdf_is_served_and_a_draft_s_is_not(server):
    status, headers, body = get(f"{server}/media/reports/prod/fought.pdf")
    assert (status, headers["Content-Type"], body) == (200, "application/pdf", b"%PDF-1.7 fought")
    assert get(f"{server}/media/reports/prod/planned.pdf")[0] == 404
