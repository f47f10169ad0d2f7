"""The odds panel on a phone: "Read from the map" only where a map is drawn (elsewhere a
note says to type the range), and the outcomes shown as 0.00 % fold under one line."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from battles.play.context import odds_panel
from battles.services import battle_resolve
from campaign.core.actors import SYSTEM
from tests.battles.battle_fixtures import draft_skirmish

pytestmark = pytest.mark.django_db

SCRIPT = Path(settings.BASE_DIR) / "static" / "js" / "odds-panel.js"


@pytest.fixture
def resolved(cast):
    battle = draft_skirmish(cast.campaign)
    battle_resolve(user=SYSTEM, battle=battle, seed=11, max_turns=6)
    return battle


def test_read_from_the_map_is_offered_only_with_a_map(client, cast, resolved):
    assert odds_panel(resolved, cast.organiser)["board"] is False
    client.force_login(cast.organiser)
    page = client.get(resolved.get_absolute_url()).content.decode()
    assert 'class="odds-panel"' in page
    assert "odds-from-map" not in page  # the battle page draws no board
    assert (
        '<span class="note odds-no-map">'
        "Pas de carte sur cette page\u202f: saisissez la distance.</span>" in page
    )
    replay = client.get(reverse("battle-replay", kwargs={"pk": resolved.pk})).content.decode()
    assert '<button type="button" class="odds-from-map">Lire sur la carte</button>' in replay
    assert "odds-no-map" not in replay


def test_the_panel_carries_the_folded_rows_sentence(client, cast, resolved):
    client.force_login(cast.organiser)
    page = client.get(resolved.get_absolute_url()).content.decode()
    assert 'data-folded="{n} autres résultats, chacun sous 0,01\u202f%"' in page


@pytest.mark.skipif(shutil.which("node") is None, reason="node is absent")
def test_outcomes_shown_as_zero_percent_are_folded():
    distribution = [{"value": v, "p_float": p, "p": "x"} for v, p in
                    [(0, 0.25), (1, 0.00004), (2, 0.74995), (3, 0.00001), (4, 0.0001)]]  # fmt: skip
    code = (
        f"const m = require({json.dumps(str(SCRIPT))});"
        f"process.stdout.write(JSON.stringify(m.splitOdds({json.dumps(distribution)})));"
    )
    out = json.loads(subprocess.run(["node", "-e", code], capture_output=True, check=True).stdout)
    assert [p["value"] for p in out["shown"]] == [0, 2, 4]  # 0.01 % is shown
    assert [p["value"] for p in out["folded"]] == [1, 3]
