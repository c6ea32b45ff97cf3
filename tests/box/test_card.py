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


def test_the_camera_keys_write_the_configs_camera_section(tmp_path):
    from companion.box.config import load_config_text

    box = box_at(tmp_path, "camera = On\n")
    box.config.write_text("web:\n  enabled: true\ncamera:\n  source: folder\n  device: /tmp/x\n\nlanguage: it\n")
    problems, _ = run(box)
    cfg = load_config_text(box.config.read_text())
    assert problems == [] and (cfg.camera.source, cfg.camera.device) == ("v4l2", "auto"), "a USB webcam, found by udev"
    assert cfg.language == "it" and cfg.web.enabled and box.config.read_text().count("camera:") == 1
    box.card.write_text("# camera = on\ncamera_device = /dev/v4l/by-id/usb-046d_C270_A1B2-video-index0\n")
    run(box)
    assert load_config_text(box.config.read_text()).camera.device == "/dev/v4l/by-id/usb-046d_C270_A1B2-video-index0"
    assert json.loads((box.data / "settings.json").read_text())["camera"] == "on", "the saved on stays"
    box.card.write_text("camera = off\n")
    run(box)
    assert load_config_text(box.config.read_text()).camera is None and box.config.read_text().count("camera:") == 1
    text = box.config.read_text()
    box.card.write_text("hostname = tavolo\n")
    run(box)
    assert box.config.read_text() == text, "a card without the camera's keys leaves the section as it is"


@pytest.mark.parametrize("line, words", [
    ("camera = yes", "'yes' is not on or off"),
    ("camera_device = /tmp/video0", "is not auto or a camera's device"),
    ("camera_device = /dev/../etc/shadow", "is not auto or a camera's device"),
    ("camera_device = /dev/video0 /dev/video1", "is not auto or a camera's device"),
])
def test_a_wrong_camera_value_is_one_problem_and_the_section_stays(tmp_path, line, words):
    box = box_at(tmp_path, line + "\n")
    problems, _ = run(box)
    assert [p.key for p in problems] == [line.split()[0]] and words in problems[0].message
    assert "camera" not in box.config.read_text()


def test_scrubbing_overwrites_the_secret_in_place_before_rewriting(tmp_path):
    box = box_at(tmp_path, "wifi_name = x\nwifi_password = hunter2hunter2\n")
    seen: list[tuple[str, bytes]] = []
    C.run(box, sethostname=lambda name: None, step=lambda what: seen.append((what, box.card.read_bytes())))
    assert seen[0] == ("star", b"wifi_name = x\nwifi_password = **************\n"), "same bytes, secret starred, first"
    assert [what for what, _ in seen] == ["star", "sync", "write", "sync", "replace", "sync"]
    assert all(b"hunter2" not in card for _, card in seen)


def notepad(text: str, codec: str) -> bytes:
    """`text` as Windows Notepad saves it: CRLF line ends; "Unicode" is UTF-16 LE after FF FE,
    "Unicode big endian" UTF-16 BE after FE FF, "UTF-8 with BOM" after EF BB BF."""
    crlf = text.replace("\n", "\r\n")
    return {"utf-16-le": b"\xff\xfe" + crlf.encode("utf-16-le"), "utf-16-be": b"\xfe\xff" + crlf.encode("utf-16-be"),
            "utf-8-sig": b"\xef\xbb\xbf" + crlf.encode("utf-8"), "utf-8": crlf.encode("utf-8")}[codec]


