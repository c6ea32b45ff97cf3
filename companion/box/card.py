"""The settings card: `companion.txt` on the image's FAT boot partition, read and applied at boot.

A table writes it from any computer (Wi-Fi, host name, language, the page's PIN, time zone,
an SSH key, the USB camera above the board: `camera = on`, `camera_device`, written into the
config's camera section); `companion-card.service` runs `python -m companion.box.card` as root
before the network, the kiosk and the page start. Each line is `key = value`; `#` starts a comment line.
A key that is absent (or commented out) leaves what the box has; a key with an empty value
clears it (no Wi-Fi, no PIN, no SSH key); a key written twice takes its last line (and says
so). The secrets (the Wi-Fi passphrase, the PIN) are saved on the data partition and then
every line of them is commented out on the card, its old bytes overwritten first, so the card
does not keep them readable.

The card is UTF-8 (with or without a BOM), UTF-16 with a BOM (Windows Notepad's "Unicode",
little- or big-endian), else Latin-1, and is written back as it came. A card over
`MAX_CARD_BYTES` is not read at all: one problem says so and the saved settings apply.

A wrong value is left out (the rest applies) and gives one line on the serial console and in
`PROBLEMS_FILE`, which the kiosk shows on the OLED; the box always boots on. `companion card
check FILE` runs the same checks on any computer before the card goes in.

Everything writes under a `Box` of paths, so tests run it on temporary directories.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import codecs
import dataclasses
import hashlib
import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from companion.argtypes import given
from companion.box import imager
from companion.i18n import LANGUAGES
from companion.table.pagelink import PIN_FILE, PIN_MAX_DIGITS, PIN_MIN_DIGITS
from companion.util.fsutil import atomic_write_text

PROBLEMS_FILE = "/run/companion-box/problems.json"
SECRET_KEYS = ("wifi_password", "page_pin")
KEYS = ("wifi_country", "wifi_name", "wifi_password", "hostname", "language", "page_pin", "timezone", "ssh_key",
        "camera", "camera_device")
SSH_KEY_TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
                 "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com")
CAMERA_DEVICE_RE = re.compile(r"^/dev/[A-Za-z0-9_.:+-]+(/[A-Za-z0-9_.:+-]+)*$")
CAMERA_BLOCK = ("# >>> the USB camera, written from companion.txt (camera, camera_device) at boot; edit it there",
                "# <<< the USB camera")
HOSTNAME_RE = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")
ZONE_RE = re.compile(r"^[A-Za-z0-9_+-]+(/[A-Za-z0-9_+-]+)*$")
# In zoneinfo but not a place's zone: the system's own link, the default rules, leap-second tables
# and the two trees of duplicates (posix/, right/ with leap seconds counted).
NOT_ZONES = frozenset({"localtime", "posixrules", "leapseconds", "leap-seconds", "Factory"})
NOT_ZONE_TREES = frozenset({"posix", "right"})
MAX_CARD_BYTES = 64 * 1024  # the shipped card has under 2 KiB; Notepad's "Unicode" doubles that
LINE_END = re.compile(r"\r\n|\r|\n")
STARS = re.compile(r"\*+")  # a secret overwritten in place by a scrub that a power cut stopped
CODEC_NAMES = {"utf-8": "UTF-8", "utf-16-le": "UTF-16 (little-endian)", "utf-16-be": "UTF-16 (big-endian)",
               "latin-1": "Latin-1"}
BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


@dataclasses.dataclass(frozen=True)
class Box:
    """Where the settings go: the card's file, the data partition, the OS files they feed."""

    card: Path = Path("/boot/firmware/companion.txt")
    data: Path = Path("/data/box")  # the box's own settings, on the data partition
    state: Path = Path("/var/lib/companion")  # the kiosk's state directory (the PIN file)
    config: Path = Path("/etc/companion/config.yaml")  # bound from the data partition
    zoneinfo: Path = Path("/usr/share/zoneinfo")
    problems: Path = Path(PROBLEMS_FILE)
    console: Path | None = Path("/dev/console")
    service_user: str = "companion"


