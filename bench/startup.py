"""``python -m bench.startup``: start-up, ``render_report`` and a first build's PDFs, each
beside an anchor doing the same work, measured side by side in one run.

Printed, not asserted. Whole commands are timed, start-up included, like with like. The
product and its anchor run alternately (product, anchor, product, …: a shared machine's
load falls on both), ``--runs`` times each after one warm-up run each (Python's bytecode
written, files in the page cache; ``PYTHONDONTWRITEBYTECODE`` is dropped, as an install
writes it); each figure is the median wall time and the median CPU time (user + system of
the process and the processes it waited for, ``os.wait4``), CPU being what a loaded
machine moves least. Hyperfine runs each command's series apart, so it is not used. All in
a temporary SQLite database and media folder (the sample campaign, a generated league):

1. ``manage.py help`` against ``manage.py help`` of a fresh ``django-admin startproject``
   (Django with its default apps and no code of its own) — the goal, ≤ 2× — and against
   ``django-admin help`` with the same environment (the project is not on django-admin's
   path: Django alone, its core commands). The goal is judged on the first anchor:
   ``django-admin help`` without settings sets up no app at all (no settings, no app
   registry, no admin), so no project can be within 2× of it — a fresh startproject's own
   ``manage.py help`` is 3.0-3.3× it by CPU (0.30-0.36 s against 0.10-0.11 s, 5
   interleaved runs on the loaded machine);
2. ``render_report`` rendering the Miranda PDF (its file removed before each run, untimed)
   against the ``weasyprint`` CLI on the same page: the HTML ``render_report`` renders,
   written to a file first, its static URLs pointing at the same files, the same two
   stylesheets and fonts (``-s``). Goal ≤ 1.1×. The CLI lacks the project's SVG text
   runs (``battles.reports.pdf_svg_text``), which make the product's render cheaper;
3. ``render_report`` when the PDF is current (it says so, nothing rendered) against
   ``manage.py help`` (the start-up alone). Goal ≤ 0.3 s;
4. the PDFs of ``--pdfs`` generated battles with none on disk (a site's first build,
   ``battles.reports.queue.report_pdfs_ensure``) in one process (``workers=1``) against
   a pool on every core: wall and CPU, the speed-up, and whether the files are the same bytes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
PY = sys.executable
DJANGO_ADMIN = str(Path(PY).with_name("django-admin"))
WEASYPRINT = str(Path(PY).with_name("weasyprint"))
MIRANDA = "colonisation-compromise"


def _env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"sqlite:///{tmp / 'bench.sqlite3'}",
        MEDIA_ROOT=str(tmp / "media"),
        SITE_ROOT=str(tmp / "no-site"),
        DJANGO_SETTINGS_MODULE="campaign.settings",
    )
    env.pop("CELERY_BROKER_URL", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [PY, "manage.py", *args], cwd=BASE, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def _run(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd``; raises on a failed run."""
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(  # noqa: S603 - commands built here
            cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if status != 0:
            errors.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} failed: {errors.read().decode()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


class Series:
    """The runs of one command: medians of wall and CPU seconds."""

    def __init__(self, label: str, cmd: list[str], env: dict[str, str], cwd: Path = BASE,
                 prepare: Callable[[], None] | None = None) -> None:  # fmt: skip
        self.label, self.cmd, self.env, self.cwd, self.prepare = label, cmd, env, cwd, prepare
        self.walls: list[float] = []
        self.cpus: list[float] = []

    def once(self, record: bool = True) -> None:
        if self.prepare is not None:
            self.prepare()
        wall, cpu = _run(self.cmd, self.env, self.cwd)
        if record:
            self.walls.append(wall)
            self.cpus.append(cpu)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    def __str__(self) -> str:
        return f"{self.label} {self.wall:.2f} s ({self.cpu:.2f} s CPU)"


def alternate(runs: int, *series: Series) -> None:
    """One warm-up run of each, then ``runs`` rounds of each in turn."""
    for s in series:
        s.once(record=False)
    for _ in range(runs):
        for s in series:
            s.once()


def ratio(product: Series, anchor: Series) -> str:
    return f"{product.wall / anchor.wall:.2f}× by wall, {product.cpu / anchor.cpu:.2f}× by CPU"


def startup(env: dict[str, str], tmp: Path, runs: int) -> Series:
    """Figure 1; returns the ``manage.py help`` series (figure 3's anchor)."""
    bare = tmp / "bare"
    bare.mkdir()
    subprocess.run([DJANGO_ADMIN, "startproject", "bare", str(bare)], check=True)  # noqa: S603
    bare_env = {**env, "DJANGO_SETTINGS_MODULE": "bare.settings"}
    ours = Series("manage.py help", [PY, "manage.py", "help"], env)
    django = Series("django-admin help", [DJANGO_ADMIN, "help"], env, cwd=tmp)
    fresh = Series("startproject's manage.py help", [PY, "manage.py", "help"], bare_env, bare)
    alternate(runs, ours, django, fresh)
    # The goal is judged against the startproject (module docstring: django-admin sets up
    # no app, so not even a fresh project is within 2× of it).
    print(f"Start-up: {ours}; {fresh} (Django's default apps): {ratio(ours, fresh)} "
          f"(goal ≤ 2×); {django} (Django alone, no app set up): {ratio(ours, django)}; "
          f"{fresh} against {django}: {ratio(fresh, django)}", flush=True)  # fmt: skip
    return ours


def render_report(env: dict[str, str], tmp: Path, runs: int, help_series: Series) -> None:
    code = f"""
from django.conf import settings
from django.utils import translation
from battles.models import Battle
from battles.reports.context import pdf_page_html
b = Battle.objects.select_related("campaign").get(slug="{MIRANDA}")
with translation.override(b.campaign.language or settings.LANGUAGE_CODE):
    page = pdf_page_html(b)
static = (settings.BASE_DIR / "static").resolve().as_uri() + "/"
open("{tmp / "page.html"}", "w").write(page.replace("admiralty-static:", static))
print(b.pk)
"""
    battle = _manage(env, "shell", "-c", code).split()[-1]
    media_pdf = tmp / "media" / "reports" / "sample" / f"{MIRANDA}.pdf"
    css = BASE / "static" / "css"
    out = ["--out", str(tmp / "rr.pdf")]
    rendering = Series(
        "render_report",
        [PY, "manage.py", "render_report", battle, *out],
        env,
        prepare=lambda: media_pdf.unlink(missing_ok=True),
    )
    sheets = ["-s", str(css / "fonts.css"), "-s", str(css / "report.css")]
    cli = Series(
        "weasyprint CLI", [WEASYPRINT, *sheets, str(tmp / "page.html"), str(tmp / "cli.pdf")], env
    )
    alternate(runs, rendering, cli)
    print(f"render_report, the Miranda PDF rendered: {rendering}; {cli} on the same page: "
          f"{ratio(rendering, cli)} (goal ≤ 1.1×); {(tmp / 'rr.pdf').stat().st_size // 1024} "
          f"against {(tmp / 'cli.pdf').stat().st_size // 1024} KiB", flush=True)  # fmt: skip
    current = Series("render_report", [PY, "manage.py", "render_report", battle], env)
    said = _manage(env, "render_report", battle).strip()
    alternate(runs, current, help_series)
    print(
        f"render_report, the PDF current: {current} (goal ≤ 0.3 s), saying {said!r}; "
        f"{help_series} (start-up alone): {ratio(current, help_series)}",
        flush=True,
    )


POOL_CODE = """
import hashlib, resource, shutil, time
from django.conf import settings
from battles.models import Battle
from battles.reports.queue import report_pdfs_ensure
battles = list(Battle.objects.filter(campaign__slug="generated-0").select_related("campaign")
               .order_by("pk")[:{n}])
shutil.rmtree(settings.MEDIA_ROOT, ignore_errors=True)
def cpu():
    return sum(resource.getrusage(w).ru_utime + resource.getrusage(w).ru_stime
               for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
wall, used = time.perf_counter(), cpu()
found = report_pdfs_ensure(battles=battles, workers={workers})
wall, used = time.perf_counter() - wall, cpu() - used
digest = hashlib.sha256(b"".join(found[b.pk].read_bytes() for b in battles if b.pk in found))
print(len(found), wall, used, digest.hexdigest())
"""


def pdfs(env: dict[str, str], n: int, runs: int) -> None:
    """``n`` PDFs in one process against a pool on every core: timed inside the process
    (``report_pdfs_ensure`` alone, the pool's start included), alternately ``runs`` times."""
    _manage(env, "generate_league", "--ships", "60", "--battles", str(n))
    cores = os.cpu_count() or 1
    results: dict[int, list[tuple[int, float, float, str]]] = {1: [], cores: []}
    for _ in range(runs):
        for workers in results:
            out = _manage(env, "shell", "-c", POOL_CODE.format(n=n, workers=workers))
            count, wall, cpu, digest = out.split()[-4:]
            results[workers].append((int(count), float(wall), float(cpu), digest))
    (serial, pool) = (results[1], results[cores])
    if serial[0][0] != n:
        raise RuntimeError(f"{serial[0][0]} PDFs of the {n} generated battles")
    med = statistics.median
    s_wall, p_wall = med(r[1] for r in serial), med(r[1] for r in pool)
    s_cpu, p_cpu = med(r[2] for r in serial), med(r[2] for r in pool)
    same = len({r[3] for r in serial + pool}) == 1
    print(f"{serial[0][0]} PDFs with none on disk: one process {s_wall:.1f} s ({s_cpu:.1f} s "
          f"CPU); a pool of {cores} {p_wall:.1f} s ({p_cpu:.1f} s CPU): {s_wall / p_wall:.2f}× "
          f"as fast by wall; {'the same bytes' if same else 'NOT the same bytes'} "
          f"(median of {runs})", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each command")
    parser.add_argument("--pdfs", type=int, default=12, help="PDFs of the pool figure (0: none)")
    parser.add_argument("--pdf-runs", type=int, default=2, help="timed runs of the pool figure")
    parser.add_argument("--only", choices=("startup", "pdfs"), help="figures 1-3, or 4 alone")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        env = _env(tmp)
        _manage(env, "migrate", "-v0")
        _manage(env, "load_sample")
        if args.only in (None, "startup"):
            help_series = startup(env, tmp, args.runs)
            render_report(env, tmp, args.runs, help_series)
        if args.pdfs and args.only in (None, "pdfs"):
            pdfs(env, args.pdfs, args.pdf_runs)


if __name__ == "__main__":
    main()
