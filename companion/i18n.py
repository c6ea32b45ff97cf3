"""The table's language: gettext catalogs under `companion/locale`, switched at run time.

Every text the table sees goes through `_` (or `ngettext` for a count, `pgettext` where
one English word needs a context, e.g. a short color), looked up in the current
language's catalog *when called*, so the menu's language item takes effect at once.
Module-level constants are marked with `N_` (extraction only) and translated where
they are shown. Records, journals, logs and `replay` never go through here: they are
the same in every language.

Catalogs: `locale/<code>/LC_MESSAGES/companion.po`, compiled to `.mo` when the wheel
is built (setup.py); in a checkout with no `.mo` the `.po` is compiled in memory with
Babel (a build and test dependency), so the source tree needs no build step.
"""

from __future__ import annotations

import gettext as _gettext
import io
import logging
import os
from typing import Mapping

log = logging.getLogger(__name__)

DOMAIN = "companion"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")  # no pathlib: start-up
LANGUAGES = ("en", "it", "es", "fr", "de")  # the order of the menu's language list
DEFAULT = "en"
# each language named in itself: the menu item a player looks for in their own language
NATIVE_NAMES = {"en": "English", "it": "Italiano", "es": "Español", "fr": "Français", "de": "Deutsch"}

_catalogs: dict[str, _gettext.NullTranslations] = {}
_current: _gettext.NullTranslations = _gettext.NullTranslations()
_code = DEFAULT


def _compile_po(po: str) -> _gettext.NullTranslations:
    """A `.po` catalog compiled in memory (a checkout without built `.mo` files)."""
    from babel.messages.mofile import write_mo  # lazy: only a source checkout needs Babel
    from babel.messages.pofile import read_po

    with open(po, "rb") as f:
        catalog = read_po(f, locale=os.path.basename(os.path.dirname(os.path.dirname(po))))
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


def catalog(code: str) -> _gettext.NullTranslations:
    """The translations of one language (English: the texts as written). Cached."""
    if code in _catalogs:
        return _catalogs[code]
    found: _gettext.NullTranslations = _gettext.NullTranslations()
    if code != DEFAULT:
        base = os.path.join(LOCALE_DIR, code, "LC_MESSAGES", DOMAIN)
        mo, po = base + ".mo", base + ".po"
        try:
            if os.path.exists(mo):  # an installed wheel: .mo only (a checkout has .po only)
                with open(mo, "rb") as f:
                    found = _gettext.GNUTranslations(f)
            elif os.path.exists(po):
                found = _compile_po(po)
            else:
                log.warning("no catalog for language %s: the table speaks English", code)
        except (OSError, ImportError, ValueError) as exc:  # a damaged catalog never stops the table
            log.warning("catalog for language %s unreadable (%s): the table speaks English", code, exc)
    _catalogs[code] = found
    return found


def set_language(code: str) -> None:
    """Switch every later `_` to `code` (one of LANGUAGES)."""
    global _current, _code
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: use one of {', '.join(LANGUAGES)}")
    _current, _code = catalog(code), code


def language() -> str:
    """The language the table speaks now."""
    return _code


def _(message: str) -> str:
    """`message` in the table's language."""
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for the count `n` (every language's own plural rule)."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` translated in a context (one English word, two meanings or lengths)."""
    return _current.pgettext(context, message)


def N_(message: str) -> str:
    """Marks a constant for the catalogs; translate it with `_` where it is shown."""
    return message


def system_language(environ: Mapping[str, str] = os.environ) -> str | None:
    """The system locale's language if the table speaks it (LC_ALL, LC_MESSAGES, LANG, as gettext reads them)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if not value:
            continue
        for part in value.split(":"):  # LANGUAGE may list several: the first the table speaks
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":
            return None  # a set locale the table does not speak (C, POSIX, ja_JP): English
    return None


def choose(explicit: str | None = None, configured: str | None = None,
           environ: Mapping[str, str] = os.environ) -> str:
    """The language to start in: `--lang`, else the config's, else the system locale's, else English."""
    for code in (explicit, configured):
        if code:
            return code
    return system_language(environ) or DEFAULT