@dataclasses.dataclass
class Problem:
    line: int
    key: str
    message: str
    source: str = "companion.txt"  # the file: the card, or one Raspberry Pi Imager wrote

    def text(self, name: str | None = None) -> str:
        name = name or self.source
        if not self.line and self.key == name:  # the file itself: named once
            return f"{name}: {self.message}"
        where = f"{name} line {self.line}" if self.line else name
        return f"{where}: {self.key}: {self.message}"


@dataclasses.dataclass
class Entry:
    line: int
    key: str
    value: str
    others: tuple[int, ...] = ()  # the earlier lines of the same key, which this one overrides


class CardRefused(ValueError):
    """A card that is there but not read at all (too big, not text): nothing on it applies."""


@dataclasses.dataclass(frozen=True)
class CardText:
    """The card's text, its line ends as they were, and how it was written (to write it back so)."""

    text: str
    codec: str  # utf-8, utf-16-le, utf-16-be, latin-1
    bom: bytes = b""

    def encode(self, text: str) -> bytes:
        return self.bom + text.encode(self.codec)

    def lines(self) -> list[str]:
        return LINE_END.split(self.text)


def decode(raw: bytes) -> CardText:
    """The card's text: UTF-16 after its BOM (FF FE or FE FF, as Notepad's "Unicode" writes it),
    else UTF-8 (a BOM is fine), else Latin-1; CardRefused for UTF-16 that does not decode."""
    for bom, codec in BOMS:
        if raw.startswith(bom) and codec != "utf-8":
            try:
                return CardText(raw[len(bom):].decode(codec), codec, bom)
            except UnicodeDecodeError:
                raise CardRefused(f"starts as {CODEC_NAMES[codec]} text (its byte order mark) but is not: "
                                  "save it again as UTF-8 (or Unicode)") from None
    bom = codecs.BOM_UTF8 if raw.startswith(codecs.BOM_UTF8) else b""
    try:
        return CardText(raw[len(bom):].decode("utf-8"), "utf-8", bom)
    except UnicodeDecodeError:
        return CardText(raw[len(bom):].decode("latin-1"), "latin-1", bom)


def read_card(path: Path) -> CardText:
    """The card at `path`, whole or not at all: OSError when it cannot be read (a FIFO or a device
    is refused before any read), CardRefused when it is over `MAX_CARD_BYTES` or not text."""
    # `companion card check` runs on Windows too: no O_NONBLOCK there (nor FIFOs), and O_BINARY a must
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with open(fd, "rb", closefd=True) as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(0, "not a regular file")
        raw = f.read(MAX_CARD_BYTES + 1)
    if len(raw) > MAX_CARD_BYTES:
        raise CardRefused(f"is more than {MAX_CARD_BYTES // 1024} KiB, far more than its settings need: "
                          "nothing on it was read (as shipped, with its comments, it has under 2 KiB)")
    return decode(raw)


