"""Load the mypyc-compiled build of this package when it matches the sources, else nothing.

The ``.py`` files are the engine; ``python -m battles.rules_build`` (``make rules-engine``) compiles
them with mypyc into ``build/rules-mypyc/lib`` (git-ignored, never beside the sources: Python
would prefer an in-place ``.so`` to an edited ``.py``) and writes there ``manifest.json``:
the SHA-256 of every ``.py`` of ``battles/rules``, the extension suffix of the Python that
built it and the modules compiled.

:func:`install`, run once by ``battles/rules/__init__.py``, hashes the current sources and
compares: only when every file is the one compiled (none added, none removed, same Python)
does it put a finder first on ``sys.meta_path`` that loads the listed modules from the
build. Any difference — one edited line — and the whole engine runs as plain Python: never
stale compiled code, and never a mix of compiled modules and newer sources.
``ADMIRALTY_PURE_RULES=1`` forces plain Python. Stdlib only, and never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = "battles.rules"
SOURCES = Path(__file__).resolve().parent
ROOT = SOURCES.parents[1]
#: Where the build lives; ``ADMIRALTY_RULES_BUILD`` moves it (the tests build a stale one).
BUILD = Path(os.environ.get("ADMIRALTY_RULES_BUILD", ROOT / "build" / "rules-mypyc"))
MANIFEST = "manifest.json"
EXT_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def source_hashes(sources: Path = SOURCES) -> dict[str, str]:
    """SHA-256 (hex) of every ``.py`` under ``sources``, by POSIX path relative to it."""
    return {
        path.relative_to(sources).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(sources.rglob("*.py"))
    }


def check(build: Path = BUILD, sources: Path = SOURCES) -> tuple[list[str], str]:
    """``(modules, why)``: the compiled modules to load and ``""`` when the build in
    ``build`` matches ``sources``; else ``([], why not)`` in a few words."""
    if os.environ.get("ADMIRALTY_PURE_RULES", "") not in ("", "0"):
        return [], "ADMIRALTY_PURE_RULES is set"
    try:
        manifest = json.loads((build / "lib" / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return [], "no compiled build (make rules-engine builds it)"
    except (OSError, ValueError) as error:
        return [], f"unreadable build manifest: {error}"
    if manifest.get("ext_suffix") != EXT_SUFFIX:
        return [], f"build made for another Python ({manifest.get('ext_suffix')})"
    built, now = manifest.get("sources", {}), source_hashes(sources)
    if built != now:
        changed = sorted(k for k in built.keys() | now.keys() if built.get(k) != now.get(k))
        return (
            [],
            f"stale build: {', '.join(changed[:3])}{' …' if len(changed) > 3 else ''} changed",
        )
    return list(manifest.get("modules", [])), ""


class _CompiledFinder(importlib.machinery.PathFinder):
    """Finds the compiled modules of the build (and nothing else) before the source tree."""

    def __init__(self, lib: Path, modules: Sequence[str]) -> None:
        self.lib = lib
        self.modules = frozenset(modules)

    def find_spec(  # type: ignore[override]
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        parts = fullname.split(".")
        is_package = (self.lib.joinpath(*parts) / f"__init__{EXT_SUFFIX}").is_file()
        where = self.lib.joinpath(*parts, "__init__") if is_package else self.lib.joinpath(*parts)
        origin = f"{where}{EXT_SUFFIX}"
        loader = importlib.machinery.ExtensionFileLoader(fullname, origin)
        spec = importlib.util.spec_from_file_location(
            fullname,
            origin,
            loader=loader,
            submodule_search_locations=[str(SOURCES.joinpath(*parts[2:]))] if is_package else None,
        )
        return spec


def install() -> tuple[bool, str]:
    """Put the compiled build first on ``sys.meta_path`` when :func:`check` accepts it.
    ``(True, "compiled (mypyc)")`` or ``(False, "pure Python (why)")``."""
    modules, why = check()
    if not modules:
        return False, f"pure Python ({why or 'the build compiled no module'})"
    if not any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _CompiledFinder(BUILD / "lib", modules))
    return True, "compiled (mypyc)"
