"""The PDF pool's processes are spawned: they unpickle ``battles.reports.pdf_worker``'s
functions before its initializer sets Django up, so that module may import no model at
any depth (``make demo`` lost every pooled PDF when it did)."""

import os
import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import sys
import battles.reports.pdf_worker
project = ("battles.", "campaign.", "factions.")
loaded = sorted(m for m in sys.modules if m.startswith(project) and ".models" in m)
print(",".join(loaded) or "none")
"""


def test_the_pdf_worker_module_imports_without_django_set_up():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "none"