def key_value(line: str) -> tuple[str, str, bool] | None:
    """(key in lower case, value, whether it had a `=`) of a line; None for a blank or comment line."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    key, sep, value = stripped.partition("=")
    return key.strip().lower(), value.strip(), bool(sep)


def parse(text: str) -> tuple[dict[str, Entry], list[Problem]]:
    """`key = value` lines into entries (the last of a repeated key wins, `Entry.others`); the rest
    are problems. A secret that a stopped scrub left as stars is no value: the saved one stays."""
    entries: dict[str, Entry] = {}
    problems: list[Problem] = []
    copies: dict[str, list[int]] = {}  # every line of each key
    for number, line in enumerate(LINE_END.split(text), 1):
        got = key_value(line)
        if got is None:
            continue
        key, value, sep = got
        if not sep:
            problems.append(Problem(number, clip(key), "not a 'key = value' line; left out"))
            continue
        if key not in KEYS:
            problems.append(Problem(number, clip(key), f"unknown setting (the settings are {', '.join(KEYS)})"))
            continue
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]  # quotes keep spaces at either end
        if key in SECRET_KEYS and STARS.fullmatch(value):
            continue
        copies.setdefault(key, []).append(number)
        entries[key] = Entry(number, key, value, tuple(copies[key][:-1]))
    return entries, problems


def repeated(entries: dict[str, Entry]) -> list[Problem]:
    """One line per key written more than once, at its last line (the one taken). Not a problem at
    boot (the box takes the last, as always, and says so in its log), but one for `card check`."""
    return [Problem(e.line, e.key, f"also on line{'s' if len(e.others) > 1 else ''} "
                                   f"{', '.join(map(str, e.others))}: this last one is taken; delete the others")
            for e in entries.values() if e.others]


def clip(value: str, n: int = 24) -> str:
    value = "".join(c if c.isprintable() else "?" for c in value)
    return value if len(value) <= n else value[: n - 1] + "…"


def iso_countries(zoneinfo: Path) -> set[str] | None:
    try:
        text = (zoneinfo / "iso3166.tab").read_text("utf-8")
    except OSError:
        return None
    return {line.split("\t")[0] for line in text.splitlines() if line and not line.startswith("#")}


# ---- checks: each returns the value to apply, or raises ValueError with the reason ----------

def check_country(value: str, box: Box) -> str:
    code = value.upper()
    known = iso_countries(box.zoneinfo)
    if not re.fullmatch(r"[A-Z]{2}", code) or (known is not None and code not in known):
        raise ValueError(f"{clip(value)!r} is not a two-letter country code (IT, ES, FR, DE, GB, US ...)")
    return code


def check_ssid(value: str, box: Box) -> str:
    if not 1 <= len(value.encode("utf-8")) <= 32 or not value.isprintable():
        raise ValueError("a network name has 1 to 32 bytes and no control characters")
    return value


def check_passphrase(value: str, box: Box) -> str:
    if re.fullmatch(r"[0-9a-fA-F]{64}", value):
        return value.lower()  # already the hashed key
    if not (8 <= len(value) <= 63 and value.isascii() and value.isprintable()):
        raise ValueError("a WPA passphrase has 8 to 63 printable ASCII characters")
    return value


def check_hostname(value: str, box: Box) -> str:
    name = value.lower()
    if not HOSTNAME_RE.match(name):
        raise ValueError(f"{clip(value)!r} is not a host name (letters a-z, digits and '-', at most 63)")
    return name


def check_language(value: str, box: Box) -> str:
    code = value.lower()
    if code not in LANGUAGES:
        raise ValueError(f"{clip(value)!r} is not one of {', '.join(LANGUAGES)}")
    return code


def check_pin(value: str, box: Box) -> str:
    if not (value.isascii() and value.isdigit() and PIN_MIN_DIGITS <= len(value) <= PIN_MAX_DIGITS):
        raise ValueError(f"the PIN has {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits and nothing else")
    return value


def check_timezone(value: str, box: Box) -> str:
    """A zone file of zoneinfo's own (TZif, inside zoneinfo once every link is followed), never its
    special files: `localtime` (a link back to /etc/localtime: a loop), `posixrules`, the
    leap-second tables, the posix/ and right/ copies. Without a zoneinfo (a PC that has none,
    for `companion card check`) only the name's form is checked."""
    wrong = ValueError(f"{clip(value)!r} is not a time zone (Europe/Rome, America/New_York, UTC ...)")
    if not ZONE_RE.match(value) or value in NOT_ZONES or value.split("/")[0] in NOT_ZONE_TREES:
        raise wrong
    if not box.zoneinfo.is_dir():
        return value
    try:
        root = box.zoneinfo.resolve(strict=True)
        target = (box.zoneinfo / value).resolve(strict=True)  # a symlink loop raises too
        inside = target.relative_to(root)
        if str(inside) in NOT_ZONES or inside.parts[0] in NOT_ZONE_TREES or not target.is_file():
            raise wrong
        with open(target, "rb") as f:
            if f.read(4) != b"TZif":
                raise wrong
    except (OSError, RuntimeError, ValueError):
        raise wrong from None
    return value


