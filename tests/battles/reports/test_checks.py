import os

from django.core.checks import run_checks

from battles.reports import checks


def test_writable_media_root_passes(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    assert checks.check_media_root() == []


def test_unwritable_media_root_is_an_error(settings, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    settings.MEDIA_ROOT = locked / "media"
    try:
        errors = checks.check_media_root()
    finally:
        locked.chmod(0o700)

    if os.geteuid() == 0:  # root writes anywhere: the check rightly finds it writable
        assert errors == []
    else:
        assert [e.id for e in errors] == ["admiralty.E002"]


def test_media_root_that_is_a_file_is_an_error(settings, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    settings.MEDIA_ROOT = afile / "media"
    assert [e.id for e in checks.check_media_root()] == ["admiralty.E002"]


def test_missing_fonts_warn(monkeypatch):
    class Done:
        stdout = ""

    monkeypatch.setattr(checks.shutil, "which", lambda name: "/usr/bin/fc-list")
    monkeypatch.setattr(checks.subprocess, "run", lambda *a, **k: Done())
    assert [w.id for w in checks.check_fonts()] == ["admiralty.W001"]


def test_checks_are_registered_and_clean_here():
    ids = {m.id for m in run_checks(tags=["admiralty"])}
    assert "admiralty.E002" not in ids


def test_shipped_fonts_are_all_there_and_a_missing_one_is_an_error(settings, tmp_path):
    import shutil

    assert checks.check_shipped_fonts() == []
    static = tmp_path / "static"
    shutil.copytree(settings.STATICFILES_DIRS[0], static)
    (static / "fonts" / "DejaVuSerif.ttf").unlink()
    settings.STATICFILES_DIRS = [static]
    errors = checks.check_shipped_fonts()
    assert [e.id for e in errors] == ["admiralty.E003"]
    assert "fonts/DejaVuSerif.ttf" in errors[0].msg