SHIPPED = (Path(__file__).resolve().parents[2] / "tools/image/rootfs/usr/share/companion-box/companion.txt")


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-8-sig", "utf-8"])
def test_a_card_saved_by_notepad_applies_and_is_written_back_as_it_came(tmp_path, codec):
    text = (SHIPPED.read_text("utf-8") + "wifi_country = IT\nwifi_name = Casa Rossì\n"
            "wifi_password = passphrase di casa\nhostname = tavolo\npage_pin = 2468013579\ntimezone = Europe/Rome\n")
    raw = notepad(text, codec)
    assert raw[:2] in (b"\xff\xfe", b"\xfe\xff") or codec.startswith("utf-8")
    box = box_at(tmp_path, raw)
    problems, names = run(box)
    assert problems == [] and names == ["tavolo"]
    psk = hashlib.pbkdf2_hmac("sha1", b"passphrase di casa", "Casa Rossì".encode(), 4096, 32).hex()
    assert f"psk={psk}" in (box.data / "wpa_supplicant-wlan0.conf").read_text()
    assert (box.state / C.PIN_FILE).read_text() == "2468013579\n"
    left = box.card.read_bytes()
    assert left[:3] == raw[:3], "the same byte order mark"
    body = left[len(C.decode(raw).bom):].decode(C.decode(raw).codec)
    assert "\n" not in body.replace("\r\n", ""), "every line still ends in CRLF"
    for secret in ("passphrase di casa", "2468013579"):
        assert secret not in body
        assert all(secret.encode(c) not in left for c in ("utf-8", "utf-16-le", "utf-16-be"))
    assert "# wifi_password = (saved on the box" in body and "wifi_name = Casa Rossì\r\n" in body
    assert left == notepad(body.replace("\r\n", "\n"), codec), "nothing else changed"
    assert run(box)[0] == [], "the scrubbed card reads cleanly at the next boot"


def test_every_copy_of_a_secret_is_scrubbed_and_the_last_one_applies(tmp_path, capsys):
    box = box_at(tmp_path, "wifi_name = Casa\nwifi_password = the-first-one\npage_pin = 11112222\n"
                           "hostname = tavolo\nwifi_password = the-second-one\n  PAGE_PIN = 33334444\n")
    problems, _ = run(box)
    assert problems == [], "the last one is taken, as always: not a wrong line on the OLED"
    assert ("companion-card: companion.txt line 5: wifi_password: also on line 2: this last one is taken; "
            "delete the others") in capsys.readouterr().out, "but the log says so"
    psk = hashlib.pbkdf2_hmac("sha1", b"the-second-one", b"Casa", 4096, 32).hex()
    assert f"psk={psk}" in (box.data / "wpa_supplicant-wlan0.conf").read_text()
    assert (box.state / C.PIN_FILE).read_text() == "33334444\n"
    left = box.card.read_text()
    for secret in ("the-first-one", "the-second-one", "11112222", "33334444"):
        assert secret not in left
    lines = left.split("\n")
    assert [n for n, line in enumerate(lines, 1) if "(saved on the box" in line] == [2, 3, 5, 6]
    assert lines[5].startswith("# PAGE_PIN = (saved on the box")
    assert run(box)[0] == [], "no copy is left to repeat"


def test_a_secret_left_as_stars_by_a_power_cut_is_no_value(tmp_path):
    box = box_at(tmp_path, "wifi_name = Casa\nwifi_password = good-passphrase\n")
    run(box)
    wpa = (box.data / "wpa_supplicant-wlan0.conf").read_text()
    box.card.write_text("wifi_name = Casa\nwifi_password = ***************\npage_pin = \"********\"\n")
    problems, _ = run(box)
    assert problems == [] and (box.data / "wpa_supplicant-wlan0.conf").read_text() == wpa, "the saved one stays"
    assert "*" not in box.card.read_text().replace("(saved", ""), "and the stars are tidied away"


