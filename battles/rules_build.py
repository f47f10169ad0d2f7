"""Compile the rules engine (``battles/rules``) with mypyc: ``python -m battles.rules_build``.

The ``.py`` files stay the engine; this builds an accelerator beside them, never in place:
the sources are copied to a temporary tree (an edit made during the build cannot slip in
unhashed), compiled there by mypyc and gcc, and the extension modules written to
``build/rules-mypyc/lib`` with ``manifest.json`` (the copied sources' SHA-256, this Python's
extension suffix, the modules compiled). ``battles.rules._accelerator`` loads them only
while every source still has the hash the manifest gives (see that module).

Compiled: every module of the package but the ``__init__`` files (re-exports) and
``NOT_COMPILED``. A build already matching the sources is kept (nothing done). Without a C
compiler, the Python headers or mypyc, or when the build fails, it prints one line saying
so and exits 0: the plain Python engine then runs.
``--force`` rebuilds; ``--check`` exits 1 unless the build matches the sources.
Run by ``make rules-engine`` (and ``make venv COMPILE_RULES=1``); ``make clean`` removes ``build/``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from battles.rules import _accelerator

#: Left as Python: package ``__init__`` files (re-exports), ``_accelerator`` (it decides what
#: to load) and ``phases/event.py`` (descriptors over slots, which native classes lack).
NOT_COMPILED = ("_accelerator.py", "phases/event.py")
#: mypyc's optimisation level for gcc (-O3; mypyc's default).
OPT_LEVEL = "3"


def missing_tools() -> str:
    """What the build needs and this machine lacks, in words ("" when nothing)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers}; e.g. apt-get install python3-dev)"
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install -r requirements-dev.txt)"
    return ""


def compiled_modules(package: Path) -> list[str]:
    """The ``.py`` files of ``package`` (a copy of ``battles/rules``) to compile, relative
    to the tree's root, sorted."""
    root = package.parents[1]
    return sorted(
        path.relative_to(root).as_posix()
        for path in package.rglob("*.py")
        if path.name != "__init__.py" and path.relative_to(package).as_posix() not in NOT_COMPILED
    )


def _compile(tree: Path, files: list[str], out: Path) -> None:
    """mypyc + gcc on ``files`` (paths under ``tree``), extensions written under ``out``.
    One shared library ``admiralty_rules__mypyc`` (a top-level name: mypyc derives each
    module's ``__file__`` from it), one C file per module so gcc runs them in parallel."""
    script = (
        "import os, sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "files, out, jobs, opt = sys.argv[1].split(','), sys.argv[2], sys.argv[3], sys.argv[4]\n"
        "setup(name='admiralty-rules', packages=[], py_modules=[],\n"
        "      ext_modules=mypycify(files, opt_level=opt, multi_file=True,\n"
        "                           group_name='admiralty_rules'),\n"
        "      script_args=['build_ext', '--build-lib', out, '--build-temp', 'tmp',\n"
        "                   '--parallel', jobs])\n"
    )
    jobs = str(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 2)
    done = subprocess.run(  # noqa: S603  (this Python, our own script and file list)
        [sys.executable, "-c", script, ",".join(files), str(out), jobs, OPT_LEVEL],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        errors = [line for line in done.stdout.splitlines() if ": error:" in line]
        tail = "\n".join(errors[:10] or (done.stderr or done.stdout).splitlines()[-10:])
        raise RuntimeError(f"mypyc build failed:\n{tail}")


def build(target: Path = _accelerator.BUILD, *, force: bool = False) -> str:
    """Build the compiled engine into ``target`` unless it matches the sources already.
    Returns what happened in one line; raises ``RuntimeError`` when the build fails."""
    if not force and _accelerator.check(target)[0]:
        return f"rules engine: compiled build up to date ({target / 'lib'})"
    start = time.monotonic()
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="rules-mypyc-", dir=target) as tmp:
        tree = Path(tmp) / "src"
        package = tree / "battles" / "rules"
        shutil.copytree(_accelerator.SOURCES, package, ignore=shutil.ignore_patterns("__pycache__"))
        (tree / "battles" / "__init__.py").write_text("")
        hashes = _accelerator.source_hashes(package)  # of the very files compiled
        files = compiled_modules(package)
        lib = Path(tmp) / "lib"
        _compile(tree, files, lib)
        modules = [f.removesuffix(".py").replace("/", ".") for f in files]
        modules.append("admiralty_rules__mypyc")
        manifest = {
            "ext_suffix": _accelerator.EXT_SUFFIX,
            "sources": hashes,
            "modules": sorted(modules),
        }
        (lib / _accelerator.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
        # Swap whole directories: a running process keeps the files it has mapped.
        old = Path(tmp) / "old"
        if (target / "lib").exists():
            (target / "lib").rename(old)
        lib.rename(target / "lib")
    seconds = time.monotonic() - start
    return (
        f"rules engine: compiled {len(files)} modules with mypyc in {seconds:.0f} s "
        f"({target / 'lib'})"
    )


def main(argv: list[str]) -> int:
    """``[--force | --check]``: see the module doc."""
    if "--check" in argv:
        modules, why = _accelerator.check()
        print("rules engine: compiled build up to date" if modules else f"rules engine: {why}")
        return 0 if modules else 1
    lacking = missing_tools()
    if lacking:
        print(f"rules engine: not compiled, {lacking}; the plain Python engine will run")
        return 0
    try:
        print(build(force="--force" in argv))
    except (RuntimeError, OSError) as error:
        print(f"rules engine: not compiled, the plain Python engine will run. {error}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
