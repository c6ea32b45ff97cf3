"""The settings card (companion.box.card): read, checked, applied, its secrets scrubbed; a bad
card never stops the boot. All on temporary directories standing for the card and the box."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from companion.box import card as C


def box_at(tmp: Path, text: str | bytes | None = None) -> C.Box:
    (tmp / "fat").mkdir(exist_ok=True)
    zoneinfo = tmp / "zoneinfo"
    (zoneinfo / "Europe").mkdir(parents=True, exist_ok=True)
    (zoneinfo / "Europe" / "Rome").write_bytes(b"TZif")
    (zoneinfo / "UTC").write_bytes(b"TZif")
    (zoneinfo / "iso3166.tab").write_text("#code\tname\nIT\tItaly\nDE\tGermany\n")
    config = tmp / "etc" / "config.yaml"
    config.parent.mkdir(exist_ok=True)
    if not config.exists():
        config.write_text("web:\n  enabled: true\n")
    box = C.Box(card=tmp / "fat" / "companion.txt", data=tmp / "data" / "box", state=tmp / "state",
                config=config, zoneinfo=zoneinfo, problems=tmp / "run" / "problems.json", console=None,
                service_user="no-such-user-here")
    if text is not None:
        box.card.write_bytes(text.encode() if isinstance(text, str) else text)
    return box


def run(box: C.Box) -> tuple[list[C.Problem], list[str]]:
    names: list[str] = []
    return C.run(box, sethostname=names.append), names


def test_a_full_card_applies_and_its_secrets_leave_the_card(tmp_path):
    box = box_at(tmp_path, "\ufeff# mine\r\nwifi_country = it\r\nwifi_name = Casa Rossi\r\n"
                           "wifi_password = una passphrase segreta\r\nhostname = Tavolo\r\nlanguage = IT\r\n"
                           "page_pin = 2468013579\r\ntimezone = Europe/Rome\r\n")
    problems, names = run(box)
    assert problems == [] and names == ["tavolo"]
    wpa = (box.data / "wpa_supplicant-wlan0.conf").read_text()
    psk = hashlib.pbkdf2_hmac("sha1", b"una passphrase segreta", b"Casa Rossi", 4096, 32).hex()
    assert "country=IT" in wpa and f"psk={psk}" in wpa and "ssid=" + "Casa Rossi".encode().hex() in wpa
    assert (box.data / "wpa_supplicant-wlan0.conf").stat().st_mode & 0o077 == 0
    assert (box.state / C.PIN_FILE).read_text() == "2468013579\n"
    assert "language: it" in box.config.read_text() and "enabled: true" in box.config.read_text()
    assert (box.data / "localtime").readlink() == box.zoneinfo / "Europe/Rome"
    left = box.card.read_text()
    assert "segreta" not in left and "2468013579" not in left
    assert "# wifi_password = (saved on the box" in left and "# page_pin = (saved on the box" in left
    assert "wifi_name = Casa Rossi" in left, "only the secrets are commented out"
    assert json.loads(box.problems.read_text()) == []


def test_a_wrong_value_is_left_out_with_one_problem_and_the_rest_applies(tmp_path):
    box = box_at(tmp_path, "hostname = tavolo\nlanguage = xx\ntimezone = Mars/Olympus\nssh_key = not-a-key\n"
                           "colour = blue\nno equals sign here\n")
    problems, names = run(box)
    assert names == ["tavolo"]
    assert [(p.line, p.key) for p in problems] == [(5, "colour"), (6, "no equals sign here"), (2, "language"),
                                                  (3, "timezone"), (4, "ssh_key")]
    assert "is not one of en, it, es, fr, de; left as it was" in problems[2].text()
    assert (box.data / "localtime").readlink() == box.zoneinfo / "UTC"
    assert "language" not in box.config.read_text()
    assert not (box.data / "ssh" / "authorized_keys").exists()
    assert len(json.loads(box.problems.read_text())) == 5
    assert [p.key for p in C.read_problems(str(box.problems))] == ["colour", "no equals sign here", "language",
                                                                   "timezone", "ssh_key"]


def test_absent_keeps_empty_clears_and_a_new_network_never_gets_the_old_passphrase(tmp_path):
    box = box_at(tmp_path, "wifi_name = Casa\nwifi_password = passphrase-one\npage_pin = 123456\n")
    run(box)
    first = (box.data / "wpa_supplicant-wlan0.conf").read_text()
    box.card.write_text(box.card.read_text())  # the scrubbed card, as the next boot reads it
    run(box)
    assert (box.data / "wpa_supplicant-wlan0.conf").read_text() == first, "the saved passphrase stays"
    assert (box.state / C.PIN_FILE).read_text() == "123456\n", "a commented-out PIN keeps the saved one"
    box.card.write_text("wifi_name = Ufficio\npage_pin =\n")
    run(box)
    wpa = (box.data / "wpa_supplicant-wlan0.conf").read_text()
    assert "key_mgmt=NONE" in wpa and "psk=" not in wpa and "Ufficio".encode().hex() in wpa
    assert not (box.state / C.PIN_FILE).exists(), "an empty PIN leaves the page read-only"


def test_an_ssh_key_turns_ssh_on_and_an_empty_one_off(tmp_path):
    key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBxQsgTH7e3TgNCdPYF1r2s2m8nKX9m9xN1Ww6ZhK2Rn me@laptop"
    box = box_at(tmp_path, f"ssh_key = {key}\n")
    problems, _ = run(box)
    assert problems == [] and (box.data / "ssh" / "authorized_keys").read_text() == key + "\n"
    box.card.write_text("ssh_key =\n")
    run(box)
    assert not (box.data / "ssh" / "authorized_keys").exists()
    box.card.write_text("ssh_key = ssh-ed25519 AAAAB3NzaC1yc2EAAAADAQABAAABAQ== swapped\n")
    problems, _ = run(box)
    assert [p.key for p in problems] == ["ssh_key"] and "does not match its type" in problems[0].message


def test_scrubbing_overwrites_the_secret_in_place_before_rewriting(tmp_path, monkeypatch):
    box = box_at(tmp_path, "wifi_name = x\nwifi_password = hunter2hunter2\n")
    writes: list[bytes] = []
    real_open = open

    def spy(path, mode="r", *a, **k):
        f = real_open(path, mode, *a, **k)
        if str(path) == str(box.card) and "+" in mode:
            orig = f.write
            f.write = lambda data: (writes.append(bytes(data)), orig(data))[1]
        return f

    monkeypatch.setattr("builtins.open", spy)
    run(box)
    assert writes[0] == b"wifi_name = x\nwifi_password = **************\n", "same bytes, secret starred, first"
    assert b"hunter2" not in b"".join(writes)


@pytest.mark.parametrize("seed", range(40))
def test_any_card_at_all_never_stops_the_boot(tmp_path, seed):
    rnd = random.Random(seed)
    pieces = [b"wifi_name", b"wifi_password", b"hostname", b"language", b"page_pin", b"timezone", b"ssh_key",
              b"wifi_country", b"=", b" ", b"\n", b"\r\n", b"#", b'"', b"\x00", b"\xff\xfe", "è日本".encode(),
              b"../../etc/passwd", b"9" * 40, b"it", b"Europe/Rome"]
    raw = b"".join(rnd.choice(pieces) if rnd.random() < 0.8 else bytes([rnd.randrange(256)])
                   for _ in range(rnd.randrange(0, 300)))
    box = box_at(tmp_path, raw)
    problems, names = run(box)
    assert len(names) == 1 and C.HOSTNAME_RE.match(names[0])
    assert json.loads(box.problems.read_text()) == [vars(p) for p in problems]
    zone = (box.data / "localtime").readlink()
    assert zone.is_file() and box.zoneinfo in zone.parents, "the time zone never points outside zoneinfo"


def test_no_card_and_an_unreadable_card_still_apply_the_saved_settings(tmp_path):
    box = box_at(tmp_path)
    problems, names = run(box)
    assert problems == [] and names == ["clans"]
    box.card.mkdir()  # a directory where the file should be: cannot be read
    problems, names = run(box)
    assert names == ["clans"] and problems[0].key == "companion.txt" and "cannot be read" in problems[0].message


def test_the_kiosk_shows_the_first_problem_on_its_first_screen(tmp_path):
    from companion.kiosk import daemon

    class Shell:
        class notice:
            shown = False

        told: list = []

        def tell(self, title, paragraphs, name):
            self.told.append((title, paragraphs, name))

    path = tmp_path / "problems.json"
    path.write_text(json.dumps([{"line": 9, "key": "ssh_key", "message": "bad"},
                                {"line": 2, "key": "language", "message": "bad"}]))
    shell = Shell()
    daemon.tell_card_problems(shell, str(path))
    assert shell.told == [("Settings card", ["companion.txt line 9: ssh_key is wrong and was left out.",
                                             "Wrong lines in all: 2. The serial console lists them."], "card")]
    shell.told.clear()
    path.write_text("[]")
    daemon.tell_card_problems(shell, str(path))
    assert shell.told == []


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root: run the tests as root")
def test_the_pin_belongs_to_the_service_user_from_its_creation_on(tmp_path):
    import pwd

    user = pwd.getpwuid(65534)  # nobody: a user that is not root on every Debian
    box = dataclasses.replace(box_at(tmp_path, "page_pin = 13579246\n"), service_user=user.pw_name)
    problems, _ = run(box)
    pin = (box.state / C.PIN_FILE).stat()
    assert problems == [] and (pin.st_uid, pin.st_gid) == (user.pw_uid, user.pw_gid) and pin.st_mode & 0o077 == 0
    assert not [p for p in box.state.iterdir() if p.name != C.PIN_FILE], "no temporary file left behind"