def zone_tree(tmp_path: Path) -> Path:
    """A zoneinfo as Debian's, with the special files that are not a place's zone."""
    z = tmp_path / "zoneinfo"
    for name in ("right/Europe/Rome", "posix/Europe/Rome", "posixrules", "Factory", "Etc/UTC"):
        (z / name).parent.mkdir(parents=True, exist_ok=True)
        (z / name).write_bytes(b"TZif2 ...")
    (z / "leapseconds").write_text("# leap seconds\nLeap 1972 Jun 30 23:59:60 + S\n")
    (z / "zone.tab").write_text("IT\t+4154+01229\tEurope/Rome\n")
    etc = tmp_path / "etc"
    etc.mkdir(exist_ok=True)
    (etc / "localtime").symlink_to(tmp_path / "data" / "box" / "localtime")  # as on the image
    (tmp_path / "data" / "box").mkdir(parents=True, exist_ok=True)
    (tmp_path / "data" / "box" / "localtime").symlink_to(z / "Europe" / "Rome")  # a boot before linked it
    (z / "localtime").symlink_to(etc / "localtime")  # Debian's zoneinfo/localtime -> /etc/localtime
    (z / "Loop").mkdir()
    (z / "Loop" / "A").symlink_to(z / "Loop" / "B")
    (z / "Loop" / "B").symlink_to(z / "Loop" / "A")
    (tmp_path / "outside").write_bytes(b"TZif2 ...")
    (z / "Europe" / "Elsewhere").symlink_to(tmp_path / "outside")
    (z / "Europe" / "Fifo").parent.mkdir(exist_ok=True)
    os.mkfifo(z / "Europe" / "Fifo")
    return z


@pytest.mark.parametrize("zone", ["localtime", "posixrules", "leapseconds", "Factory", "right/Europe/Rome",
                                  "posix/Europe/Rome", "Loop/A", "Europe/Elsewhere", "Europe/Fifo", "zone.tab",
                                  "Europe/../Europe/Rome", "Europe", "/Europe/Rome", "Europe/Nowhere"])
def test_only_a_real_zone_file_under_zoneinfo_is_a_time_zone(tmp_path, zone):
    box = box_at(tmp_path, f"timezone = {zone}\n")
    zone_tree(tmp_path)
    problems, _ = run(box)
    assert [p.key for p in problems] == ["timezone"] and "is not a time zone" in problems[0].message
    link = box.data / "localtime"
    assert link.readlink() == box.zoneinfo / "UTC" and link.resolve(strict=True).read_bytes().startswith(b"TZif")


@pytest.mark.parametrize("zone", ["Europe/Rome", "Etc/UTC", "UTC"])
def test_a_real_zone_is_taken(tmp_path, zone):
    box = box_at(tmp_path, f"timezone = {zone}\n")
    zone_tree(tmp_path)
    assert run(box)[0] == [] and (box.data / "localtime").readlink() == box.zoneinfo / zone


def test_a_special_zone_an_older_box_saved_is_not_linked_again(tmp_path):
    box = box_at(tmp_path, "hostname = tavolo\n")
    zone_tree(tmp_path)
    (box.data / "settings.json").write_text(json.dumps({"timezone": "localtime"}))
    run(box)
    assert (box.data / "localtime").readlink() == box.zoneinfo / "UTC"


