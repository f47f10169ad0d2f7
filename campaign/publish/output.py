"""The output folder of ``build_site``: a staging copy, incremental writes, the swap.

A build starts from a hard-linked copy of the previous site (no byte copied), writes into
it only the files whose key changed (a page's key is what it reads, or its content hash),
removes the files no longer produced, then swaps it in place of the old folder with two
renames (the old tree stays whole until the new one is complete). The manifest
(``.admiralty-manifest.json``) maps each file to its key.
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
    """A new site being built next to ``out_dir`` from a hard-linked copy of the old one."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
        self.old: dict[str, str] = {}
        if (out_dir / MARKER).is_file():
            self._link_copy(out_dir)
            try:
                self.old = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                self.old = {}
        self.new: dict[str, str] = {}
        self.written: list[str] = []

    def _link_copy(self, source: Path) -> None:
        for folder, _dirs, files in os.walk(source):
            rel = Path(folder).relative_to(source)
            (self.root / rel).mkdir(parents=True, exist_ok=True)
            for name in files:
                try:
                    os.link(Path(folder) / name, self.root / rel / name)
                except OSError:  # another file system: copy instead
                    shutil.copy2(Path(folder) / name, self.root / rel / name)

    def path(self, relative: str) -> Path:
        """``root / relative``, refusing a path that leaves the staging folder."""
        target = self.root / relative
        if not target.resolve().is_relative_to(self.root.resolve()):
            raise SiteBuildError(f"{relative!r}: not a safe file name")
        return target

    def current(self, relative: str, key: str) -> bool:
        """True (and the file kept) when ``relative`` was built with ``key`` last time."""
        if self.old.get(relative) == key and (self.root / relative).is_file():
            self.new[relative] = key
            return True
        return False

    def write(self, relative: str, data: bytes, key: str) -> None:
        """Write ``data`` to ``relative`` unless the previous build wrote it with ``key``.
        A new file replaces the hard link (the old site is never modified)."""
        if self.current(relative, key):
            return
        target = self.path(relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
        partial.write_bytes(data)
        os.replace(partial, target)
        self.new[relative] = key
        self.written.append(relative)

    def has(self, relative: str) -> bool:
        """True when ``relative`` (a file or a folder) exists in the staging folder."""
        return (self.root / relative).exists()

    def finish_removals(self, keep: tuple[str, ...] = ("pagefind/",)) -> list[str]:
        """Remove the files of the old site this build did not produce (except under the
        ``keep`` folders) and the folders left empty. Returns the removed paths."""
        removed = []
        for target in sorted(self.root.rglob("*")):
            relative = target.relative_to(self.root).as_posix()
            if relative in (MARKER, MANIFEST) or relative.startswith(keep):
                continue
            if target.is_file() and relative not in self.new:
                target.unlink()
                removed.append(relative)
        for folder, _dirs, _files in os.walk(self.root, topdown=False):
            if Path(folder) != self.root and not any(Path(folder).iterdir()):
                Path(folder).rmdir()
        return removed

    def finish(self, keep: tuple[str, ...] = ("pagefind/",)) -> None:
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
