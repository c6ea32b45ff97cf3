"""The settings card under seeded random cards (issue 41, item 5): every encoding a computer
writes (UTF-8 with and without BOM, Notepad's UTF-16 LE and BE, Latin-1), LF and CRLF, secrets
written up to three times, sizes up to past the limit; and a power cut at every write step of
the scrub, after which the next boot must find the settings or a scrubbed card, never garbage."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.box import card as C
from tests.box.test_card import box_at

CODECS = ("utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "latin-1")
COMMENTS = ("# Wi-Fi di casa", "# è così", "# 日本の設定", "# 🎲 Clans", "#", "   # indented", "")
LETTERS = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"


class PowerCut(BaseException):
    """Raised by the step hook: the process stops there, as the box would without power."""


def encode(text: str, codec: str) -> bytes:
    return {"utf-8-sig": b"\xef\xbb\xbf" + text.encode("utf-8"), "utf-16-le": b"\xff\xfe" + text.encode("utf-16-le"),
            "utf-16-be": b"\xfe\xff" + text.encode("utf-16-be")}.get(codec, None) or text.encode(codec)


def random_card(rnd: random.Random, big: bool | None = None) -> tuple[bytes, dict[str, list[str]]]:
    """A card's bytes and, per secret key, the values of its copies in file order."""
    codec = rnd.choice(CODECS)
    lines: list[tuple[str, str | None, str | None]] = []  # (line, secret key, its value)
    for key in ("wifi_name", "hostname", "language", "timezone", "wifi_password", "page_pin", "wifi_password",
                "page_pin", "wifi_password", None, None, None):
        if rnd.random() < 0.3:
            continue
        if key is None:
            lines.append((rnd.choice(COMMENTS), None, None))
        elif key == "wifi_password":
            value = "pw-" + "".join(rnd.choice(LETTERS + " ") for _ in range(rnd.randrange(6, 40))).strip()
            written = f'"{value}"' if rnd.random() < 0.3 else value
            name = rnd.choice(["wifi_password", "WIFI_PASSWORD", "  wifi_password"])
            lines.append((f"{name}{rnd.choice([' = ', '=', ' =  ', chr(9) + '= '])}{written}", key, value))
        elif key == "page_pin":
            value = "".join(rnd.choice("0123456789") for _ in range(rnd.randrange(4, 17)))
            lines.append((f"page_pin = {value}", key, value))
        else:
            lines.append((f"{key} = " + {"wifi_name": "Casa Rossi", "hostname": "tavolo", "language": "it",
                                         "timezone": rnd.choice(["Europe/Rome", "UTC", "localtime"])}[key], None, None))
    rnd.shuffle(lines)
    secrets = {k: [v for _, key, v in lines if key == k and v is not None] for k in C.SECRET_KEYS}
    text_lines = [line for line, _, _ in lines]
    if codec == "latin-1":
        text_lines = [line.encode("latin-1", "replace").decode("latin-1") for line in text_lines] + ["# perché"]
    end = rnd.choice(["\n", "\r\n"])
    text = end.join(text_lines) + end
    big = rnd.random() < 0.2 if big is None else big
    if big:  # past the limit, with a secret also after the cut
        text += ("# " + "è" * 60 + end) * (C.MAX_CARD_BYTES // 60 + 1) + "page_pin = 97531864" + end
    return encode(text, codec), secrets


def pieces(raw: bytes) -> tuple[C.CardText, list[str]]:
    card = C.decode(raw)
    return card, re.split(f"({C.LINE_END.pattern})", card.text)


def fresh(directory: Path, raw: bytes) -> C.Box:
    directory.mkdir()
    return box_at(directory, raw)


def boot(box: C.Box, step=lambda what: None) -> list[C.Problem]:
    return C.run(box, sethostname=lambda name: None, step=step)


@pytest.mark.parametrize("seed", range(60))
def test_random_cards_are_read_in_their_encoding_and_every_secret_copy_leaves(tmp_path, seed):
    rnd = random.Random(seed)
    raw, secrets = random_card(rnd)
    box = box_at(tmp_path, raw)
    problems = boot(box)
    after = box.card.read_bytes()
    if len(raw) > C.MAX_CARD_BYTES:
        assert len(problems) == 1 and "more than 64 KiB" in problems[0].message
        assert after == raw and not (box.state / C.PIN_FILE).exists()
        assert json.loads((box.data / "settings.json").read_text()) == {}, "nothing from a half-read card"
        return
    before_card, before = pieces(raw)
    after_card, left = pieces(after)
    assert (after_card.codec, after_card.bom) == (before_card.codec, before_card.bom)
    assert len(left) == len(before) and left[1::2] == before[1::2], "the same lines with the same ends"
    changed = [i for i in range(0, len(left), 2) if left[i] != before[i]]
    assert all(left[i].startswith("# ") and "(saved on the box" in left[i] for i in changed)
    assert all(C.key_value(before[i])[0] in C.SECRET_KEYS for i in changed), "only secret lines change"
    for key, values in secrets.items():
        if values:
            assert not [v for v in values if v in after_card.text], f"a copy of {key} is still readable"
            assert len(changed) >= 1
    assert not [p for p in problems if p.key in C.SECRET_KEYS], "secrets are always right here"
    assert sorted(p.key for p in C.check_card(C.decode(raw), box)[2] if p.key in C.SECRET_KEYS) == \
        sorted(k for k, v in secrets.items() if len(v) > 1), "a repeated secret is said once"
    if secrets["page_pin"]:
        assert (box.state / C.PIN_FILE).read_text() == secrets["page_pin"][-1] + "\n", "the last copy applies"
    saved = (box.data / "settings.json").read_text()
    assert [p.key for p in boot(box) if p.key in C.SECRET_KEYS] == [], "the next boot finds no secret left"
    assert (box.data / "settings.json").read_text() == saved


@pytest.mark.parametrize("seed", range(12))
def test_a_power_cut_at_any_write_of_the_scrub_leaves_the_settings_or_a_scrubbed_card(tmp_path, seed):
    rnd = random.Random(1000 + seed)
    raw, secrets = random_card(rnd, big=False)
    while not any(secrets.values()):
        raw, secrets = random_card(rnd, big=False)
    whole = fresh(tmp_path / "whole", raw)
    steps: list[str] = []
    boot(whole, steps.append)
    final = whole.card.read_bytes()
    outcome = [(whole.data / name).read_bytes() for name in ("settings.json", "wpa_supplicant-wlan0.conf")]
    pin = (whole.state / C.PIN_FILE).read_bytes() if (whole.state / C.PIN_FILE).exists() else None
    assert len(steps) >= 6
    for cut in range(1, len(steps) + 1):
        box = fresh(tmp_path / f"cut{cut}", raw)
        taken: list[str] = []

        def step(what: str) -> None:
            taken.append(what)
            if len(taken) == cut:
                raise PowerCut(what)

        with pytest.raises(PowerCut):
            boot(box, step)
        card = C.decode(box.card.read_bytes())  # never garbage: it decodes as it was written
        entries, _ = C.parse(card.text)
        for key, values in secrets.items():
            assert key not in entries or entries[key].value == values[-1], \
                f"cut after {taken}: {key} is the card's own last value or gone"
        boot(box)  # the next boot, with power
        assert box.card.read_bytes() == final, f"cut after {taken}: the next boot scrubs the card the same"
        assert [(box.data / name).read_bytes() for name in ("settings.json", "wpa_supplicant-wlan0.conf")] == outcome
        assert ((box.state / C.PIN_FILE).read_bytes() if (box.state / C.PIN_FILE).exists() else None) == pin
        assert not Path(str(box.card) + ".new").exists() or cut < len(steps)
