"""The mypyc build of ``battles/rules`` (``battles.rules_build``, ``battles.rules._accelerator``):
the same battles as the plain Python engine, and never run once a source has changed."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import battles.rules
from battles.apps import watch_rules_sources
from battles.rules import _accelerator
from tests.conftest import ROOT

#: Prints the engine loaded, where its dice module comes from, and the log hashes of
#: ``bench.log_hashes`` (every event, die and outcome) for a few seeds and the Mieska battle.
PROBE = """
import json, battles.rules, battles.rules.dice
from bench.log_hashes import mieska_hash, seed_hash
print(json.dumps({
    "compiled": battles.rules.COMPILED,
    "engine": battles.rules.ENGINE,
    "dice": battles.rules.dice.__file__,
    "hashes": [seed_hash(seed) for seed in SEEDS] + [mieska_hash()],
}))
"""


def _probe(seeds: tuple[int, ...], **env: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.replace("SEEDS", repr(seeds))],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def _build_matches() -> bool:
    """A compiled build of these sources exists (whatever ADMIRALTY_PURE_RULES says)."""
    saved = os.environ.pop("ADMIRALTY_PURE_RULES", None)
    try:
        return bool(_accelerator.check()[0])
    finally:
        if saved is not None:
            os.environ["ADMIRALTY_PURE_RULES"] = saved


needs_build = pytest.mark.skipif(
    not _build_matches(),
    reason="no compiled build matching the sources (make rules-engine builds one; "
    "without gcc, Python headers or mypyc there is none)",
)


@needs_build
def test_compiled_and_pure_engines_write_byte_identical_logs():
    seeds = (0, 1, 2, 7, 11)
    compiled = _probe(seeds, ADMIRALTY_PURE_RULES="")
    pure = _probe(seeds, ADMIRALTY_PURE_RULES="1")
    assert compiled["compiled"] is True and compiled["engine"] == "compiled (mypyc)"
    assert compiled["dice"].endswith(_accelerator.EXT_SUFFIX)
    assert pure["compiled"] is False and pure["dice"].endswith("dice.py")
    assert pure["engine"] == "pure Python (ADMIRALTY_PURE_RULES is set)"
    assert compiled["hashes"] == pure["hashes"]
    assert len(set(pure["hashes"])) == len(seeds) + 1  # six different battles


def _stale_copy(tmp_path: Path) -> Path:
    """A copy of the build (its extension modules linked, not copied) whose manifest says
    ``dice.py`` had other contents when it was compiled."""
    lib = _accelerator.BUILD / "lib"
    copy = tmp_path / "build" / "lib"
    copy.mkdir(parents=True)
    for entry in lib.iterdir():
        (copy / entry.name).symlink_to(entry)
    (copy / _accelerator.MANIFEST).unlink()
    manifest = json.loads((lib / _accelerator.MANIFEST).read_text())
    manifest["sources"]["dice.py"] = "0" * 64
    (copy / _accelerator.MANIFEST).write_text(json.dumps(manifest))
    return copy.parent


@needs_build
def test_a_build_older_than_a_source_is_not_loaded(tmp_path):
    stale = _probe((0,), ADMIRALTY_RULES_BUILD=str(_stale_copy(tmp_path)), ADMIRALTY_PURE_RULES="")
    assert stale["compiled"] is False
    assert stale["engine"] == "pure Python (stale build: dice.py changed)"
    assert stale["dice"].endswith("battles/rules/dice.py")


def test_an_edited_added_or_removed_source_makes_the_build_stale(tmp_path, monkeypatch):
    monkeypatch.delenv("ADMIRALTY_PURE_RULES", raising=False)  # (the suite may run pure)
    sources = tmp_path / "rules"
    shutil.copytree(_accelerator.SOURCES, sources, ignore=shutil.ignore_patterns("__pycache__"))
    build = tmp_path / "build"
    (build / "lib").mkdir(parents=True)
    manifest = {
        "ext_suffix": _accelerator.EXT_SUFFIX,
        "sources": _accelerator.source_hashes(sources),
        "modules": ["battles.rules.dice"],
    }
    (build / "lib" / _accelerator.MANIFEST).write_text(json.dumps(manifest))
    assert _accelerator.check(build, sources) == (["battles.rules.dice"], "")

    dice = sources / "dice.py"
    dice.write_text(dice.read_text() + "\n# edited\n")
    assert _accelerator.check(build, sources) == ([], "stale build: dice.py changed")
    dice.write_text(dice.read_text().removesuffix("\n# edited\n"))
    assert _accelerator.check(build, sources)[0] == ["battles.rules.dice"]

    (sources / "ai" / "new.py").write_text("X = 1\n")
    assert _accelerator.check(build, sources) == ([], "stale build: ai/new.py changed")
    (sources / "ai" / "new.py").unlink()
    (sources / "odds.py").unlink()
    assert _accelerator.check(build, sources) == ([], "stale build: odds.py changed")


def test_a_build_for_another_python_or_none_at_all_is_not_loaded(tmp_path, monkeypatch):
    monkeypatch.delenv("ADMIRALTY_PURE_RULES", raising=False)  # (the suite may run pure)
    assert _accelerator.check(tmp_path) == ([], "no compiled build (make rules-engine builds it)")
    (tmp_path / "lib").mkdir()
    manifest = {"ext_suffix": ".cpython-39-x86_64-linux-gnu.so", "sources": {}, "modules": []}
    (tmp_path / "lib" / _accelerator.MANIFEST).write_text(json.dumps(manifest))
    assert _accelerator.check(tmp_path)[1].startswith("build made for another Python")


def test_admiralty_pure_rules_forces_plain_python(monkeypatch):
    monkeypatch.setenv("ADMIRALTY_PURE_RULES", "1")
    assert _accelerator.check() == ([], "ADMIRALTY_PURE_RULES is set")


def test_runserver_reloads_on_a_rules_source_edit_when_compiled(monkeypatch):
    class Reloader:
        def __init__(self):
            self.watched = []

        def watch_dir(self, path, glob):
            self.watched.append((Path(path).resolve(), glob))

    compiled, pure = Reloader(), Reloader()
    monkeypatch.setattr(battles.rules, "COMPILED", True)
    watch_rules_sources(compiled)
    monkeypatch.setattr(battles.rules, "COMPILED", False)
    watch_rules_sources(pure)  # the reloader watches the .py files of loaded modules itself
    assert compiled.watched == [(_accelerator.SOURCES, "**/*.py")]
    assert pure.watched == []
