"""Without a browser: the CSP header forbids inline script everywhere
and the SSD's own <style> carries the nonce the header allows."""

from __future__ import annotations

import re

from django.test import Client


def _policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part for part in (p.strip() for p in header.split(";")) if part}


def test_pages_and_the_docs_forbid_inline_script(db):
    for url in ("/", "/login/", "/api/docs"):
        policy = _policy(Client().get(url))
        assert policy["script-src"] == "script-src 'self'", url
        assert "unsafe-inline" not in policy["style-src"]
        assert policy["frame-ancestors"] == "frame-ancestors 'none'"


def test_an_ssd_style_element_carries_the_header_s_nonce(world):
    response = Client().get(f"/ships/{world.damaged_ship.pk}/")
    nonce = re.search(r"'nonce-([^']+)'", _policy(response)["style-src"]).group(1)
    assert f'<style nonce="{nonce}">' in response.text
    assert "<style>" not in response.text
    svg = Client().get(f"/api/designs/{world.saar.pk}/ssd.svg")
    nonce = re.search(r"'nonce-([^']+)'", _policy(svg)["style-src"]).group(1)
    assert f'<style nonce="{nonce}">' in svg.text
