"""The incremental rebuild of the baked site (a new battle rebuilds only what
shows it) and its swap (``campaign.publish.output``: two trees behind one link)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from campaign.publish import feeds, inputs, site_build
from campaign.publish.inputs import INPUTS
from campaign.publish.output import MANIFEST, MARKER, trees_dir
from factions.models import Faction
from tests.battles.reports.report_fixtures import make_battle
from tests.campaign.publish.test_publish import make_league


@pytest.fixture
def league(db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return make_league()


def tree(out: Path) -> dict[str, bytes]:
    """Every file of the site ``out`` (through its link) → its bytes."""
    root = out.resolve()
    files = {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
    for name, data in files.items():
        if name.endswith("pagefind-entry.json"):  # Pagefind lists languages in any order
            files[name] = json.dumps(json.loads(data), sort_keys=True).encode()
    return files


def differences(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))


@pytest.mark.django_db
def test_a_rebuild_after_one_new_battle_writes_only_what_shows_it_and_equals_a_full_build(
    league, tmp_path
):
    """Three builds so that the third updates the tree the first one made: it must take
    the second build's changes from the served tree as well as make its own. The result,
    search index included, is the very site a build from nothing makes."""
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False)
    make_battle(league, name="Second clash", slug="second-clash")
    second = site_build(out_dir=out, pdfs=False)
    served = out.resolve()
    make_battle(league, name="Third clash", slug="third-clash")
    third = site_build(out_dir=out, pdfs=False)
    assert out.resolve() != served and out.resolve().parent == trees_dir(out)

    full = site_build(out_dir=tmp_path / "full", pdfs=False)
    assert differences(tree(out), tree(tmp_path / "full")) == []
    assert len(full.written) > 50
    # make_battle adds three ships of its own: their pages are new (and their fleets').
    new_ships = sorted(p for p in set(third.pages) - set(second.pages) if "/ships/" in p)
    assert len(new_ships) == 6
    # What shows the new battle: its page and replay, the lists, campaign and factions it
    # lands on, the home page and feed, the turn's map; the shard file list (a new page).
    assert sorted(third.written) == sorted(
        [
            f"{lang}/{page}"
            for lang in ("en", "fr")
            for page in (
                "battles/test-league/third-clash.html",
                "campaigns/test-league.html",
                "campaigns/test-league/battles-1.html",
                "factions/collectif-g-plus.html",
                "factions/collectif-g-plus/battles-1.html",
                "factions/phalon.html",
                "factions/phalon/battles-1.html",
                "feed.xml",
                "fleets/test-ganesha.html",
                "fleets/test-reprisal.html",
                "index.html",
                "maps/test-league/index.html",
                "maps/test-league/turn-1.html",
            )
        ]
        + ["pagefind/shards.json", *new_ships]
    )
    # Nothing of the previous battles is rendered again.
    assert not [p for p in third.written if "/second-clash" in p or "colonisation" in p]


@pytest.mark.django_db
def test_the_served_site_stays_whole_until_the_link_swaps(league, tmp_path, monkeypatch):
    """A reader never sees a half-built site: half-way through a rebuild (pages written,
    the search index not yet), every file served is still the previous build's."""
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, languages=["en"])
    before = tree(out)
    # After a first build the other tree is its copy in hard links, ready to update.
    other = trees_dir(out) / "b"
    assert os.readlink(out) == f"{trees_dir(out).name}/a" and (other / MANIFEST).is_file()
    page = "en/factions/qatzrin.html"
    assert (other / page).stat().st_ino == (out / page).stat().st_ino
    seen = []
    write_sitemap = feeds.write_sitemap

    def midway(*args, **kwargs):
        seen.append(differences(tree(out), before))
        return write_sitemap(*args, **kwargs)

    monkeypatch.setattr("campaign.publish.feeds.write_sitemap", midway)
    make_battle(league, name="Second clash", slug="second-clash")
    result = site_build(out_dir=out, pdfs=False, languages=["en"])
    assert seen == [[]]
    assert "en/battles/test-league/second-clash.html" in result.written
    assert (out / "en" / "battles" / "test-league" / "second-clash.html").is_file()
    assert os.readlink(out) == f"{trees_dir(out).name}/b"


