"""The one rule for players' names (companion.table.seatnames.check_name), and a seeded fuzz of it.

The rule: NFC, surrounding whitespace stripped, 1-24 characters, no control (Cc), format (Cf:
zero-width characters, joiners, bidirectional controls), surrogate, private-use or unassigned
code point, no line or paragraph separator. A refused name is one line saying which name, why
and what to do. Every accepted name draws on the OLED (companion.table.render), and so does
every refused one (an old journal may hold it).

The fuzz draws names from many Unicode blocks (scripts, controls, bidirectional controls,
zero-width joiner emoji sequences, combining marks, NUL, lone surrogates, private use,
unassigned planes, long strings); COMPANION_FUZZ_CASES sets how many (2,000 by default).
"""

from __future__ import annotations

import os
import random
import unicodedata

import pytest

from companion.table import screen as S
from companion.table.render import HEIGHT, WIDTH, drawable, render
from companion.table.seatnames import MAX_NAME, NameRefused, check_name, check_names, check_roster, shorten
from companion.util.safe_text import printable

CASES = int(os.environ.get("COMPANION_FUZZ_CASES", "2000"))
# (first, last) code points: scripts, symbols, and every kind of character the rule refuses
BLOCKS = [
    (0x0000, 0x001F), (0x0020, 0x007E), (0x007F, 0x009F), (0x00A0, 0x00FF), (0x0100, 0x024F), (0x0250, 0x02FF),
    (0x0300, 0x036F), (0x0370, 0x03FF), (0x0400, 0x04FF), (0x0530, 0x058F), (0x0590, 0x05FF), (0x0600, 0x06FF),
    (0x0900, 0x097F), (0x0E00, 0x0E7F), (0x10A0, 0x10FF), (0x1100, 0x11FF), (0x1680, 0x1680), (0x1AB0, 0x1AFF),
    (0x1E00, 0x1EFF), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x214F), (0x2190, 0x21FF), (0x2600, 0x27BF),
    (0x3000, 0x303F), (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xD800, 0xDFFF), (0xE000, 0xF8FF),
    (0xFB00, 0xFB4F), (0xFE00, 0xFE0F), (0xFE70, 0xFEFF), (0xFF00, 0xFFEF), (0xFFF0, 0xFFFF),
    (0x10000, 0x1007F), (0x1D400, 0x1D7FF), (0x1F1E6, 0x1F1FF), (0x1F300, 0x1FAFF), (0x20000, 0x2A6DF),
    (0x40000, 0x4FFFF), (0xE0000, 0xE007F), (0xF0000, 0xF00FF), (0x10FFF0, 0x10FFFF),
]
PIECES = ["\u200d", "\u200b", "\u202e", "\u2066", "\u200f", "\ufeff", "\x00", "\n", "\t", " ", "\u00a0", "\u3000",
          "\u0301", "\u0308\u0323", "\ufe0f", "\U0001f3fb", "👩\u200d💻", "👨\u200d👩\u200d👧", "🏳️\u200d🌈",
          "\U0001f1ee\U0001f1f9", "e\u0301", "\u1100\u1161\u11a8", "\ud83d", "\udc00", "\U000e0067\U000e0062"]
WORDS = ["Anna", "Łukasz", "שלום", "Ana😀", "Zoë", "Ñandú", "Đặng", "محمد", "Дмитрий", "李小龙", "さくら", "김민준",
         "Ἀθηνᾶ", "Ævar", "O'Brien", "<b>&amp;", '"Q"', "Jean-Luc", "ǅemal"]


def fuzz_name(rnd: random.Random) -> str:
    """A name from anywhere: code points of random blocks, known pieces, real names, in any mix and length."""
    parts = []
    for _ in range(rnd.choice((1, 1, 2, 3, 4, 6, 10, 30))):
        pick = rnd.random()
        if pick < 0.55:
            first, last = rnd.choice(BLOCKS)
            parts.append("".join(chr(rnd.randint(first, last)) for _ in range(rnd.randint(1, 4))))
        elif pick < 0.8:
            parts.append(rnd.choice(PIECES))
        else:
            parts.append(rnd.choice(WORDS))
    return "".join(parts)


def fuzz_names(seed: int, n: int) -> list[str]:
    rnd = random.Random(seed)
    return [fuzz_name(rnd) for _ in range(n)]


