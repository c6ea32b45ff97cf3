"""The table in five languages: complete catalogs, every gallery screen fits in each, every
character has a glyph, records and `replay --json` are the same whatever the language, and the
language is chosen by --lang, the menu (kept across a restart), the config and the locale."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from companion import i18n
from companion.kiosk import daemon, loop
from companion.table.render import font
from companion.table.screen import overflows

from tests.support import full_game_script

ROOT = Path(__file__).resolve().parents[2]
LANGS = i18n.LANGUAGES


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


I18N_TOOL = _tool("i18n")
GALLERY = _tool("gallery")


def run(argv: list[str]) -> loop.Daemon:
    d = daemon.build(daemon.parse_args(argv))
    assert d.run() == 0
    return d


@pytest.mark.parametrize("code", I18N_TOOL.TRANSLATED)
def test_every_catalog_is_complete_with_a_glossary(code):
    assert I18N_TOOL.problems(code) == []


def test_the_template_holds_every_text_of_the_code(tmp_path, monkeypatch):
    """A text marked in the code but missing from the catalogs would show in English."""
    monkeypatch.setattr(I18N_TOOL, "TEMPLATE", tmp_path / "fresh.pot")
    fresh = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in I18N_TOOL.extract() if m.id}
    committed = {(m.id if isinstance(m.id, str) else m.id[0], m.context)
                 for m in I18N_TOOL.read(ROOT / "companion" / "locale" / "companion.pot") if m.id}
    assert fresh - committed == set(), "run tools/i18n.py extract and update, then translate"


@pytest.mark.parametrize("code", LANGS)
def test_every_gallery_screen_fits_in_every_language(code):
    seen: list = []
    GALLERY.play_all(7, code, seen)
    assert len({s.name for s in seen}) > 40
    clipped = {f"{s.name}: {problem}" for s in seen for problem in overflows(s)}
    assert not clipped, "\n".join(sorted(clipped))


@pytest.mark.parametrize("code", I18N_TOOL.TRANSLATED)
def test_every_character_of_every_catalog_has_a_glyph(code):
    catalog = I18N_TOOL.read(I18N_TOOL.po_path(code), code)
    chars = {ch for m in catalog if m.id for form in I18N_TOOL._forms(m.string) for ch in form}
    for name in ("5x8", "9x15B"):
        f = font(name)
        missing = sorted(ch for ch in chars if ch != " " and (ord(ch) > 255 or f.getmask(ch).getbbox() is None))
        assert not missing, f"{code}: no glyph in {name} for {missing}"


def test_a_translation_reaches_the_screen():
    i18n.set_language("de")
    assert i18n._("Menu") != "Menu"
    i18n.set_language("en")
    assert i18n._("Menu") == "Menu"


def test_the_same_keys_give_byte_identical_records_and_replay_json(tmp_path):
    script, _, _ = full_game_script(3, 4)
    keys = tmp_path / "game.keys"
    keys.write_text(script)
    mammut_keys = tmp_path / "mammut.keys"
    mammut_keys.write_text(GALLERY.mammut_script(3))
    records, mammut, replays, screens = {}, {}, {}, {}
    for code in LANGS:
        out, mout = tmp_path / f"{code}.json", tmp_path / f"{code}.mammut.json"
        d = run(["--display", "dummy", "--players", "3", "--seed", "4", "--keys", str(keys),
                 "--record-out", str(out), "--lang", code])
        screens[code] = d.shell.screen().text()
        run(["--display", "dummy", "--game", "mammut", "--seed", "3", "--keys", str(mammut_keys),
             "--record-out", str(mout), "--lang", code])
        records[code], mammut[code] = out.read_bytes(), mout.read_bytes()
        r = subprocess.run([sys.executable, "-m", "companion", "replay", str(out), "--json"],
                           capture_output=True, cwd=ROOT, env={"LANG": f"{code}_XX.UTF-8", "PATH": ""})
        assert r.returncode == 0, r.stderr
        replays[code] = r.stdout
    assert len(set(records.values())) == 1 and len(set(mammut.values())) == 1
    assert len(set(replays.values())) == 1
    assert len(set(screens.values())) == len(LANGS)  # while the final screen itself is in each language


def test_the_menu_switches_at_once_and_a_restart_keeps_it(tmp_path):
    keys = tmp_path / "k"
    state = tmp_path / "state"
    keys.write_text("D9#5#")  # menu -> Language (9th: a journal adds History) -> Deutsch
    d = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)])
    assert i18n.language() == "de"
    assert d.shell.screen().text() != ""
    keys.write_text("D")
    i18n.set_language("en")
    d = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state)])
    assert i18n.language() == "de"
    assert d.shell.screen().title == i18n._("Menu") != "Menu"
    d = run(["--display", "dummy", "--keys", str(keys), "--state-dir", str(state), "--lang", "it"])
    assert i18n.language() == "it"  # --lang wins for this run


def test_config_then_locale_then_english(tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text("language: fr\ndisplay:\n  driver: dummy\n")
    keys = tmp_path / "k"
    keys.write_text("")
    run(["--display", "dummy", "--keys", str(keys), "--config", str(cfg)])
    assert i18n.language() == "fr"
    assert i18n.choose(None, None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert i18n.choose(None, None, {"LANGUAGE": "ja:de", "LANG": "ja_JP.UTF-8"}) == "de"
    assert i18n.choose(None, None, {"LC_ALL": "C", "LANG": "it_IT.UTF-8"}) == "en"
    assert i18n.choose(None, None, {}) == "en"
    assert i18n.choose("it", "fr", {"LANG": "de_DE"}) == "it"


def test_a_bad_language_in_the_config_says_what_to_write(tmp_path):
    from companion.box.config import ConfigError, load_config_text
    with pytest.raises(ConfigError, match="language"):
        load_config_text("language: klingon\n")


@pytest.mark.parametrize("code", I18N_TOOL.TRANSLATED)
def test_the_compiled_catalog_of_the_wheel_says_what_the_po_says(tmp_path, code):
    """setup.py compiles each .po into the wheel; the standard library reads that .mo alone."""
    import gettext

    I18N_TOOL.compile_all(tmp_path)
    compiled = gettext.translation(i18n.DOMAIN, str(tmp_path), [code])
    catalog = I18N_TOOL.read(I18N_TOOL.po_path(code), code)
    checked = 0
    for m in catalog:
        if m.id and isinstance(m.id, str) and m.string and not m.context:
            assert compiled.gettext(m.id) == m.string == i18n.catalog(code).gettext(m.id)
            checked += 1
    assert checked > 100


def test_a_missing_or_damaged_catalog_leaves_the_table_in_english(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_catalogs", {})
    i18n.set_language("de")
    assert i18n._("Menu") == "Menu" and "no catalog for language de" in caplog.text
    broken = tmp_path / "fr" / "LC_MESSAGES" / "companion.mo"
    broken.parent.mkdir(parents=True)
    broken.write_bytes(b"not a catalog")
    i18n.set_language("fr")
    assert i18n._("Menu") == "Menu" and "unreadable" in caplog.text


def test_the_check_finds_a_lost_placeholder_an_empty_text_and_a_missing_glossary(tmp_path, monkeypatch):
    po = I18N_TOOL.po_path("de").read_text(encoding="utf-8")
    broken = po.replace("# Glossary", "# Wörter", 1)
    broken = broken.replace('msgid "Play {game}"\nmsgstr "', 'msgid "Play {game}"\nmsgstr "{spiel} ', 1)
    broken = broken.replace('msgid "Menu"\nmsgstr "Menü"', 'msgid "Menu"\nmsgstr ""', 1)
    assert broken.count("{spiel}") == 1
    target = tmp_path / "de" / "LC_MESSAGES" / "companion.po"
    target.parent.mkdir(parents=True)
    target.write_text(broken, encoding="utf-8")
    monkeypatch.setattr(I18N_TOOL, "LOCALE", tmp_path)
    found = I18N_TOOL.problems("de")
    assert any("Glossary" in p for p in found)
    assert any("'Play {game}'" in p and "placeholders" in p for p in found)
    assert any("'Menu'" in p and "not translated" in p for p in found)
