"""What this box runs: the companion's version and, on the SD-card image, the image's own.

The image's build (tools/image/build.sh) writes IMAGE_VERSION_FILE, `KEY=value` lines:
IMAGE_VERSION (the package's version and the commit it was built from), IMAGE_DATE (the
day it was built, UTC) and IMAGE_DEBIAN (the Debian release under it). The menu's About
item and the page's footer show them, so a family can say which bytes their box runs;
the manifest beside the image (build/image/clans-companion.manifest.txt) lists the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion import __version__

IMAGE_VERSION_FILE = "/usr/share/companion-box/image-version"
_VALUE = re.compile(r"[0-9A-Za-z.+~:-]{1,64}")  # what build.sh writes; anything else is not shown


@dataclass(frozen=True)
class About:
    package: str  # the companion's own version (pyproject.toml)
    image: str | None = None  # the image's version, None when not running from the image
    built: str | None = None  # the image's build day, YYYY-MM-DD
    debian: str | None = None  # the Debian release under it: trixie, bookworm


def read_about(path: str | Path | None = None) -> About:
    """The versions (from IMAGE_VERSION_FILE unless `path`); a missing or unreadable file is no
    image (a pip or install.sh install)."""
    try:
        text = Path(path or IMAGE_VERSION_FILE).read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return About(__version__)
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and _VALUE.fullmatch(value.strip()):
            values[key.strip()] = value.strip()
    return About(__version__, values.get("IMAGE_VERSION"), values.get("IMAGE_DATE"), values.get("IMAGE_DEBIAN"))


def about_paragraphs(about: About) -> list[str]:
    """The About screen's paragraphs, in the table's language."""
    from companion.i18n import _

    # NOTE: body text, wraps at 21 characters; {version} is a version number such as 0.1.0
    lines = [_("Clans companion {version}").format(version=about.package)]
    if about.image is None:
        # NOTE: body text, wraps at 21 characters
        lines.append(_("Installed with pip or install.sh, not from the SD-card image."))
        return lines
    # NOTE: body text, wraps at 21 characters; {version} such as 0.1.0-1a2b3c4d5e6f, {date} YYYY-MM-DD
    lines.append(_("Image {version} of {date}").format(version=about.image, date=about.built or "?"))
    if about.debian:
        # NOTE: body text, wraps at 21 characters; {release} is a Debian release's name (trixie)
        lines.append(_("Debian {release}").format(release=about.debian))
    return lines


def version_line(about: About) -> str:
    """What `companion --version` prints: the package's version, and the image's when it runs from one."""
    text = f"companion {about.package}"
    if about.image is not None:
        text += f", SD-card image {about.image} of {about.built or '?'}"
        text += f" (Debian {about.debian})" if about.debian else ""
    return text


def version(argv: list[str]) -> int:
    """`companion --version` (or `-V`): one line on stdout, exit 0; anything after it is bad input."""
    if argv:
        import sys

        from companion.argtypes import shown

        print(f"companion --version: takes nothing after it, not {shown(argv[0])}", file=sys.stderr)
        return 2
    print(version_line(read_about()))
    return 0


def about_line(about: About) -> str:
    """One line for the page's footer."""
    text = f"Clans companion {about.package}"
    if about.image is not None:
        text += f" · image {about.image} ({about.built or '?'}"
        text += f", Debian {about.debian})" if about.debian else ")"
    return text