def forbidden(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp")


def verdict(raw: object) -> tuple[bool, str]:
    try:
        return True, check_name(raw)
    except NameRefused as exc:
        return False, str(exc)


def screens(text: str) -> list[S.Screen]:
    """Every layout with `text` in every place a text goes."""
    return [S.Screen(S.MENU, "names", text, choices=(f"1 {text}", "2 Guest", text), selected=0, hint=text),
            S.Screen(S.TEXT, "t", text, (text, shorten(text)), entry=text, page=0, pages=2),
            S.Screen(S.ENTRY, "entry", entry=text, hint=text,
                     header=S.Header(f"{shorten(text)} to move", text, text, ((text, text), ("red", "12")))),
            S.Screen(S.PICTURE, "phone", text, (text,), picture=("101", "010"))]


def draws(text: str) -> None:
    for s in screens(text):
        image = render(s)
        assert image.size == (WIDTH, HEIGHT) and image.mode == "1"


# ----- the rule, door by door's shared function ------------------------------------------------
@pytest.mark.parametrize("raw, kept", [
    ("Łukasz", "Łukasz"), ("שלום", "שלום"), ("Ana😀", "Ana😀"), ("李小龙", "李小龙"), ("<b>&amp;", "<b>&amp;"),
    ("  Anna \t", "Anna"), ("\u3000Anna\u00a0", "Anna"), ("Zoe\u0308", "Zoë"), ("Jean  Luc", "Jean  Luc"),
    ("x" * MAX_NAME, "x" * MAX_NAME), ("\U0001f1ee\U0001f1f9", "\U0001f1ee\U0001f1f9"),
    ("Ana\ud83d\ude00", "Ana😀"),  # a surrogate pair (YAML's "\ud83d\ude00") is the character it stands for
])
def test_accepted_names_are_kept_as_written_in_nfc_without_surrounding_spaces(raw, kept):
    assert check_name(raw) == kept
    assert printable(kept) == kept  # what shows a kept name (page, terminal) shows it as it is


@pytest.mark.parametrize("raw, why", [
    ("Ana\u200b", r'"Ana\u200b" holds U+200B ZERO WIDTH SPACE (character 4), an invisible formatting character'),
    ("\u202eAnna", r'"\u202eAnna" holds U+202E RIGHT-TO-LEFT OVERRIDE (character 1), a bidirectional control'),
    ("Anna\u2066", r"U+2066 LEFT-TO-RIGHT ISOLATE (character 5), a bidirectional control"),
    ("A\u200fB", r"U+200F RIGHT-TO-LEFT MARK (character 2), a bidirectional control"),
    ("An\x00na", r'"An\u0000na" holds U+0000 (character 3), a control character'),
    ("An\tna", r"U+0009 (character 3), a control character"),
    ("Ann\x85a", r"U+0085 (character 4), a control character"),
    ("\ud800Anna", r'"\ud800Anna" holds U+D800 (character 1), half of a character (a lone surrogate)'),
    ("\ude00\ud83d", r'"\ude00\ud83d" holds U+DE00 (character 1), half of a character (a lone surrogate)'),
    ("👨\u200d👩\u200d👧", r"U+200D ZERO WIDTH JOINER (character 2), an invisible formatting character"),
    ("Anna\u00ad", r"U+00AD SOFT HYPHEN (character 5), an invisible formatting character"),
    ("Anna\U000e0041", r"U+E0041 TAG LATIN CAPITAL LETTER A (character 5), an invisible formatting character"),
    ("\ue000x", r"U+E000 (character 1), a private-use character"),
    ("Anna\U0004abcd", rf"U+4ABCD (character 5), unassigned in Unicode {unicodedata.unidata_version}"),
    ("Anna\ufffe", r"U+FFFE (character 5), unassigned"),
    ("An\u2028na", r"U+2028 LINE SEPARATOR (character 3), a line break"),
    ("An\u2029na", r"U+2029 PARAGRAPH SEPARATOR (character 3), a paragraph break"),
    ("", r'"" is blank: a name needs 1-24 characters'),
    (" \t\n ", r'" \u0009\u000a " is blank: a name needs 1-24 characters'),
    ("x" * 25, r'"xxxxxxxxxxxxxxxxxxxxxxxxx" has 25 characters: a name has at most 24; shorten it'),
    ("Zoe\u0308" + "x" * 21, None),  # 25 code points written, 24 in NFC: accepted
    (42, r"a number is not a name: write each name as text in quotes"),
    (None, r"nothing (null) is not a name"),
    (["Anna"], r"a list is not a name"),
    (True, r"true is not a name"),
])
def test_a_refused_name_is_one_line_which_name_why_and_what_to_do(raw, why):
    ok, said = verdict(raw)
    if why is None:
        assert ok and len(said) == MAX_NAME
        return
    assert not ok and why in said, said
    assert "\n" not in said and not any(forbidden(c) for c in said)  # one line, safe on any terminal
    assert said.endswith(("leave it out of the name", "needs 1-24 characters", "shorten it", 'e.g. "Anna"'))


def test_a_long_refused_name_is_clipped_in_its_message():
    said = verdict("\u200b" + "x" * 900_000)[1]
    assert len(said) < 200 and '"\\u200bxxxxxxxxxxxxxxxxxxxxxxx..."' in said


def test_check_names_one_per_player_each_by_the_rule():
    assert check_names([" Łukasz", "Zoe\u0308"], 2) == ["Łukasz", "Zoë"]
    with pytest.raises(NameRefused, match=r"^names: player 2: \"B\\u202e\" holds U\+202E"):
        check_names(["A", "B\u202e"], 2)
    with pytest.raises(NameRefused, match=r"^names: must list one name per player \(3\)"):
        check_names(["A", "B"], 3)
    with pytest.raises(NameRefused, match=r"^names: must list one name per player"):
        check_names("AB", 2)


def test_the_roster_takes_each_name_by_the_rule():
    assert check_roster(["Łukasz", " שלום ", "Ana😀"]) == (["Łukasz", "שלום", "Ana😀"], None)
    assert check_roster(["Anna", "Ana\u200b"]) == ([], '"Ana\\u200b" holds U+200B ZERO WIDTH SPACE (character 4), '
                                                        'an invisible formatting character: leave it out of the name')
    assert "twice" in check_roster(["Zoë", "Zoe\u0308"])[1]  # the same name once normalised
    assert "gives itself" in check_roster(["Player 2"])[1]


def test_printable_writes_what_a_name_may_not_hold_as_codes():
    assert printable("\u202eAnna\x00\ud800😀") == "\\u202eAnna\\u0000\\ud800😀"
    assert printable("\U000e0041") == "\\U000e0041"


# ----- the fuzz -----------------------------------------------------------------------------
def test_fuzzed_names_the_rule_keeps_what_it_accepts_and_says_why_it_refuses():
    accepted = refused = 0
    for raw in fuzz_names(31, CASES):
        ok, out = verdict(raw)
        for other in (unicodedata.normalize("NFC", raw), unicodedata.normalize("NFD", raw)):
            again, kept = verdict(other)
            assert again == ok and (kept == out or not ok), (raw, other)  # stable under NFC (and NFD)
        if ok:
            accepted += 1
            assert out == unicodedata.normalize("NFC", out) == out.strip() and 1 <= len(out) <= MAX_NAME, raw
            assert not any(forbidden(c) for c in out), raw
            assert check_name(out) == out and printable(out) == out, raw  # kept as it is, shown as it is
            assert check_roster([out]) == ([out], None) or "gives itself" in check_roster([out])[1]
        else:
            refused += 1
            assert "\n" not in out and not any(forbidden(c) for c in out) and len(out) < 200, (raw, out)
    assert accepted > CASES // 10 and refused > CASES // 10  # both sides of the rule were reached


def test_every_fuzzed_text_draws_on_the_oled_accepted_or_not():
    for raw in fuzz_names(32, max(200, CASES // 4)):
        shown = drawable(raw)
        assert all(0x20 <= ord(c) <= 0x7E or 0xA0 <= ord(c) <= 0xFF for c in shown), (raw, shown)
        draws(raw)
        ok, name = verdict(raw)
        if ok:
            draws(name)
            draws(shorten(name))


def test_the_voice_says_a_kept_name_without_what_a_name_may_not_hold():
    from companion.table.seatnames import shown, spoken, using

    with using(["Łukasz", "B\x00\ud800\u202e", "\u200b", "Player 4"]):
        assert spoken(0) == "Łukasz" and shown(0) == "Łukasz"  # an accepted name: as it is
        assert spoken(1) == "B" and shown(1) == "B\x00\ud800\u202e"  # the OLED draws any text
        assert spoken(2) is None and spoken(3) is None  # nothing left to say: the seat is said
    for raw in fuzz_names(34, 300):
        ok, name = verdict(raw)
        with using([name if ok else raw]):
            said = spoken(0)
        assert said == name if ok else said is None or not any(forbidden(c) for c in said)
