"""The output folder of ``build_site``: a staging folder, incremental writes, the swap.

A build fills an empty staging folder: a file whose key is the previous build's (a page's
key is what it reads, or its content hash) is hard-linked from the previous site (no byte
copied, no rendering), the others are written; then it swaps the staging folder in place
of the old one with two renames (the old tree stays whole until the new one is complete).
Files no longer produced are simply not there. The manifest (``.admiralty-manifest.json``)
maps each file to its key.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from pathlib import Path

MARKER = ".admiralty-site"
MANIFEST = ".admiralty-manifest.json"


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


class Staging:
    """A new site being built next to ``out_dir``, from scratch: a file kept from the
    previous build is hard-linked from it (no byte copied), a changed one written anew,
    and what the build does not produce is simply absent (nothing to scan or delete)."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
        self.old: dict[str, str] = {}
        if (out_dir / MARKER).is_file():
            try:
                self.old = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.old = {}
        self.new: dict[str, str] = {}
        self.written: list[str] = []
        self._folders: set[str] = {""}
        # Plain strings: pathlib costs more than the system calls at 40 000 files.
        self._old_root, self._new_root = str(out_dir), str(self.root)

    def _folder(self, relative: str) -> None:
        folder = relative.rpartition("/")[0]
        if folder not in self._folders:
            os.makedirs(os.path.join(self._new_root, folder), exist_ok=True)
            self._folders.add(folder)

    def path(self, relative: str) -> Path:
        """``root / relative``, refusing a path that leaves the staging folder."""
        target = self.root / relative
        if not target.resolve().is_relative_to(self.root.resolve()):
            raise SiteBuildError(f"{relative!r}: not a safe file name")
        return target

    def current(self, relative: str, key: str) -> bool:
        """True (and the previous build's file kept) when ``relative`` was built with
        ``key`` last time."""
        if self.old.get(relative) != key:
            return False
        self._folder(relative)
        try:
            os.link(os.path.join(self._old_root, relative), os.path.join(self._new_root, relative))
        except FileNotFoundError:
            return False
        except OSError:  # another file system: copy instead
            shutil.copy2(self.out_dir / relative, self.root / relative)
        self.new[relative] = key
        return True

    def write(self, relative: str, data: bytes, key: str) -> None:
        """Write ``data`` to ``relative`` unless the previous build wrote it with ``key``
        (then that file is kept). The old site is never modified."""
        if self.current(relative, key):
            return
        target = self.path(relative)
        self._folder(relative)
        target.write_bytes(data)
        self.new[relative] = key
        self.written.append(relative)

    def keep_tree(self, relative: str, exclude: tuple[str, ...] = ()) -> bool:
        """Keep the previous build's folder ``relative`` (files written by a tool, e.g.
        a search-index bundle), less its entries named in ``exclude``. False when the
        previous build had no such folder."""
        source = os.path.join(self._old_root, relative)
        if not os.path.isdir(source):
            return False
        for folder, dirs, files in os.walk(source):
            if folder == source:
                dirs[:] = [d for d in dirs if d not in exclude]
                files = [f for f in files if f not in exclude]
            target = os.path.join(self._new_root, os.path.relpath(folder, self._old_root))
            os.makedirs(target, exist_ok=True)
            for name in files:
                try:
                    os.link(os.path.join(folder, name), os.path.join(target, name))
                except OSError:
                    shutil.copy2(os.path.join(folder, name), os.path.join(target, name))
        return True

    def has(self, relative: str) -> bool:
        """True when ``relative`` (a file or a folder) exists in the staging folder."""
        return (self.root / relative).exists()

    def finish_removals(self, keep: tuple[str, ...] = ()) -> list[str]:
        """The files of the previous build's manifest this build did not produce (they
        are not in the new site)."""
        return sorted(p for p in self.old if p not in self.new and not p.startswith(keep))

    def finish(self, keep: tuple[str, ...] = ()) -> None:
        """Write the manifest and swap the staging folder in place of the old site (two
        renames: the old tree stays whole until the new one is complete)."""
        manifest = json.dumps(self.new, sort_keys=True, indent=0)
        (self.root / MANIFEST).write_text(manifest, encoding="utf-8")
        (self.root / MARKER).write_text("Built by `manage.py build_site`; safe to delete.\n")
        old = None
        if self.out_dir.exists():
            old = self.out_dir.with_name(f".{self.out_dir.name}-old-{uuid.uuid4().hex}")
            self.out_dir.rename(old)
        self.root.rename(self.out_dir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)

    def abort(self) -> None:
        """Drop the staging folder (the old site stays as it was)."""
        shutil.rmtree(self.root, ignore_errors=True)
