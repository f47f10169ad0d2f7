"""The output folder of ``build_site``: two trees, incremental writes, an atomic swap.

``out_dir`` is a symbolic link to one of two complete trees beside it,
``.<name>.trees/a`` and ``.<name>.trees/b`` (blue/green). A build brings the tree that
is *not* served up to date and then swaps the link with one ``rename`` (atomic: a
reader resolving ``out_dir`` gets the whole old site or the whole new one, never a mix,
and never a missing folder). Bringing the other tree up to date costs what changed, not
the size of the site: each tree has a manifest (``.admiralty-manifest.json``, every file
→ its key: what the page reads, or its content hash), so a file is touched only when its
key in that tree differs from the new one — written anew when it changed in this build,
hard-linked from the served tree when it changed in the previous one. Building a fresh
tree by hard-linking all 45 000 files of a 10 000-battle site, then deleting the old
tree, cost 1.0-1.35 s of system CPU per rebuild (0.34 s now).

A file is never written in place (the two trees share unchanged files as hard links):
it is unlinked first or replaced by ``rename``. The tree being updated is the one served
until the previous swap, so a reader still inside it two builds later could see it
change; any reader resolving ``out_dir`` anew sees one whole site. Its manifest is
deleted while it is updated: a build that dies half-way leaves a tree of unknown state,
which the next build starts again from empty. Files nobody built (written into the
served folder by hand) are found by a walk of the tree (0.1 s at 45 000 files) and
removed, as are the files of the manifest this build did not produce.

A folder that a previous version of ``build_site`` made (a plain folder, not a link) is
replaced the first time by two renames.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import uuid
from pathlib import Path

from campaign.refresh import MARKER

MANIFEST = ".admiralty-manifest.json"
_TREES = ("a", "b")


class SiteBuildError(Exception):
    """The site cannot be built (unknown campaign, unsafe output folder)."""


def prepare_out_dir(out_dir: Path) -> None:
    """Refuse an ``out_dir`` that exists and is not a site ``build_site`` made."""
    if out_dir.exists():
        if not out_dir.is_dir():
            raise SiteBuildError(f"{out_dir} exists and is not a folder")
        if any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
            raise SiteBuildError(
                f"{out_dir} is not empty and was not made by build_site ({MARKER} missing);"
                " refusing to replace it"
            )


def trees_dir(out_dir: Path) -> Path:
    """The folder holding the two trees of the site ``out_dir`` links to."""
    return out_dir.with_name(f".{out_dir.name}.trees")


def _manifest(folder: str) -> dict[str, str] | None:
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None


class Staging:
    """The tree being brought up to date (``root``) while ``out_dir`` serves the other.

    ``old``: the served site's manifest (what the previous build made, file → key);
    ``new``: this build's; ``written``: the files this build wrote (the others are kept).
    """

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        trees = trees_dir(out_dir)
        trees.mkdir(parents=True, exist_ok=True)
        self.trees = trees
        served = None
        if out_dir.is_symlink():
            target = os.readlink(out_dir)
            served = next((t for t in _TREES if target == f"{trees.name}/{t}"), None)
        if served is not None:
            live = str(trees / served)
            name = _TREES[1 - _TREES.index(served)]
        else:  # no site yet, or one made as a plain folder: fill tree "a" from it
            live, name = str(out_dir), _TREES[0]
        self.root = trees / name
        self.old: dict[str, str] = {}
        if os.path.isfile(os.path.join(live, MARKER)):
            self.old = _manifest(live) or {}
        # What the tree to update holds; unknown (started again empty) without a manifest.
        tree = _manifest(str(self.root)) if self.root.is_dir() else None
        if tree is None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root.mkdir()
            tree = {}
        else:
            os.unlink(self.root / MANIFEST)  # a build dying half-way leaves it unknown
        self.tree: dict[str, str] = tree
        self.new: dict[str, str] = {}
        self.written: list[str] = []
        self._folders: set[str] = {""}
        # Plain strings: pathlib costs more than the system calls at 40 000 files.
        self._old_root, self._new_root = live, str(self.root)

    def _folder(self, relative: str) -> None:
        folder = relative.rpartition("/")[0]
        if folder not in self._folders:
            os.makedirs(os.path.join(self._new_root, folder), exist_ok=True)
            self._folders.add(folder)

    def path(self, relative: str) -> str:
        """``root/relative``, refusing a path that leaves the staging folder.

        Checked on the name alone: the tree holds no symbolic link (only this class
        writes into it), so a relative name without ``..`` stays inside. Resolving both
        paths on disk cost two ``lstat`` per folder of every file (1.2 s of a profiled
        1 000-battle build, about 2 s at 10 000 battles)."""
        parts = relative.split("/")
        if not relative or relative.startswith("/") or "\0" in relative or ".." in parts:
            raise SiteBuildError(f"{relative!r}: not a safe file name")
        return os.path.join(self._new_root, relative)

    def _unlink(self, relative: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(self._new_root, relative))

    def current(self, relative: str, key: str) -> bool:
        """True (and the previous build's file kept) when ``relative`` was built with
        ``key`` last time."""
        if self.old.get(relative) != key:
            return False
        if self.tree.get(relative) != key:  # changed in the previous build: take its file
            self._folder(relative)
            self._unlink(relative)
            source = os.path.join(self._old_root, relative)
            target = os.path.join(self._new_root, relative)
            try:
                os.link(source, target)
            except FileNotFoundError:
                return False
            except OSError:  # another file system: copy instead
                shutil.copy2(source, target)
            self.tree[relative] = key
        self.new[relative] = key
        return True

    def write(self, relative: str, data: bytes, key: str) -> None:
        """Write ``data`` to ``relative`` unless the previous build wrote it with ``key``
        (then that file is kept). The served site is never modified."""
        if self.current(relative, key):
            return
        target = self.path(relative)
        self._folder(relative)
        self._unlink(relative)  # maybe a hard link shared with the served tree
        with open(target, "wb") as file:
            file.write(data)
        self.tree[relative] = self.new[relative] = key
        self.written.append(relative)

    def adopt(self, relative: str, source: str, key: str) -> None:
        """Move the file ``source`` (made by a tool, e.g. Pagefind, on the same file
        system) to ``relative`` with ``key`` (not counted in :attr:`written`)."""
        self._folder(relative)
        os.replace(source, os.path.join(self._new_root, relative))
        self.tree[relative] = self.new[relative] = key

    def scratch(self, prefix: str) -> Path:
        """A new empty folder on the trees' file system, for a tool's output (removed by
        the caller)."""
        return Path(tempfile.mkdtemp(prefix=prefix, dir=self.trees))

    def has(self, relative: str) -> bool:
        """True when ``relative`` (a file or a folder) exists in the staging folder."""
        return (self.root / relative).exists()

    def finish_removals(self, keep: tuple[str, ...] = ()) -> list[str]:
        """The files of the previous build's manifest this build did not produce (they
        are not in the new site)."""
        return sorted(p for p in self.old if p not in self.new and not p.startswith(keep))

    def _prune(self) -> None:
        """Remove from the tree what this build did not produce: files of its manifest,
        and any file nobody built; take from the served tree the files its manifest
        names but that are missing (deleted by hand). One walk of the tree."""
        for relative in self.tree:
            if relative not in self.new:
                self._unlink(relative)
        root, new = self._new_root, self.new
        skip = len(root) + 1
        present = set()
        for folder, _dirs, files in os.walk(root, topdown=False):
            inside = folder[skip:] + "/" if len(folder) > len(root) else ""
            kept = 0
            for name in files:
                if inside + name in new:
                    kept += 1
                    present.add(inside + name)
                else:
                    os.unlink(os.path.join(folder, name))
            if inside and not kept:
                with contextlib.suppress(OSError):  # no longer used, unless it holds one
                    os.rmdir(folder)
        for relative in new.keys() - present:
            self.tree.pop(relative, None)
            if not self.current(relative, new.pop(relative)):  # gone from both trees
                raise SiteBuildError(f"{relative}: deleted from the site during the build")

    def finish(self, records: dict[str, str] | None = None) -> None:
        """Write the manifest (and ``records``: file name → text, beside it, e.g. what the
        build read) and swap the link ``out_dir`` to the updated tree (one rename; a
        plain folder of an earlier version is moved aside first)."""
        self._prune()
        manifest = json.dumps(self.new, sort_keys=True, indent=0)
        (self.root / MARKER).write_text("Built by `manage.py build_site`; safe to delete.\n")
        for name, text in (records or {}).items():
            (self.root / name).write_text(text, encoding="utf-8")
        (self.root / MANIFEST).write_text(manifest, encoding="utf-8")
        link = self.out_dir.with_name(f".{self.out_dir.name}.link-{uuid.uuid4().hex}")
        os.symlink(f"{self.trees.name}/{self.root.name}", link)
        old = None
        if self.out_dir.is_dir() and not self.out_dir.is_symlink():
            old = self.out_dir.with_name(f".{self.out_dir.name}-old-{uuid.uuid4().hex}")
            self.out_dir.rename(old)
        os.replace(link, self.out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        other = self.trees / _TREES[1 - _TREES.index(self.root.name)]
        if not (other / MANIFEST).is_file():
            self._mirror(other)

    def _mirror(self, other: Path) -> None:
        """Make ``other`` a copy of the new tree, in hard links (after a first build):
        else the next build would link all 45 000 files of a 10 000-battle site, 2 s."""
        shutil.rmtree(other, ignore_errors=True)
        root = self._new_root
        for folder, _dirs, files in os.walk(root):
            target = os.path.join(str(other), os.path.relpath(folder, root))
            os.makedirs(target, exist_ok=True)
            for name in files:
                if name == MANIFEST:
                    continue
                try:
                    os.link(os.path.join(folder, name), os.path.join(target, name))
                except OSError:  # no hard links on this file system
                    shutil.copy2(os.path.join(folder, name), os.path.join(target, name))
        manifest = json.dumps(self.new, sort_keys=True, indent=0)
        (other / MANIFEST).write_text(manifest, encoding="utf-8")

    def abort(self) -> None:
        """Leave the served site as it is; the tree being updated keeps no manifest, so
        the next build starts it again from empty."""