@pytest.mark.django_db
def test_files_nobody_built_are_removed_and_missing_ones_restored(league, tmp_path):
    """A file added by hand to the served site is gone after the build, and after the
    next one, which updates the tree it was added to; a file deleted by hand comes back."""
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    (out / "stale.html").write_text("old")
    (out / "en" / "factions" / "notes.txt").write_text("old")
    (out / "en" / "index.html").unlink()
    first = tree(out).keys()
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    assert "stale.html" in first and not (out / "stale.html").exists()
    assert not (out / "en" / "factions" / "notes.txt").exists()
    assert (out / "en" / "index.html").is_file()
    manifest = json.loads((out / MANIFEST).read_text())
    assert sorted(tree(out)) == sorted([*manifest, MANIFEST, INPUTS, ".admiralty-site"])


@pytest.mark.django_db
def test_after_a_build_that_died_the_next_one_makes_the_whole_site(league, tmp_path, monkeypatch):
    """A build that fails half-way leaves the tree it was updating without a manifest;
    the next build starts that tree from empty and makes the same site as a full build."""
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False)
    make_battle(league, name="Second clash", slug="second-clash")

    def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    with monkeypatch.context() as patch:
        patch.setattr("campaign.publish.feeds.write_sitemap", broken)
        with pytest.raises(RuntimeError):
            site_build(out_dir=out, pdfs=False, search_index=False)
    assert not (trees_dir(out) / "b" / MANIFEST).exists()
    assert not (out / "en" / "battles" / "test-league" / "second-clash.html").exists()
    site_build(out_dir=out, pdfs=False, search_index=False)
    full = tmp_path / "full"
    site_build(out_dir=full, pdfs=False, search_index=False)
    assert differences(tree(out), tree(full)) == []


@pytest.mark.django_db
def test_a_site_made_as_a_plain_folder_becomes_a_link(league, tmp_path):
    """An earlier version of ``build_site`` made a plain folder: the first build keeps
    its unchanged files (hard links) and puts a link in its place."""
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    plain = tmp_path / "plain"
    os.rename(out.resolve(), plain)
    os.unlink(out)
    os.rename(plain, out)
    assert (out / MARKER).is_file() and not out.is_symlink()
    page = out / "en" / "factions" / "qatzrin.html"
    inode = page.stat().st_ino
    again = site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    assert out.is_symlink() and again.written == []
    assert page.stat().st_ino == inode
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site-old")] == []


@pytest.mark.django_db
def test_a_rebuild_with_nothing_changed_keeps_the_site_in_one_query_a_table(
    league, tmp_path, django_assert_num_queries
):
    """Nothing the site reads changed: no page is rendered, no file written, the same
    tree served, and the same result reported (``campaign.publish.inputs``)."""
    make_battle(league)
    out = tmp_path / "site"
    first = site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    served = os.readlink(out)
    before = tree(out)
    # The campaigns, then one query a table of the digest.
    with django_assert_num_queries(1 + len(inputs._tables())):
        again = site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    assert again.written == [] and again.removed == []
    assert again.pages == first.pages and again.battles == first.battles == 1
    assert os.readlink(out) == served and tree(out) == before


@pytest.mark.django_db
def test_a_write_that_sends_no_signal_still_rebuilds_what_shows_it(league, tmp_path):
    """``QuerySet.update`` (no signal, no version bumped) changes the digest: the next
    build is a real one, and the faction's new name is on its pages."""
    make_battle(league)
    out = tmp_path / "site"
    site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    Faction.objects.filter(slug="qatzrin").update(name="Qatzrin Hegemony")
    result = site_build(out_dir=out, pdfs=False, search_index=False, languages=["en"])
    assert "en/factions/qatzrin.html" in result.written
    assert "Qatzrin Hegemony" in (out / "en" / "factions" / "qatzrin.html").read_text()
    # Other options are another site: a build in both languages is a real one too.
    both = site_build(out_dir=out, pdfs=False, search_index=False)
    assert "fr/factions/qatzrin.html" in both.written
