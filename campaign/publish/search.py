"""Client-side search of the baked site: Pagefind (https://pagefind.app), run through the
binary the ``pagefind[bin]`` package ships (no Node). It indexes the ``data-pagefind-body``
of every page, one index per ``<html lang>``, into ``pagefind/``."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


class SearchIndexError(RuntimeError):
    """Pagefind failed; the message holds its output."""


def index(site: Path) -> None:
    """(Re)build ``site/pagefind/`` from the HTML pages of ``site``. Raises
    :class:`SearchIndexError` with Pagefind's output when it fails."""
    bundle = site / "pagefind"
    if bundle.exists():
        shutil.rmtree(bundle)  # a hard-linked copy of the old index: unlinking is safe
    done = subprocess.run(  # noqa: S603 - fixed arguments, our own interpreter
        [sys.executable, "-m", "pagefind", "--site", str(site), "--output-subdir", "pagefind"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise SearchIndexError((done.stdout + done.stderr)[-2000:])
