"""System checks for what breaks report rendering (settings fail loudly at start-up, not in a
render).

- ``admiralty.W001``: no font that WeasyPrint can use (PDF text would be missing).
- ``admiralty.E002``: MEDIA_ROOT cannot be created or written (reports cannot be saved).
- ``admiralty.E003``: a font ``static/css/fonts.css`` declares is missing from
  ``static/fonts/`` (the PDF would fall back to whatever the machine has).
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.checks import Error, Warning, register

from campaign.core.markdown import static_file


@register("admiralty")
def check_fonts(app_configs=None, **kwargs) -> list:
    """Warn when fontconfig lists no font (WeasyPrint renders PDFs with system fonts)."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []  # fontconfig ships with Pango; without it WeasyPrint fails loudly anyway
    try:
        fonts = subprocess.run(  # noqa: S603 - fixed argument list
            [fc_list, ":", "family"], capture_output=True, text=True, timeout=20
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    if fonts.strip():
        return []
    return [
        Warning(
            "No font is installed: PDF reports would render without text.",
            hint="Install a font package, e.g. `apt-get install fonts-dejavu-core`.",
            id="admiralty.W001",
        )
    ]


@register("admiralty")
def check_shipped_fonts(app_configs=None, **kwargs) -> list:
    """Error when a font file named by ``static/css/fonts.css`` is not in static/."""

    css = static_file("css/fonts.css")
    if css is None:
        return [Error("static/css/fonts.css is missing.", id="admiralty.E003")]
    missing = [
        url
        for url in re.findall(r'url\("\.\./([^"]+)"\)', css.read_text(encoding="utf-8"))
        if static_file(url) is None
    ]
    if not missing:
        return []
    return [
        Error(
            f"Fonts declared in static/css/fonts.css are missing: {', '.join(missing)}.",
            hint="Restore static/fonts/ (DejaVu, see LICENSE-DejaVu.txt).",
            id="admiralty.E003",
        )
    ]


@register("admiralty")
def check_media_root(app_configs=None, **kwargs) -> list:
    """Error when MEDIA_ROOT (where reports are written) is not a writable folder."""
    media = Path(settings.MEDIA_ROOT)
    probe = media if media.exists() else media.parent
    if probe.is_dir() and os.access(probe, os.W_OK):
        return []
    return [
        Error(
            f"MEDIA_ROOT {media} is not writable: reports cannot be saved.",
            hint="Set MEDIA_ROOT to a writable folder.",
            id="admiralty.E002",
        )
    ]