def check_ssh_key(value: str, box: Box) -> str:
    parts = value.split()
    if len(parts) < 2 or parts[0] not in SSH_KEY_TYPES:
        raise ValueError("not an SSH public key (one line: ssh-ed25519 AAAA... comment, from a .pub file)")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the key's base64 part is damaged") from None
    n = int.from_bytes(blob[:4], "big") if len(blob) >= 4 else -1
    if blob[4:4 + n] != parts[0].encode():
        raise ValueError("the key's base64 part does not match its type")
    return " ".join(parts[:2] + ([clip(" ".join(parts[2:]), 64)] if len(parts) > 2 else []))


def check_camera(value: str, box: Box) -> str:
    """on or off: the USB camera above the board (a webcam, read through V4L2)."""
    word = value.lower()
    if word not in ("on", "off"):
        raise ValueError(f"{clip(value)!r} is not on or off")
    return word


def check_camera_device(value: str, box: Box) -> str:
    """auto (the first USB camera udev names) or the camera's device under /dev: /dev/video0,
    /dev/v4l/by-id/usb-...-video-index0. Only the form is checked: the camera may be plugged in later,
    and `companion card check` runs on a computer without it (`companion doctor` looks for it)."""
    if value.lower() == "auto":
        return "auto"
    if len(value) > 200 or not CAMERA_DEVICE_RE.match(value) or "/../" in value + "/" or "/./" in value + "/":
        raise ValueError(f"{clip(value, 40)!r} is not auto or a camera's device (/dev/video0, "
                         "/dev/v4l/by-id/usb-...-video-index0)")
    return value


CHECKS: dict[str, Callable[[str, Box], str]] = {
    "wifi_country": check_country, "wifi_name": check_ssid, "wifi_password": check_passphrase,
    "hostname": check_hostname, "language": check_language, "page_pin": check_pin,
    "timezone": check_timezone, "ssh_key": check_ssh_key,
    "camera": check_camera, "camera_device": check_camera_device,
}


def check_card(card: CardText, box: Box) -> tuple[dict[str, str], list[Problem], list[Problem]]:
    """The card's values that pass their checks, one problem per line that does not, and one line
    per key written more than once (`repeated`)."""
    entries, problems = parse(card.text)
    good, bad = checked(entries, box)
    return good, problems + bad, repeated(entries)


def checked(entries: dict[str, Entry], box: Box) -> tuple[dict[str, str], list[Problem]]:
    """The values that pass their check ("" clears a setting); one problem per value that does not."""
    good: dict[str, str] = {}
    problems = []
    for key, entry in entries.items():
        if entry.value == "":
            good[key] = ""
            continue
        try:
            good[key] = CHECKS[key](entry.value, box)
        except ValueError as exc:
            problems.append(Problem(entry.line, key, f"{exc}; left as it was"))
    return good, problems


# ---- applying ---------------------------------------------------------------------------------

def write_private(path: Path, text: str, mode: int = 0o600, owner: tuple[int, int] | None = None) -> None:
    """`text` into `path` (its folder made when missing), private to `owner` from its creation on,
    through a synced temporary file, so a power cut leaves the old or the new."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text, mode=mode, owner=owner)


def wpa_psk(passphrase: str, ssid: str) -> str:
    """WPA2's pre-shared key (IEEE 802.11i: PBKDF2-SHA1, the SSID as salt, 4096 rounds), as wpa_passphrase prints it."""
    if re.fullmatch(r"[0-9a-f]{64}", passphrase):
        return passphrase
    return hashlib.pbkdf2_hmac("sha1", passphrase.encode(), ssid.encode("utf-8"), 4096, 32).hex()


