"""Client-side search of the baked site: Pagefind (https://pagefind.app), run through the
binary the ``pagefind[bin]`` package ships (no Node).

Pagefind has no incremental index, and indexing every page again after one new battle
took 4 s at 1 000 battles. So the index is cut into shards, each a Pagefind bundle of
its own: ``pagefind/`` holds the pages of the site proper (home, campaigns, factions,
fleets, maps, search; the battle lists are not searched) and Pagefind's UI;
``pagefind/shards/<kind>-<n>/`` the battle pages and the ship pages. The search page
merges them in the browser (Pagefind's ``mergeIndex``, "Searching multiple sites" in its
documentation; ``static/js/site-search.js``). A build re-indexes only the shards whose
pages changed; ``pagefind/shards.json`` records which pages each shard holds.

Shards by age: objects (by id, so in order of creation) are cut into blocks of
:data:`SHARD_SIZE`, and the newest block, where new battles land, into shards of
:data:`SHARD_SIZE` / :data:`SPLIT`. A new battle re-indexes a shard of at most 50
battles (0.36 s CPU for Pagefind) instead of 500 (3.05 s); once its block is full the
small shards become one (one re-index in 500 battles), so a 10 000-battle league is
searched through about 30 bundles, not 200. Each bundle holds one index per
``<html lang>`` and indexes the ``data-pagefind-body``.

The bundles' files are files of the site like the pages (``output.Staging``): each
carries its shard's key (the digest of its pages and their keys), so an unchanged
shard is kept from the previous build and a changed one is indexed anew.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from collections import defaultdict
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from campaign.publish.rows import digest

#: The search bundle's folder in the site.
BUNDLE = "pagefind"
#: Battles (or ships) per shard, but in the newest block.
SHARD_SIZE = 500
#: The newest block is cut in this many shards (of ``SHARD_SIZE // SPLIT`` objects).
SPLIT = 10
#: The shard of every page not assigned one.
MAIN = "site"
#: The "shard" of the pages left out of the search (the battle lists).
UNINDEXED = ""
_MEMBERS = f"{BUNDLE}/shards.json"
#: What Pagefind leaves out of every page (``--exclude-selectors``, "Configuring the
#: index" in its documentation), besides the ``data-pagefind-ignore`` sections: labels
#: and numbers every report repeats (the facts' labels, the forces tables' headers and
#: box counts, the losses table), the map section (its legend; the drawing is stripped
#: by :func:`searchable`), the systems lost under a unit and the site's fixed notes
#: ("recorded from the table…"). People search names, places, ships, factions and
#: narratives: those stay. Indexing the rest was about a fifth of Pagefind's CPU on
#: battle pages (1 000 battle pages: 1.50 → 1.25 s user), and it filled the results'
#: excerpts with "0 0 0 0".
EXCLUDED = ", ".join(
    (
        ".report-facts dt",
        ".report-sides thead",
        ".report-sides td.num",
        ".report-sides .lost-list",
        ".report-losses",
        ".report-map",
        "p.note",
    )
)


class SearchIndexError(RuntimeError):
    """Pagefind failed; the message holds its output."""


def searchable(html: bytes) -> bytes:
    """``html`` without its inline drawings (each outermost ``<svg>…</svg>``, nested ones
    with it): what Pagefind reads of a page. The drawings' words (SSD box labels, map
    names) are on every ship and battle page, so they only add noise to the results, and
    parsing them was about a quarter of Pagefind's time on battle pages (measured at
    10 000 battles). The served page keeps them."""
    if b"<svg" not in html:
        return html
    out, at = [], 0
    while (start := html.find(b"<svg", at)) >= 0:
        out.append(html[at:start])
        depth, at = 1, start + 4
        while depth:
            opening, closing = html.find(b"<svg", at), html.find(b"</svg>", at)
            if closing < 0:  # unclosed: the rest is drawing
                return b"".join(out)
            if 0 <= opening < closing:
                depth, at = depth + 1, opening + 4
            else:
                depth, at = depth - 1, closing + 6
    out.append(html[at:])
    return b"".join(out)


def _small() -> int:
    return max(1, SHARD_SIZE // SPLIT)


def shard(kind: str, pk: int) -> str:
    """The small shard of the page of object ``pk`` of ``kind`` (``battles``, ``ships``):
    its bundle while its block is the newest (:func:`assign`)."""
    return f"{kind}-{pk // _small()}"


def assign(shards: dict[str, str]) -> dict[str, str]:
    """``shards`` (page → small shard, :func:`shard`) with the small shards of every
    block but the newest of each kind merged into one, named after its first; less the
    pages :data:`UNINDEXED`."""
    per_block = max(1, SHARD_SIZE // _small())
    shards = {page: name for page, name in shards.items() if name != UNINDEXED}
    newest: dict[str, int] = {}
    for name in set(shards.values()):
        if name != MAIN:
            kind, _, n = name.rpartition("-")
            newest[kind] = max(newest.get(kind, 0), int(n) // per_block)
    bundle: dict[str, str] = {MAIN: MAIN}
    for name in set(shards.values()) - {MAIN}:
        kind, _, n = name.rpartition("-")
        block = int(n) // per_block
        bundle[name] = name if block == newest[kind] else f"{kind}-{block * per_block}"
    return {page: bundle[name] for page, name in shards.items()}


def bundles(shards: dict[str, str]) -> list[str]:
    """Names of the bundles besides the main one (``shards`` maps page → small shard)."""
    return sorted({name for name in assign(shards).values() if name != MAIN})


def _folder(name: str) -> str:
    return f"{BUNDLE}/" if name == MAIN else f"{BUNDLE}/shards/{name}/"


def _bundle_of(relative: str) -> str | None:
    """The bundle a file of ``pagefind/`` belongs to (None: ``shards.json``)."""
    rest = relative[len(BUNDLE) + 1 :]
    if rest.startswith("shards/"):
        return rest.split("/", 2)[1]
    return None if rest == "shards.json" else MAIN


def _pagefind_version() -> str:
    try:
        return version("pagefind")
    except PackageNotFoundError:  # pragma: no cover - a source install
        return "?"


class SearchInput:
    """What Pagefind reads of each page rendered in this build (:func:`searchable`),
    written by the process that renders it (the battle pages' pool) into a folder of the
    build's, from which the :class:`Indexer` moves it to its run's folder. Else the
    indexer read every page back and stripped it in the building process, in a thread
    holding the GIL against the rest of the build (0.17 ms a page: 3.7 s of a
    10 000-battle build). A page kept from the previous build has no copy here: the
    indexer makes it from the site."""

    def __init__(self, staging: Any):
        self.root = str(staging.scratch(".search-input-"))
        self._folders: set[str] = set()

    def add(self, page: str, html: bytes) -> None:
        """Keep what Pagefind reads of ``page`` (relative path) rendered as ``html``."""
        folder = page.rpartition("/")[0]
        if folder not in self._folders:
            os.makedirs(os.path.join(self.root, folder), exist_ok=True)
            self._folders.add(folder)
        with open(os.path.join(self.root, page), "wb") as file:
            file.write(searchable(html))

    def take(self, page: str, target: Path) -> bool:
        """Move ``page``'s copy to ``target``; False when there is none."""
        try:
            os.rename(os.path.join(self.root, page), target)
        except FileNotFoundError:
            return False
        return True

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def _members(shards: dict[str, str]) -> dict[str, list[str]]:
    """Bundle name → its HTML pages, sorted (``shards``: page → small shard)."""
    members: dict[str, list[str]] = defaultdict(list)
    for page, name in assign(shards).items():
        if page.endswith(".html"):
            members[name].append(page)
    return {name: sorted(pages) for name, pages in members.items()}


#: Pagefind processes at a time (each is multi-threaded; a small site has three shards).
PARALLEL = 4


class Indexer:
    """Pagefind over the bundles whose pages changed, run in the background while the
    build goes on: :meth:`start` the bundles of some kinds once their pages are all
    written, :meth:`finish` the rest and wait (the builder starts the battle and ship
    bundles when the battle pages are done, so Pagefind keeps the second core busy while
    the lists, maps and the main bundle's pages are baked). Pagefind runs as the CLI,
    :data:`PARALLEL` at a time, each over a folder of its pages (hard links, or copies
    without their drawings, :func:`searchable`; the same relative paths, so the same
    result URLs) into a folder of its own, whose files then move into the site. The CLI,
    not the Python API: the API waits 0.1 s between answers (``pagefind.service``), 412 s
    for 3 900 pages against 4 s for the CLI.

    Only Pagefind and the copies of the pages run in the background thread; the staging
    (keys, adopted files) is touched by the calling thread alone."""

    def __init__(
        self, staging: Any, progress: Callable | None = None, copies: SearchInput | None = None
    ):
        self.staging, self.progress, self.copies = staging, progress, copies
        self.indexed: list[str] = []
        self._keys: dict[str, str] = {}
        self._planned: set[str] = set()
        self._threads: list[threading.Thread] = []
        self._finished: queue.Queue[tuple[str, Path | None, BaseException | None]] = queue.Queue()
        self._slots = threading.BoundedSemaphore(PARALLEL)
        self._stop = threading.Event()
        self._processes: set[subprocess.Popen] = set()
        self._tool = _pagefind_version()
        self._old_files: dict[str, list[str]] = defaultdict(list)
        for relative in staging.old:
            if relative.startswith(BUNDLE + "/"):
                name = _bundle_of(relative)
                if name is not None:
                    self._old_files[name].append(relative)

    def start(self, shards: dict[str, str], kinds: tuple[str, ...]) -> None:
        """Index in the background the bundles of ``kinds`` (``battles``, ``ships``)
        that changed; every page of those kinds must be written (``shards``: page →
        small shard, :func:`shard`)."""
        members = _members(shards)
        names = [n for n in members if n != MAIN and n.rpartition("-")[0] in kinds]
        self._launch(members, names)

    def finish(self, shards: dict[str, str]) -> list[str]:
        """Index the bundles not started yet, wait for every run, move their files into
        the site and write ``pagefind/shards.json``. Returns the bundles indexed, sorted.
        Raises :class:`SearchIndexError` when Pagefind fails."""
        members = _members(shards)
        self._launch(members, [n for n in members if n not in self._planned])
        try:
            waited = range(len(self.indexed))
            if self.progress is not None:
                waited = self.progress(waited, len(self.indexed), "search")
            for _ in waited:
                name, work, failure = self._finished.get()
                if failure is not None:
                    raise failure
                self._adopt(name, work)
        finally:
            self.abort()
        data = json.dumps(members, sort_keys=True, indent=0).encode()
        self.staging.write(_MEMBERS, data, digest(members))
        return sorted(self.indexed)

    def abort(self) -> None:
        """Stop the runs still going (a failed build) and remove their folders."""
        self._stop.set()
        for process in list(self._processes):
            process.kill()  # its thread sees it fail and stops
        for thread in self._threads:
            thread.join()
        while not self._finished.empty():
            _name, work, _failure = self._finished.get()
            if work is not None:
                shutil.rmtree(work, ignore_errors=True)
        if self.copies is not None:
            self.copies.remove()

    def _launch(self, members: dict[str, list[str]], names: list[str]) -> None:
        staging, dirty = self.staging, []
        for name in sorted(names):
            pages = members[name]
            self._planned.add(name)
            key = digest([self._tool, name, [(page, staging.new.get(page)) for page in pages]])
            self._keys[name] = key
            files = self._old_files.get(name, [])
            if not (files and staging.old[files[0]] == key):
                dirty.append(name)
            elif not all(staging.current(relative, key) for relative in files):
                dirty.append(name)  # a file of the served bundle is missing
        if dirty:
            self.indexed += dirty
            jobs = [(name, members[name]) for name in dirty]
            thread = threading.Thread(target=self._run, args=(jobs,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _run(self, jobs: list[tuple[str, list[str]]]) -> None:
        """The background thread: one Pagefind run per bundle, :data:`PARALLEL` at a
        time over every thread; each result (or failure) goes to ``_finished``."""
        running: list[tuple[subprocess.Popen, str, Path]] = []
        try:
            for name, pages in jobs:
                self._slot(running)
                if self._stop.is_set():
                    self._slots.release()
                    break
                try:
                    work = self._pages(pages)
                    command = [sys.executable, "-m", "pagefind", "--site", str(work / "pages"),
                               "--output-path", str(work / "out"),
                               "--exclude-selectors", EXCLUDED]  # fmt: skip
                    process = subprocess.Popen(  # noqa: S603 - fixed arguments, our interpreter
                        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
                    )
                except BaseException:
                    self._slots.release()
                    raise
                self._processes.add(process)
                running.append((process, name, work))
            while running:
                self._wait(running.pop(0))
        except BaseException as failure:  # noqa: BLE001 - handed to the calling thread
            self._finished.put(("", None, failure))
        finally:
            for process, _name, work in running:
                process.kill()
                process.wait()
                shutil.rmtree(work, ignore_errors=True)
                self._slots.release()

    def _slot(self, running: list) -> None:
        """Take a slot for one more run, waiting for this thread's oldest run while none
        is free (or for another thread's, when this one runs none)."""
        while not self._slots.acquire(blocking=False):
            if not running:
                self._slots.acquire()
                return
            self._wait(running.pop(0))

    def _pages(self, pages: list[str]) -> Path:
        root = self.staging.root
        work = self.staging.scratch(".pagefind-")
        for page in pages:
            (work / "pages" / page).parent.mkdir(parents=True, exist_ok=True)
            if self.copies is not None and self.copies.take(page, work / "pages" / page):
                continue
            html = (root / page).read_bytes()
            text = searchable(html)
            if text is html:
                os.link(root / page, work / "pages" / page)
            else:
                (work / "pages" / page).write_bytes(text)
        return work

    def _wait(self, job: tuple[subprocess.Popen, str, Path]) -> None:
        process, name, work = job
        try:
            output, _ = process.communicate(timeout=600)
        except BaseException:
            process.kill()
            process.wait()
            shutil.rmtree(work, ignore_errors=True)
            raise
        finally:
            self._processes.discard(process)
            self._slots.release()
        if process.returncode != 0:
            shutil.rmtree(work, ignore_errors=True)
            raise SearchIndexError(output[-2000:])
        self._finished.put((name, work, None))

    def _adopt(self, name: str, work: Path) -> None:
        try:
            out = str(work / "out")
            for folder, _dirs, files in os.walk(out):
                inside = os.path.relpath(folder, out)
                prefix = _folder(name) + (
                    "" if inside == "." else inside.replace(os.sep, "/") + "/"
                )
                for file in files:
                    self.staging.adopt(prefix + file, os.path.join(folder, file), self._keys[name])
        finally:
            shutil.rmtree(work, ignore_errors=True)
