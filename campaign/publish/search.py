"""Client-side search of the baked site: Pagefind (https://pagefind.app), run through the
binary the ``pagefind[bin]`` package ships (no Node).

Pagefind has no incremental index, and indexing every page again after one new battle
took 4 s at 1 000 battles. So the index is cut into shards, each a Pagefind bundle of
its own: ``pagefind/`` holds the pages of the site proper (home, campaigns, factions,
fleets, lists, search) and Pagefind's UI; ``pagefind/shards/<kind>-<n>/`` the battle
pages, :data:`SHARD_SIZE` battles (by id) a shard, and the ship pages alike. The search
page merges them in the browser (Pagefind's ``mergeIndex``, "Searching multiple sites"
in its documentation; ``static/js/site-search.js``). A build re-indexes only the shards
whose pages changed; ``pagefind/shards.json`` records which pages each shard holds.
Each bundle holds one index per ``<html lang>`` and indexes the ``data-pagefind-body``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

#: The search bundle's folder in the site.
BUNDLE = "pagefind"
#: Battles (or ships) per shard: a new battle re-indexes at most this many of them.
SHARD_SIZE = 500
#: The shard of every page not assigned one.
MAIN = "site"
_MEMBERS = f"{BUNDLE}/shards.json"


class SearchIndexError(RuntimeError):
    """Pagefind failed; the message holds its output."""


def shard(kind: str, pk: int) -> str:
    """The shard of the page of object ``pk`` of ``kind`` (``battles``, ``ships``)."""
    return f"{kind}-{pk // SHARD_SIZE}"


def bundles(shards: dict[str, str]) -> list[str]:
    """Names of the shards besides the main bundle (``shards`` maps page → shard)."""
    return sorted({name for name in shards.values() if name != MAIN})


def _folder(root: Path, name: str) -> Path:
    return root / BUNDLE if name == MAIN else root / BUNDLE / "shards" / name


def index_shards(
    staging: Any,
    shards: dict[str, str],
    progress: Callable[[Iterable[Any], int, str], Iterable[Any]] | None = None,
) -> list[str]:
    """(Re)index the shards of ``staging`` (an ``output.Staging``) whose pages changed:
    written by this build, added, removed, or no bundle in the previous site; the
    others are kept from it. ``shards`` maps each
    HTML page (relative path) to its shard. Returns the shards indexed, sorted. Raises
    :class:`SearchIndexError` when Pagefind fails."""
    root: Path = staging.root
    members: dict[str, list[str]] = defaultdict(list)
    for page, name in shards.items():
        if page.endswith(".html"):
            members[name].append(page)
    members = {name: sorted(pages) for name, pages in members.items()}
    try:
        old = json.loads((staging.out_dir / _MEMBERS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    written = set(staging.written)
    dirty = []
    for name, pages in sorted(members.items()):
        relative = _folder(Path(), name).as_posix()
        unchanged = old.get(name) == pages and not any(page in written for page in pages)
        exclude = ("shards", "shards.json") if name == MAIN else ()
        if not (unchanged and staging.keep_tree(relative, exclude=exclude)):
            dirty.append(name)
    if dirty:
        _index(root, {name: members[name] for name in dirty}, progress)
    data = json.dumps(members, sort_keys=True, indent=0).encode()
    _replace(root / _MEMBERS, data)
    return dirty


def _replace(target: Path, data: bytes) -> None:
    """Write a new file (never into a hard link shared with the previous site)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
    partial.write_bytes(data)
    os.replace(partial, target)


#: Pagefind processes at a time (each is multi-threaded; a small site has three shards).
PARALLEL = 4


def _index(root: Path, dirty: dict[str, list[str]], progress) -> None:
    """Run the Pagefind CLI once per shard, :data:`PARALLEL` at a time, each over a folder
    of hard links to its pages (the same relative paths, so the same result URLs). The
    CLI, not the Python API: the API sends one request per page and waits for its answer,
    0.1 s a page on a loaded machine (412 s for 3 900 pages, against 4 s for the CLI)."""
    names = list(dirty)
    done = progress(names, len(names), "search") if progress is not None else names
    running: list[tuple[subprocess.Popen, Path]] = []
    try:
        for name in done:
            pages = Path(tempfile.mkdtemp(prefix=".pagefind-", dir=root.parent))
            for page in dirty[name]:
                (pages / page).parent.mkdir(parents=True, exist_ok=True)
                os.link(root / page, pages / page)
            command = [sys.executable, "-m", "pagefind", "--site", str(pages),
                       "--output-path", str(_folder(root, name))]  # fmt: skip
            running.append(
                (
                    subprocess.Popen(  # noqa: S603 - fixed arguments, our own interpreter
                        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
                    ),
                    pages,
                )
            )
            if len(running) >= PARALLEL:
                _wait(running.pop(0))
        while running:
            _wait(running.pop(0))
    finally:
        for process, pages in running:
            process.kill()
            shutil.rmtree(pages, ignore_errors=True)


def _wait(job: tuple[subprocess.Popen, Path]) -> None:
    process, pages = job
    try:
        output, _ = process.communicate(timeout=600)
    finally:
        shutil.rmtree(pages, ignore_errors=True)
    if process.returncode != 0:
        raise SearchIndexError(output[-2000:])