def wpa_conf(saved: dict[str, str]) -> str:
    lines = ["# Written at boot from companion.txt by companion-card.service; edit companion.txt instead.",
             "ctrl_interface=DIR=/run/wpa_supplicant", "update_config=0"]
    if saved.get("wifi_country"):
        lines.append(f"country={saved['wifi_country']}")
    if saved.get("wifi_name"):
        ssid_hex = saved["wifi_name"].encode("utf-8").hex()  # any byte is safe in hex form
        lines.append("network={")
        lines.append(f"\tssid={ssid_hex}")
        lines.append("\tscan_ssid=1")
        if saved.get("wifi_psk"):
            lines.append(f"\tpsk={saved['wifi_psk']}")
        else:
            lines.append("\tkey_mgmt=NONE")
        lines.append("}")
    return "\n".join(lines) + "\n"


def set_config_language(text: str, code: str) -> str:
    """The config file's top-level `language:` line set to `code`, or added."""
    line = f"language: {code}"
    new, n = re.subn(r"(?m)^language:.*$", line, text, count=1)
    return new if n else text.rstrip("\n") + ("\n" if text else "") + line + "\n"


def camera_section(saved: dict[str, str]) -> list[str]:
    """The config's camera section for the box's settings: a USB webcam when `camera` is on (its
    device `camera_device`, else auto; the corners are tapped on the page), else none."""
    if saved.get("camera") != "on":
        return ["camera: null"]
    device = json.dumps(saved.get("camera_device") or "auto")  # a JSON string is a YAML string
    return ["camera:", "  source: v4l2", f"  device: {device}"]


def set_config_camera(text: str, section: list[str]) -> str:
    """The config file with its top-level camera section replaced by `section`, between the card's
    markers: the card's own block, or a `camera:` key written by hand (its indented lines with it),
    else added at the end."""
    block = [CAMERA_BLOCK[0], *section, CAMERA_BLOCK[1]]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    start = next((i for i, line in enumerate(lines) if line == CAMERA_BLOCK[0] or re.match(r"camera\s*:", line)), None)
    if start is None:
        return "\n".join(lines + block) + "\n"
    if lines[start] == CAMERA_BLOCK[0] and CAMERA_BLOCK[1] in lines[start:]:
        end = lines.index(CAMERA_BLOCK[1], start) + 1
    else:  # a camera section written by hand: its key and the indented lines under it
        end = start + 1
        while end < len(lines) and (lines[end][:1] in (" ", "\t") or not lines[end].strip()):
            end += 1
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1  # a blank line after the section stays
        if lines[start] == CAMERA_BLOCK[0] and end < len(lines) and re.match(r"camera\s*:", lines[end]):
            end += 1  # the card's block that lost its end line: its key too
            while end < len(lines) and lines[end][:1] in (" ", "\t"):
                end += 1
    return "\n".join(lines[:start] + block + lines[end:]) + "\n"


