"""The engine is pure Python: it imports without Django installed or configured."""

import os
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "battles" / "rules"
WEB_FRAMEWORK = "dj" + "ango"  # spelled apart so this file is not a false positive anywhere

PROBE = f"""
import importlib, pkgutil, sys
sys.modules[{WEB_FRAMEWORK!r}] = None  # any import of it now raises ImportError
import battles.rules
names = [m.name for m in pkgutil.walk_packages(battles.rules.__path__, 'battles.rules.')]
for name in names:
    importlib.import_module(name)
leaked = sorted(m for m in sys.modules if m.startswith({WEB_FRAMEWORK!r} + "."))
assert not leaked, leaked
print(len(names))
"""


def test_rules_import_without_the_web_framework():
    env = {k: v for k, v in os.environ.items() if not k.startswith(WEB_FRAMEWORK.upper())}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=RULES.parents[1],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) >= 7  # dice, tables, weapons, odds, ships, damage, ...


def test_no_rules_file_names_the_web_framework():
    offenders = [
        str(path.relative_to(RULES))
        for path in RULES.rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".pyi", ".txt", ".md", ".json", ".toml", ".cfg"}
        and WEB_FRAMEWORK in path.read_text(encoding="utf-8", errors="replace").lower()
    ]
    assert offenders == []
