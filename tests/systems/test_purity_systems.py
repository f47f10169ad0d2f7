"""The other systems' packages are pure Python like the engine: they import without Django."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB_FRAMEWORK = "dj" + "ango"
PACKAGES = ("sf_tokens", "sf_boarding", "swsb", "epic")

PROBE = f"""
import importlib, pkgutil, sys
sys.modules[{WEB_FRAMEWORK!r}] = None
import battles.systems.games
for package in {PACKAGES!r}:
    module = importlib.import_module("battles." + package)
    for info in pkgutil.iter_modules(module.__path__):
        importlib.import_module(f"battles.{{package}}.{{info.name}}")
leaked = sorted(m for m in sys.modules if m.startswith({WEB_FRAMEWORK!r} + "."))
assert not leaked, leaked
print("ok")
"""


def test_other_system_packages_import_without_the_web_framework():
    env = {k: v for k, v in os.environ.items() if not k.startswith(WEB_FRAMEWORK.upper())}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