def load_saved(box: Box) -> dict[str, str]:
    try:
        saved = json.loads((box.data / "settings.json").read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in saved.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(saved, dict) else {}


def merge(saved: dict[str, str], good: dict[str, str]) -> dict[str, str]:
    """The box's settings after this card: the saved ones, each key on the card replacing its own.
    A new network name without a passphrase is an open network, never the old network's passphrase."""
    new = dict(saved)
    for key, value in good.items():
        if key == "wifi_password":
            continue
        new[key] = value
    if "wifi_password" in good:
        new["wifi_psk"] = wpa_psk(good["wifi_password"], new.get("wifi_name", "")) if good["wifi_password"] else ""
    elif new.get("wifi_name") != saved.get("wifi_name"):
        new["wifi_psk"] = ""
    new.pop("page_pin", None)  # the PIN lives in the state directory's PIN file only
    return {k: v for k, v in new.items() if v != ""}


def service_owner(box: Box) -> tuple[int, int] | None:
    try:
        import pwd

        entry = pwd.getpwnam(box.service_user)
    except (ImportError, KeyError):
        return None
    return entry.pw_uid, entry.pw_gid


def apply(saved: dict[str, str], good: dict[str, str], box: Box,
          sethostname: Callable[[str], None] | None = None) -> list[str]:
    """Write what the box runs on from the merged settings; returns what it did, one line each.
    `sethostname`: socket.sethostname unless given."""
    new = merge(saved, good)
    done = []
    write_private(box.data / "settings.json", json.dumps(new, sort_keys=True, indent=1) + "\n")
    write_private(box.data / "wpa_supplicant-wlan0.conf", wpa_conf(new))
    if new.get("wifi_name"):
        done.append(f"Wi-Fi: network {clip(new['wifi_name'], 32)!r}" +
                    (f", country {new['wifi_country']}" if new.get("wifi_country") else ""))
    hostname = new.get("hostname", "clans")
    write_private(box.data / "hostname", hostname + "\n", 0o644)
    try:
        (sethostname or socket.sethostname)(hostname)  # looked up here: Windows has none (card check)
        done.append(f"host name {hostname} (the page: http://{hostname}.local:8080)")
    except OSError as exc:
        done.append(f"host name {hostname} not set: {exc.strerror or exc}")
    zone = new.get("timezone", "UTC")
    try:
        check_timezone(zone, box)
    except ValueError:
        zone = "UTC"  # a zone an older box took (localtime, posixrules) is not linked again
    link = box.data / "localtime"
    tmp = link.with_name("localtime.tmp")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(box.zoneinfo / zone)
    os.replace(tmp, link)
    write_private(box.data / "timezone", zone + "\n", 0o644)
    done.append(f"time zone {zone}")
    if "language" in good and box.config.exists():
        code = new.get("language")
        text = box.config.read_text("utf-8")
        write_private(box.config, set_config_language(text, code or "null"), 0o644)
        done.append(f"language {code or 'from the locale'}")
    if ("camera" in good or "camera_device" in good) and box.config.exists():
        text = box.config.read_text("utf-8")
        write_private(box.config, set_config_camera(text, camera_section(new)), 0o644)
        done.append(f"camera {new.get('camera_device') or 'auto'} (USB)" if new.get("camera") == "on"
                    else "camera off")
    if "page_pin" in good:
        pin = box.state / PIN_FILE
        if good["page_pin"]:
            write_private(pin, good["page_pin"] + "\n", 0o600, service_owner(box))
            done.append("the page's PIN set")
        else:
            pin.unlink(missing_ok=True)
            done.append("the page's PIN removed (the page is read-only)")
    keys = box.data / "ssh" / "authorized_keys"
    if new.get("ssh_key"):
        write_private(keys, new["ssh_key"] + "\n")
        os.chmod(keys.parent, 0o700)
        done.append("SSH on, for the key on the card")
    else:
        keys.unlink(missing_ok=True)
    return done


def secret_lines(card: CardText, good: dict[str, str]) -> list[tuple[int, str, int, int]]:
    """(line index, key as written, first and last character of its value in the text) for every line
    of a secret the box took from this card (each copy, whatever its value), and for every secret
    a stopped scrub left as stars; in the order of the file."""
    found = []
    offset = 0
    pieces = re.split(f"({LINE_END.pattern})", card.text)
    for index, line in enumerate(pieces[0::2]):
        got = key_value(line)
        if got is not None and got[0] in SECRET_KEYS and got[2] and got[1]:
            value = got[1].strip('"')
            if got[0] in good or STARS.fullmatch(value):
                equals = line.index("=")
                first = equals + 1 + (len(line[equals + 1:]) - len(line[equals + 1:].lstrip()))
                last = len(line.rstrip())
                found.append((index, line.split("=", 1)[0].strip(), offset + first, offset + last))
        offset += len(line) + (len(pieces[2 * index + 1]) if 2 * index + 1 < len(pieces) else 0)
    return found


def scrub_card(path: Path, card: CardText, good: dict[str, str], when: str,
               step: Callable[[str], None] = lambda what: None) -> bool:
    """Comment out every line of the secrets the box saved. First each value is overwritten with
    stars in place, in the order of the file (the same clusters, so the FAT keeps no copy in a
    freed one; a power cut in between leaves the last copy, the one that applies, readable or
    starred, and stars are no value); then the tidy card, in the card's own encoding and line ends,
    replaces it through a synced temporary file, so a power cut leaves the starred card or the
    tidy one. `step(what)` is called after each write (the tests stop there, as a power cut would)."""
    found = secret_lines(card, good)
    if not found:
        return False
    unit = len("*".encode(card.codec))
    with open(path, "r+b") as f:
        for _, _, first, last in found:
            start = len(card.bom) + len(card.text[:first].encode(card.codec))
            size = len(card.text[first:last].encode(card.codec))
            os.pwrite(f.fileno(), ("*" * (size // unit)).encode(card.codec), start)
            step("star")
        os.fsync(f.fileno())
        step("sync")
    pieces = re.split(f"({LINE_END.pattern})", card.text)
    for index, key, _, _ in found:
        pieces[2 * index] = f"# {key} = (saved on the box {when}; write a new one here to change it)"
    tmp = path.with_name(path.name + ".new")
    with open(tmp, "wb") as f:
        f.write(card.encode("".join(pieces)))
        step("write")
        f.flush()
        os.fsync(f.fileno())
        step("sync")
    os.replace(tmp, path)
    step("replace")
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    step("sync")
    return True


def report(problems: list[Problem], done: list[str], box: Box) -> None:
    """Each problem on stdout (the system journal) and the serial console; the list for the kiosk."""
    lines = [f"companion-card: {p.text()}" for p in problems] + [f"companion-card: {d}" for d in done]
    for line in lines:
        print(line, flush=True)
    if box.console is not None and problems:
        try:
            with open(box.console, "w", encoding="utf-8", errors="replace") as console:
                for p in problems:
                    console.write(f"companion-card: {p.text()}\r\n")
        except OSError:
            pass
    box.problems.parent.mkdir(parents=True, exist_ok=True)
    write_private(box.problems, json.dumps([dataclasses.asdict(p) for p in problems]) + "\n", 0o644)


def run(box: Box, sethostname: Callable[[str], None] | None = None,
        step: Callable[[str], None] = lambda what: None, proc_cmdline: Path = Path("/proc/cmdline"),
        reboot: Callable[[], None] = lambda: subprocess.run(["systemctl", "--no-block", "reboot"], check=False)
        ) -> list[Problem]:
    """Read the card, apply what is right, report what is not. Never raises on a bad card.
    `step`: called after each write to the card (scrub_card)."""
    card: CardText | None = None
    problems: list[Problem] = []
    try:
        card = read_card(box.card)
    except FileNotFoundError:
        pass
    except CardRefused as exc:
        problems = [Problem(0, "companion.txt", f"{exc}; the saved settings apply")]
    except OSError as exc:
        problems = [Problem(0, "companion.txt", f"cannot be read ({exc.strerror or exc}); the saved settings apply")]
    good: dict[str, str] = {}
    done: list[str] = []
    if card is not None:
        good, problems, repeats = check_card(card, box)
        done = [r.text() for r in repeats]
    # Raspberry Pi Imager's OS customisation, if it left any on the FAT: what the card does not give
    found = imager.imager_settings(box.card.parent)
    taken = found.beside(parse(card.text)[0] if card is not None else {})
    from_imager, bad = checked({k: Entry(s.line, k, s.value) for k, s in taken.items()}, box)
    problems += [dataclasses.replace(p, source=taken[p.key].source) for p in bad]
    good = {**from_imager, **good}
    done += apply(load_saved(box), good, box, sethostname) + found.notes
    try:
        done += imager.tidy(box.card.parent, found)
    except OSError as exc:
        problems.append(Problem(0, "Raspberry Pi Imager", f"its files not tidied ({exc.strerror or exc}); "
                                "the next boot tries again", source="Raspberry Pi Imager"))
    try:
        if card is not None and scrub_card(box.card, card, good, time.strftime("%Y-%m-%d"), step):
            done.append("the passphrase and PIN are commented out on the card")
    except OSError as exc:
        problems.append(Problem(0, "companion.txt", f"could not comment out the secrets: {exc.strerror or exc}"))
    report(problems, done, box)
    if imager.must_reboot(box.card.parent, proc_cmdline):  # booted into Imager's first-run target: never the kiosk
        print("companion-card: rebooting once, without Raspberry Pi Imager's first-run line", flush=True)
        reboot()
    return problems


def read_problems(path: str = PROBLEMS_FILE) -> list[Problem]:
    """What the last boot's card got wrong (for the kiosk's first screen); [] when nothing or no file."""
    try:
        items = json.loads(Path(path).read_text("utf-8"))
        return [Problem(int(i["line"]), str(i["key"]), str(i["message"]), str(i.get("source", "companion.txt")))
                for i in items]
    except (OSError, ValueError, TypeError, KeyError):
        return []


def local_zoneinfo() -> Path:
    """This computer's zone database (Python's TZPATH), for `companion card check`; may not exist."""
    import zoneinfo

    return next((Path(p) for p in zoneinfo.TZPATH if Path(p).is_dir()), Path("/usr/share/zoneinfo"))


def command(argv: list[str]) -> int:
    """`companion card check FILE`: a settings card checked on any computer before it goes in the box:
    exit 0 when it is right, 1 with one line a problem, 2 when the file cannot be read."""
    ap = argparse.ArgumentParser(prog="companion card", description=command.__doc__)
    sub = ap.add_subparsers(dest="action", required=True, metavar="check")
    check = sub.add_parser("check", help="check a settings card (companion.txt)", description=command.__doc__)
    check.add_argument("file", metavar="FILE", type=given("a settings card (companion.txt)"))
    args = ap.parse_args(argv)
    path = Path(args.file)
    box = Box(card=path, zoneinfo=local_zoneinfo(), console=None)
    try:
        card = read_card(path)
    except CardRefused as exc:
        good, problems = {}, [Problem(0, "companion.txt", str(exc))]
    except OSError as exc:
        print(f"companion card: {args.file}: cannot be read ({exc.strerror or exc})", file=sys.stderr)
        return 2
    else:
        good, problems, repeats = check_card(card, box)
        problems += repeats
    for problem in problems:
        print(problem.text(path.name))
    if problems:
        return 1
    if not box.zoneinfo.is_dir() and good.get("timezone"):
        print(f"{path.name}: (no time zone database on this computer: the time zone's name was checked, "
              "the box checks the zone itself)")
    taken = ", ".join(good) or "none: every setting is commented out, the box keeps what it has"
    print(f"{path.name}: right ({CODEC_NAMES[card.codec]}); settings: {taken}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m companion.box.card [CARD]`: apply the settings card; exit 0 even when values are wrong."""
    argv = sys.argv[1:] if argv is None else argv
    box = Box(card=Path(argv[0])) if argv else Box()
    try:
        run(box)
    except OSError as exc:  # the data partition missing or full: say so, the box boots on
        print(f"companion-card: could not apply the settings: {exc}", flush=True)
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
