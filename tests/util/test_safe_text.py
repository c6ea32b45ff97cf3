"""companion.util.safe_text: what may not show as itself in a line of text is found and written as its
code; XML, CSV and JSON stay well formed whatever a kept name holds; a name the names' rule accepts
passes through unchanged."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from companion.util import safe_text as st

NAMES = ["Anna", "Łukasz", "שלום", "李小龙", "Ana😀", "Jo-Ann O'Neil", "Bénédicte", "  spaced  "]


@pytest.mark.parametrize("ch, why", [
    ("\x00", "a control character"), ("\t", "a control character"), ("\x7f", "a control character"),
    ("\u200b", "an invisible formatting character"), ("\u00ad", "an invisible formatting character"),
    ("\u202e", "a bidirectional control, which turns the text around it"),
    ("\u2066", "a bidirectional control, which turns the text around it"),
    ("\ud800", "half of a character (a lone surrogate)"),
    ("\ue000", "a private-use character, which no font or reader knows"),
    ("\u2028", "a line break"), ("\u2029", "a paragraph break"),
])
def test_char_fault_names_what_does_not_show_as_itself(ch, why):
    assert st.char_fault(ch) == why


def test_char_fault_of_an_unassigned_code_point_names_the_unicode_version():
    assert st.char_fault("\U000e0fff").startswith("unassigned in Unicode ")


@pytest.mark.parametrize("ch", ["a", "Ł", "ש", "李", "😀", " ", "\u00a0", "-", "é"])
def test_char_fault_passes_what_shows(ch):
    assert st.char_fault(ch) is None


def test_char_code_is_a_python_escape_of_four_or_eight_digits():
    assert st.char_code("\u200b") == "\\u200b"
    assert st.char_code("\x00") == "\\u0000"
    assert st.char_code("\U000e0041") == "\\U000e0041"


def test_printable_writes_only_the_faulty_characters_as_codes():
    assert st.printable("\u202eAnna") == "\\u202eAnna"
    assert st.printable("A\x00B\u2028C") == "A\\u0000B\\u2028C"
    for name in NAMES:
        assert st.printable(name) == name and st.line_text(name) == name
    assert st.line_text("evil\x1b[2J") == "evil\\u001b[2J"  # no escape sequence reaches a terminal


def test_xml_text_replaces_what_xml_cannot_hold_and_keeps_the_rest():
    assert st.xml_text("a\x00b\x01c\td\ne\rf") == "a\ufffdb\ufffdc\td\ne\rf"
    assert st.xml_text("\ud800x\ufffe\uffff") == "\ufffdx\ufffd\ufffd"
    for name in NAMES:
        assert st.xml_text(name) == name
    text = st.xml_text("Anna\x00\x08\ud83d <&> 😀")
    root = ET.fromstring(ET.tostring(ET.Element("player", name=text)))  # well formed: it parses back
    assert root.get("name") == "Anna\ufffd\ufffd\ufffd <&> 😀"


def test_utf8_text_and_no_surrogates():
    assert st.utf8_text("a\x00b\udc80c\u202e") == "a\ufffdb\ufffdc\u202e"
    assert st.no_surrogates("a\x00b\udc80") == "a\x00b\ufffd"
    for name in NAMES:
        assert st.utf8_text(name) == name and st.no_surrogates(name) == name
    st.utf8_text("\ud800\udfff".join(NAMES)).encode("utf-8")  # never raises


def test_json_text_escapes_lone_surrogates_losslessly():
    value = {"name": "An\ud800na", "other": "Łukasz 😀", "list": ["\udfff"]}
    text = st.json_text(value, sort_keys=True)
    text.encode("utf-8")  # writable as UTF-8
    assert "Łukasz 😀" in text  # not \u-escaped: ensure_ascii is off
    assert json.loads(text) == value  # the same text back, surrogates and all
    assert st.json_text([1, "x"], separators=(",", ":")) == '[1,"x"]'


def test_surrogates_escaped_keeps_a_document_valid_and_exact():
    raw = json.dumps(["a\udc80b", "é"], ensure_ascii=False)
    out = st.surrogates_escaped(raw)
    assert out == '["a\\udc80b", "é"]'
    assert json.loads(out) == ["a\udc80b", "é"]