def test_a_card_over_the_limit_is_said_in_one_line_and_nothing_on_it_applies(tmp_path):
    settings = "hostname = tavolo\nwifi_password = secret-passphrase\n"
    pad = "# è" + "x" * 76 + "\n"  # a two-byte character in every line: a cut would split some
    body = settings + pad * (C.MAX_CARD_BYTES // len(pad.encode()) + 1) + "page_pin = 13572468\n"
    box = box_at(tmp_path, body)
    problems, names = run(box)
    assert len(problems) == 1 and problems[0].line == 0 and "more than 64 KiB" in problems[0].text()
    assert "the saved settings apply" in problems[0].message
    assert names == ["clans"] and not (box.state / C.PIN_FILE).exists(), "nothing from a half-read card"
    assert box.card.read_text() == body, "the card is left as it is"


def test_a_card_of_exactly_the_limit_is_read_whole(tmp_path):
    head = "hostname = tavolo\n"
    tail = "page_pin = 13572468\n"
    filler = C.MAX_CARD_BYTES - len(head) - len(tail) - 2  # "#" and its line end
    box = box_at(tmp_path, head + "#" + "é" * (filler // 2) + "x" * (filler % 2) + "\n" + tail)
    assert box.card.stat().st_size == C.MAX_CARD_BYTES
    problems, names = run(box)
    assert problems == [] and names == ["tavolo"] and (box.state / C.PIN_FILE).read_text() == "13572468\n"


def test_a_broken_utf16_card_is_one_problem_and_nothing_applies(tmp_path):
    box = box_at(tmp_path, b"\xff\xfe" + "hostname = tavolo\r\n".encode("utf-16-le") + b"\x00\xd8h\x00")
    problems, names = run(box)
    assert len(problems) == 1 and "UTF-16 (little-endian)" in problems[0].message and names == ["clans"]


# ---- companion card check FILE ------------------------------------------------------------------

def test_card_check_says_right_for_a_notepad_card(tmp_path):
    from tests.support import run_cli

    card = tmp_path / "companion.txt"
    card.write_bytes(notepad(SHIPPED.read_text("utf-8") + "hostname = tavolo\nwifi_password = passphrase di casa\n"
                             "timezone = Europe/Rome\n", "utf-16-le"))
    before = card.read_bytes()
    status, out, err = run_cli("card", "check", str(card))
    assert (status, err) == (0, "")
    assert out.splitlines() == ["companion.txt: right (UTF-16 (little-endian)); settings: hostname, wifi_password, "
                                "timezone"]
    assert card.read_bytes() == before, "the check writes nothing"


def test_card_check_gives_one_line_a_problem_and_exit_1(tmp_path):
    from tests.support import run_cli

    card = tmp_path / "mine.txt"
    card.write_text("timezone = posixrules\nhostname = x_y\npage_pin = 12\nwifi_password = abcdefghij\n"
                    "colour = blue\nwifi_password = abcdefghijk\ncamera = maybe\n")
    status, out, err = run_cli("card", "check", str(card))
    assert (status, err) == (1, "")
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["mine.txt line 5", "mine.txt line 1", "mine.txt line 2",
                                                      "mine.txt line 3", "mine.txt line 7", "mine.txt line 6"]
    assert lines[4] == "mine.txt line 7: camera: 'maybe' is not on or off; left as it was"
    assert lines[-1] == "mine.txt line 6: wifi_password: also on line 4: this last one is taken; delete the others"
    big = tmp_path / "big.txt"
    big.write_bytes(b"#" * (C.MAX_CARD_BYTES + 1))
    status, out, _ = run_cli("card", "check", str(big))
    assert status == 1 and len(out.splitlines()) == 1 and "more than 64 KiB" in out


@pytest.mark.parametrize("what", ["missing", "directory", "fifo", "empty name"])
def test_card_check_on_a_file_that_cannot_be_read_is_one_line_and_exit_2(tmp_path, what):
    from tests.support import run_cli

    path = tmp_path / "companion.txt"
    if what == "directory":
        path.mkdir()
    elif what == "fifo":
        os.mkfifo(path)  # never opened for a blocking read: the check would hang
    status, out, err = run_cli("card", "check", "" if what == "empty name" else str(path))
    assert (status, out) == (2, "") and len(err.splitlines()) == 1, err
    assert err.startswith("companion card")


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


def test_card_check_needs_nothing_only_unix_has(tmp_path):
    """People run it on Windows: without os.O_NONBLOCK / O_NOCTTY, socket.sethostname, os.pwrite."""
    import subprocess
    import sys

    card = tmp_path / "companion.txt"
    card.write_bytes(notepad("hostname = tavolo\npage_pin = 12\n", "utf-16-le"))
    code = ("import os, socket, sys\n"
            "for name in ('O_NONBLOCK', 'O_NOCTTY', 'pwrite'): delattr(os, name)\n"
            "del socket.sethostname\n"
            "from companion.box import card\n"
            "sys.exit(card.command(['check', sys.argv[1]]))\n")
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code, str(card)], capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)}, timeout=60)
    assert (done.returncode, done.stderr) == (1, ""), done.stderr
    assert done.stdout.startswith("companion.txt line 2: page_pin: the PIN has 4 to 16 digits")
