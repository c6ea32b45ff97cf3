"""The table's catalogs, kept with Babel: extract the texts, update each language, check, compile.

    python tools/i18n.py extract    # companion/**.py -> companion/locale/companion.pot
    python tools/i18n.py update     # the template's new texts into every language's .po (translations kept)
    python tools/i18n.py check      # every text translated, placeholders kept, no fuzzy entry (exit 1 if not)
    python tools/i18n.py compile DIR  # .po -> DIR/<code>/LC_MESSAGES/companion.mo (setup.py does this for the wheel)

Texts are marked in the code with `_`, `N_`, `ngettext` and `pgettext` (companion/i18n.py);
a comment starting `NOTE:` right above a call reaches the translators (length limits).
Each language's glossary (the rulebooks' own words) is the comment at the top of its .po.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "companion"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "companion.pot"
DOMAIN = "companion"
TRANSLATED = ("it", "es", "fr", "de")
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)  # no churn in the files at every extraction
PLACEHOLDER = re.compile(r"(?<!\{)\{([a-z_][a-z0-9_]*)\}(?!\})")


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalog, width=100, include_lineno=False, sort_by_file=True)


def extract() -> Catalog:
    """Every marked text of the package, with its NOTE comments, as the template."""
    template = Catalog(domain=DOMAIN, project="clans-companion", creation_date=FIXED_DATE,
                       revision_date=FIXED_DATE, fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
            str(PACKAGE), comment_tags=("NOTE:",), strip_comment_tags=False):
        template.add(message, None, [(f"companion/{filename}", lineno)], auto_comments=comments, context=context)
    _write(TEMPLATE, template)
    return template


def read(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=code)


def update() -> None:
    """The template's texts into every language (new ones untranslated, gone ones dropped)."""
    template = read(TEMPLATE)
    for code in TRANSLATED:
        path = po_path(code)
        catalog = read(path, code) if path.exists() else Catalog(locale=code, domain=DOMAIN, fuzzy=False,
                                                                 project="clans-companion", creation_date=FIXED_DATE)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        catalog.obsolete.clear()
        catalog.revision_date = FIXED_DATE
        _write(path, catalog)


def _forms(value: str | tuple | list | None) -> list[str]:
    if value is None:
        return [""]
    return list(value) if isinstance(value, (tuple, list)) else [value]


def problems(code: str) -> list[str]:
    """What is wrong with one language's catalog against the template: missing, untranslated,
    fuzzy, placeholders changed, no glossary."""
    out: list[str] = []
    path = po_path(code)
    if not path.exists():
        return [f"{code}: no catalog {path.relative_to(REPO)}"]
    catalog, template = read(path, code), read(TEMPLATE)
    if "Glossary" not in (catalog.header_comment or ""):
        out.append(f"{code}: the catalog's top comment has no Glossary")
    for message in template:
        if not message.id:
            continue
        where = f"{code}: {message.id if isinstance(message.id, str) else message.id[0]!r}"
        found = catalog.get(message.id, context=message.context)
        if found is None:
            out.append(f"{where}: missing (run tools/i18n.py update)")
            continue
        if found.fuzzy:
            out.append(f"{where}: fuzzy")
        english = _forms(message.id)
        for i, form in enumerate(_forms(found.string)):
            if not form:
                out.append(f"{where}: not translated")
                break
            wanted = set(PLACEHOLDER.findall(english[min(i, len(english) - 1)]))
            got = set(PLACEHOLDER.findall(form))
            if len(english) > 1:  # a plural form may leave out the count ("un" for {n}), never add one
                kept = got <= set(PLACEHOLDER.findall(" ".join(english)))
            else:
                kept = got == wanted
            if not kept:
                out.append(f"{where}: placeholders {sorted(got)} where the English has {sorted(wanted)}")
    return out


def compile_all(out_dir: Path) -> list[Path]:
    """Every language's .po -> out_dir/<code>/LC_MESSAGES/companion.mo."""
    written = []
    for po in sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        code = po.parent.parent.name
        mo = out_dir / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, read(po, code))
        written.append(mo)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("extract")
    sub.add_parser("update")
    sub.add_parser("check")
    comp = sub.add_parser("compile")
    comp.add_argument("dir", type=Path)
    args = ap.parse_args(argv)
    if args.command == "extract":
        print(f"{len(extract())} texts -> {TEMPLATE.relative_to(REPO)}")
    elif args.command == "update":
        update()
    elif args.command == "compile":
        for mo in compile_all(args.dir):
            print(mo)
    else:
        found = [p for code in TRANSLATED for p in problems(code)]
        print("\n".join(found) or "every catalog complete")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
