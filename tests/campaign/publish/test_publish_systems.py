"""A battle of another game system in the published site: its page, the game system's name,
its units and the standings that count it."""

import pytest

from campaign.publish import site_build
from tests.battles.web.test_pages_systems import record

pytestmark = pytest.mark.django_db


def test_other_system_battle_is_published_with_its_units_and_counts(cast, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    battle = record(cast)
    out = tmp_path / "site"
    site_build(out_dir=out, search_index=False)
    page = (out / "fr" / "battles" / cast.campaign.slug / f"{battle.slug}.html").read_text()
    assert "Devastator" in page and "Home One" in page
    assert "Star Wars Starship Battles" in page
    campaign_page = (out / "fr" / "campaigns" / f"{cast.campaign.slug}.html").read_text()
    assert "Battle of Endor" in campaign_page
    # Standings row: fought 1, won 0, lost 1, units lost 2 (the Devastator and a TIE).
    assert "Qatzrin</a></td><td>1</td><td>0</td><td>1</td><td>2</td>" in campaign_page
    assert "Kongeriket Norge</a></td><td>1</td><td>1</td><td>0</td><td>0</td>" in campaign_page
    for lang in ("fr", "en"):  # one PDF per language
        assert (out / "pdf" / lang / cast.campaign.slug / f"{battle.slug}.pdf").exists()
