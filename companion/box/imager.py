"""Raspberry Pi Imager's OS customisation, found on the card's FAT and taken as settings-card entries.

When a table fills in Imager's "OS customisation", Imager writes its answers onto the FAT next to
`companion.txt`, in one of three forms (read from Imager's own source, raspberrypi/rpi-imager):

- `firstrun.sh`, a shell script, plus `systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot
  systemd.unit=kernel-command-line.target` on `cmdline.txt` (Imager 1.7-1.9 for Raspberry Pi OS,
  2.x for `init_format: systemd`, and `rpi-imager --cli --first-run-script`). That boot never
  reaches the kiosk: it must be cleaned and rebooted once.
- cloud-init NoCloud files: `user-data`, `network-config` and (2.x) `meta-data`, plus
  `ds=nocloud;i=rpi-imager-<ms>` on `cmdline.txt` (2.x). Imager 1.7-1.9 writes these for a
  custom image such as this one (its `auto` format: no `issue.txt` naming pi-gen).
- `rpi-preseed.toml` (2.x, `init_format: rpi-preseed`).

All add `cfg80211.ieee80211_regdom=<country>` to `cmdline.txt` when a Wi-Fi country is set.

This module reads those texts (never runs them), gives the settings the box has a key for (host
name, Wi-Fi country, name and key, SSH public key, time zone) with the file and line they came
from, a note for what it leaves out (keyboard layout, user name and password: the box has no
keyboard and no login user), and then scrubs and removes Imager's files and takes Imager's words
back out of `cmdline.txt` (`tidy`). A file that is not Imager's is left alone, with one note.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import tomllib
from pathlib import Path
from typing import Iterable

from companion.util.fsutil import atomic_write_text

FIRSTRUN, USER_DATA, NETWORK, META, PRESEED, CMDLINE = (
    "firstrun.sh", "user-data", "network-config", "meta-data", "rpi-preseed.toml", "cmdline.txt")
IMAGER_FILES = (FIRSTRUN, USER_DATA, NETWORK, META, PRESEED)
MAX_BYTES = 256 * 1024
SCRUB_BYTE = b"#"  # what a scrubbed file is overwritten with, so a power cut before its removal is known
RUN_TOKENS = ("systemd.run=/boot/firstrun.sh", "systemd.run=/boot/firmware/firstrun.sh",
              "systemd.run_success_action=reboot", "systemd.unit=kernel-command-line.target")
NOCLOUD_RE = re.compile(r"ds=nocloud;i=rpi-imager-\d+")
REGDOM_RE = re.compile(r"cfg80211\.ieee80211_regdom=(\S*)")
CUSTOM_RE = re.compile(r"^/usr/lib/raspberrypi-sys-mods/imager_custom\s+(\w+)(.*)$")
# The top-level keys Imager's user-data has ever had (1.7 to 2.0.11); any other is someone else's file.
CLOUD_KEYS = {"manage_resolv_conf", "hostname", "manage_etc_hosts", "packages", "apt", "timezone", "keyboard",
              "user", "users", "enable_ssh", "ssh_pwauth", "rpi", "runcmd", "write_files"}
NETWORK_KEYS = {"network", "version", "wifis"}


@dataclasses.dataclass(frozen=True)
class Setting:
    """One setting as `companion.txt` would have it: its key and value, and where Imager wrote it."""

    key: str
    value: str
    source: str
    line: int

    def where(self) -> str:
        return f"{self.source} line {self.line}" if self.line else self.source


@dataclasses.dataclass
class Found:
    """What Imager left on the FAT: the settings, one note per thing left out, Imager's files
    (to scrub and remove once the settings are applied) and the files left alone."""

    settings: dict[str, Setting] = dataclasses.field(default_factory=dict)
    notes: list[str] = dataclasses.field(default_factory=list)
    imagers: list[str] = dataclasses.field(default_factory=list)
    foreign: list[str] = dataclasses.field(default_factory=list)

    def beside(self, own: Iterable[str]) -> dict[str, Setting]:
        """The settings `companion.txt` does not give itself (its own lines win). The network's name and
        passphrase go together: one of them on companion.txt keeps both of Imager's out."""
        own = set(own)
        pair = {"wifi_name", "wifi_password"}
        skip = own | (pair if own & pair else set())
        return {k: s for k, s in self.settings.items() if k not in skip}

    def put(self, key: str, value: str, source: str, line: int) -> None:
        """The first value found for a key is kept (Imager writes its own command before its fallback).
        An empty value says nothing, except an empty passphrase: an open network."""
        if value or key == "wifi_password":
            self.settings.setdefault(key, Setting(key, value, source, line))


def text_of(raw: bytes) -> str:
    """A file's text: UTF-8 (a BOM and CRLF line ends are fine; a bad byte becomes U+FFFD)."""
    text = raw.decode("utf-8", "replace").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def scrubbed(raw: bytes) -> bool:
    """A file this module overwrote and a power cut kept from being removed."""
    return bool(raw) and raw.strip(SCRUB_BYTE) == b""


# ---- firstrun.sh ----------------------------------------------------------------------------

def is_imager_script(lines: list[str]) -> bool:
    """Imager's script: its shebang, `set +e`, and its own last three lines (every version since 1.7)."""
    body = [line.strip() for line in lines if line.strip()]
    return (len(body) >= 5 and body[0] in ("#!/bin/bash", "#!/bin/sh") and body[1] == "set +e"
            and body[-3:] == ["rm -f /boot/firstrun.sh", "sed -i 's| systemd.run.*||g' /boot/cmdline.txt", "exit 0"])


def words(rest: str) -> list[str] | None:
    try:
        return shlex.split(rest)
    except ValueError:  # an unbalanced quote
        return None


def ssid_from_wpa(value: str) -> str | None:
    """`ssid=` in Imager's wpa_supplicant block: "name" (1.x raw, 2.x with \\\\ and \\" escaped) or hex:...."""
    if value.startswith("hex:"):
        try:
            return bytes.fromhex(value[4:]).decode("utf-8")
        except ValueError:
            return None
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r'\\([\\"])', r"\1", value[1:-1])
    return None


def read_firstrun(text: str, found: Found) -> None:
    lines = text.split("\n")
    if not is_imager_script(lines):
        found.foreign.append(FIRSTRUN)
        found.notes.append("firstrun.sh is not Raspberry Pi Imager's customisation: left on the card as it is "
                           "and not run (the box takes its settings from companion.txt)")
        return
    found.imagers.append(FIRSTRUN)
    keys: list[tuple[str, int]] = []
    ignored = False
    heredoc: str | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if heredoc == "WPAEOF":
            if line == "WPAEOF":
                heredoc = None
            elif line.startswith("country="):
                found.put("wifi_country", line[8:], FIRSTRUN, number)
            elif line.startswith("ssid="):
                ssid = ssid_from_wpa(line[5:])
                if ssid is None:
                    found.notes.append(f"firstrun.sh line {number}: the Wi-Fi name is not UTF-8 text; left out")
                else:
                    found.put("wifi_name", ssid, FIRSTRUN, number)
            elif line.startswith("psk="):
                found.put("wifi_password", line[4:], FIRSTRUN, number)
            elif line == "key_mgmt=NONE":
                found.put("wifi_password", "", FIRSTRUN, number)
            continue
        if heredoc == "EOF":
            if line == "EOF":
                heredoc = None
            elif line:
                keys.append((line, number))
            continue
        if heredoc == "KBEOF":
            heredoc = None if line == "KBEOF" else heredoc
            continue
        custom = CUSTOM_RE.match(line)
        if custom:
            command, args = custom.group(1), words(custom.group(2))
            if args is None:
                found.notes.append(f"firstrun.sh line {number}: its quotes do not close; left out")
            elif command == "set_hostname" and args:
                found.put("hostname", args[0], FIRSTRUN, number)
            elif command == "enable_ssh" and "-k" in args:
                keys += [(k, number) for k in args[args.index("-k") + 1:]]
            elif command == "set_wlan":
                args = args[1:] if args[:1] == ["-h"] else args  # -h: a hidden network (the box scans for it anyway)
                for key, value in zip(("wifi_name", "wifi_password", "wifi_country"), args):
                    found.put(key, value, FIRSTRUN, number)
            elif command == "set_timezone" and args:
                found.put("timezone", args[0], FIRSTRUN, number)
            elif command == "set_keymap":
                ignored = True
            continue
        if line.startswith("cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'"):
            heredoc = "WPAEOF"
        elif line == "cat > \"$FIRSTUSERHOME/.ssh/authorized_keys\" <<'EOF'":
            heredoc = "EOF"
        elif line == "cat >/etc/default/keyboard <<'KBEOF'":
            heredoc = "KBEOF"
            ignored = True
        elif m := re.fullmatch(r"echo (\S+) >/etc/hostname", line):
            found.put("hostname", m.group(1), FIRSTRUN, number)
        elif m := re.fullmatch(r'echo "([^"]*)" >/etc/timezone', line):
            found.put("timezone", m.group(1), FIRSTRUN, number)
        elif m := re.fullmatch(r'install -o "\$FIRSTUSER" -m 600 <\(printf "(.*)"\) "\$FIRSTUSERHOME/\.ssh/authorized_keys"', line):
            keys += [(k.strip(), number) for k in m.group(1).split("\\n") if k.strip()]
        elif line.startswith("/usr/lib/userconf-pi/userconf "):
            ignored |= (words(line) or [])[1:] != ["pi", ""]  # Imager's "no user given" (SSH keys only) says nothing
        elif "chpasswd -e" in line:
            ignored = True
    take_keys(keys, FIRSTRUN, found)
    note_ignored(ignored, FIRSTRUN, found)


def take_keys(keys: list[tuple[str, int]], source: str, found: Found) -> None:
    """The box takes one SSH key (`ssh_key`): the first; the others are said to be left out.
    (Imager writes each key twice in firstrun.sh: its own command, then the fallback.)"""
    unique: dict[str, int] = {}
    for key, number in keys:
        unique.setdefault(key, number)
    keys = list(unique.items())
    if keys:
        found.put("ssh_key", keys[0][0], source, keys[0][1])
    if len(keys) > 1:
        found.notes.append(f"{source}: {len(keys) - 1} more SSH key(s) left out: the box takes one (ssh_key)")


def note_ignored(ignored: bool, source: str, found: Found) -> None:
    if ignored:
        found.notes.append(f"{source}: Imager's keyboard layout, user name and password are not used "
                           "(the box has no keyboard and no login user; SSH takes the key)")


# ---- cloud-init: user-data, network-config, meta-data ---------------------------------------

def unquote_yaml(value: str, escaped: bool) -> str | None:
    """A YAML scalar as Imager writes it: bare, or double-quoted (2.x escapes \\\\ \\" \\n \\t \\xHH ...);
    None when its bytes are not UTF-8 text."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":  # single quotes, as a hand may write them
        return value[1:-1].replace("''", "'")
    if not (len(value) >= 2 and value[0] == value[-1] == '"'):
        return value
    value = value[1:-1]
    if not escaped:
        return value
    simple = {"\\": b"\\", '"': b'"', "n": b"\n", "r": b"\r", "t": b"\t", "b": b"\b", "f": b"\f", "0": b"\0"}
    out = bytearray()
    i = 0
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value) and value[i + 1] in simple:
            out += simple[value[i + 1]]
            i += 2
        elif c == "\\" and re.fullmatch(r"x[0-9a-fA-F]{2}", value[i + 1:i + 4]):
            out.append(int(value[i + 2:i + 4], 16))
            i += 4
        else:
            out += c.encode("utf-8")
            i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def top_keys(lines: list[str]) -> dict[str, tuple[int, str]]:
    """The top-level `key: value` lines (column 0), with their line numbers."""
    keys = {}
    for number, line in enumerate(lines, 1):
        m = re.match(r"^([A-Za-z_][\w-]*):(.*)$", line)
        if m:
            keys.setdefault(m.group(1), (number, m.group(2).strip()))
    return keys


def read_user_data(text: str, found: Found) -> None:
    lines = text.split("\n")
    keys = top_keys(lines)
    if not lines or lines[0].strip() != "#cloud-config" or not set(keys) <= CLOUD_KEYS:
        found.foreign.append(USER_DATA)
        found.notes.append("user-data is not Raspberry Pi Imager's customisation: left on the card as it is "
                           "(the box takes its settings from companion.txt)")
        return
    found.imagers.append(USER_DATA)
    for key in ("hostname", "timezone"):
        if key in keys and keys[key][1]:
            value = unquote_yaml(keys[key][1], True)
            if value is not None:
                found.put(key, value, USER_DATA, keys[key][0])
    ignored = "keyboard" in keys or any(re.match(r"^\s+passwd:", line) for line in lines)
    ssh: list[tuple[str, int]] = []
    inside = False
    for number, line in enumerate(lines, 1):
        if re.match(r"^\s+ssh_authorized_keys:\s*$", line):
            inside = True
        elif inside and (m := re.match(r"^\s+-\s+(.*)$", line)):
            key = unquote_yaml(m.group(1), True)
            if key:
                ssh.append((key, number))
        elif inside:
            inside = False
    take_keys(ssh, USER_DATA, found)
    note_ignored(ignored, USER_DATA, found)


def read_network(text: str, found: Found) -> None:
    lines = text.split("\n")
    keys = top_keys(lines)
    if not keys or not set(keys) <= NETWORK_KEYS:
        found.foreign.append(NETWORK)
        found.notes.append("network-config is not Raspberry Pi Imager's customisation: left on the card as it is")
        return
    found.imagers.append(NETWORK)
    if "wifi_name" in found.settings:  # a newer form of Imager's on the same card gave the network already
        return
    escaped = "network" in keys  # 2.x escapes the SSID and the key; 1.x wrote them as typed
    point_indent = None
    for number, line in enumerate(lines, 1):
        indent = len(line) - len(line.lstrip(" "))
        stripped = line.strip()
        if m := re.fullmatch(r"regulatory-domain:\s*(.+)", stripped):
            found.put("wifi_country", unquote_yaml(m.group(1), escaped) or "", NETWORK, number)
        elif stripped == "access-points:":
            point_indent = indent
        elif point_indent is not None and indent > point_indent and stripped.endswith(":") and "wifi_name" not in found.settings:
            # the first access point's name (Imager writes one)
            ssid = unquote_yaml(stripped[:-1], escaped)
            if ssid is None:
                found.notes.append(f"network-config line {number}: the Wi-Fi name is not UTF-8 text; left out")
                return
            found.put("wifi_name", ssid, NETWORK, number)
            point_indent = indent
        elif point_indent is not None and indent > point_indent and (m := re.fullmatch(r"password:\s*(.*)", stripped)):
            found.put("wifi_password", unquote_yaml(m.group(1), escaped) or "", NETWORK, number)
        elif point_indent is not None and indent > point_indent and stripped == "key-management: none":
            found.put("wifi_password", "", NETWORK, number)


def read_meta(text: str, found: Found) -> None:
    if re.fullmatch(r"instance-id: rpi-imager-\d+\n?", text):
        found.imagers.append(META)
    else:
        found.foreign.append(META)


# ---- rpi-preseed.toml -----------------------------------------------------------------------

def read_preseed(text: str, found: Found) -> None:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        doc = {}
    if "config_version" not in doc:
        found.foreign.append(PRESEED)
        found.notes.append("rpi-preseed.toml is not Raspberry Pi Imager's customisation: left on the card as it is")
        return
    found.imagers.append(PRESEED)
    lines = text.split("\n")

    def line_of(section: str, key: str) -> int:
        current = ""
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped.startswith("["):
                current = stripped.strip("[] ")
            elif current == section and re.match(rf"{re.escape(key)}\s*=", stripped):
                return number
        return 0

    def put(key: str, section: str, name: str) -> None:
        value = doc.get(section, {}).get(name) if isinstance(doc.get(section), dict) else None
        if isinstance(value, str):
            found.put(key, value, PRESEED, line_of(section, name))

    put("hostname", "system", "hostname")
    put("timezone", "locale", "timezone")
    wlan = doc.get("wlan") if isinstance(doc.get("wlan"), dict) else {}
    if isinstance(wlan.get("ssid_hex"), str) and "ssid" not in wlan:
        try:
            found.put("wifi_name", bytes.fromhex(wlan["ssid_hex"]).decode("utf-8"), PRESEED, line_of("wlan", "ssid_hex"))
        except ValueError:
            found.notes.append("rpi-preseed.toml: the Wi-Fi name is not UTF-8 text; left out")
    put("wifi_name", "wlan", "ssid")
    if "wifi_name" in found.settings:
        put("wifi_password", "wlan", "password")
        found.put("wifi_password", "", PRESEED, line_of("wlan", "ssid"))  # none given: an open network
    put("wifi_country", "wlan", "country")
    ssh = doc.get("ssh") if isinstance(doc.get("ssh"), dict) else {}
    keys = [k for k in ssh.get("authorized_keys", []) if isinstance(k, str) and k.strip()] if isinstance(
        ssh.get("authorized_keys"), list) else []
    take_keys([(k.strip(), line_of("ssh", "authorized_keys")) for k in keys], PRESEED, found)
    locale, user = doc.get("locale"), doc.get("user")
    ignored = (isinstance(locale, dict) and "keymap" in locale) or (isinstance(user, dict) and "password" in user)
    note_ignored(ignored, PRESEED, found)


# ---- cmdline.txt ----------------------------------------------------------------------------

def runs_firstrun(cmdline: str) -> bool:
    """This command line boots into Imager's first-run target (never the kiosk)."""
    return any(token in RUN_TOKENS for token in cmdline.split())


def clean_cmdline(text: str, imager_seen: bool = False) -> str:
    """`cmdline.txt` without Imager's additions: its systemd.run words, its cloud-init instance and
    (when Imager's hand is otherwise seen) its Wi-Fi regulatory domain. One line, as the firmware reads it."""
    tokens = text.split()
    seen = imager_seen or any(t in RUN_TOKENS or NOCLOUD_RE.fullmatch(t) for t in tokens)
    kept = [t for t in tokens
            if t not in RUN_TOKENS and not NOCLOUD_RE.fullmatch(t) and not (seen and REGDOM_RE.fullmatch(t))]
    if kept == tokens:
        return text
    return " ".join(kept) + "\n"


def reboot_needed(booted: str, on_card: str) -> bool:
    """This boot (`/proc/cmdline`) is Imager's first-run boot and the card's `cmdline.txt` no longer is:
    reboot once (`systemctl --no-block reboot`). Never when the card still says so (no reboot loop)."""
    return runs_firstrun(booted) and not runs_firstrun(on_card)


def must_reboot(fat: Path, proc_cmdline: Path = Path("/proc/cmdline")) -> bool:
    """After `tidy`: this boot is Imager's first-run boot and the card's `cmdline.txt` is clean (see reboot_needed)."""
    try:
        return reboot_needed(proc_cmdline.read_text("utf-8", "replace"), text_of((fat / CMDLINE).read_bytes()))
    except OSError:
        return False


# ---- the whole FAT --------------------------------------------------------------------------

READERS = {PRESEED: read_preseed, FIRSTRUN: read_firstrun, USER_DATA: read_user_data,
           NETWORK: read_network, META: read_meta}


def parse(files: dict[str, bytes]) -> Found:
    """Imager's settings from the FAT's files (name -> bytes; any may be absent). Pure: reads nothing."""
    found = Found()
    for name, read in READERS.items():  # rpi-preseed first: the newest form wins if several are there
        raw = files.get(name)
        if raw is None:
            continue
        if scrubbed(raw):
            found.imagers.append(name)  # scrubbed by an earlier boot a power cut stopped: remove it now
            continue
        read(text_of(raw[:MAX_BYTES]), found)
    cmdline = text_of(files.get(CMDLINE, b""))
    imager_seen = bool(found.imagers) or runs_firstrun(cmdline) or bool(NOCLOUD_RE.search(cmdline))
    regdom = REGDOM_RE.search(cmdline)
    if imager_seen and regdom and regdom.group(1):
        found.put("wifi_country", regdom.group(1), CMDLINE, 1)
    return found


def read_fat(fat: Path) -> dict[str, bytes]:
    """Imager's files and `cmdline.txt` from the FAT directory, those that are there."""
    files = {}
    for name in IMAGER_FILES + (CMDLINE,):
        try:
            with open(fat / name, "rb") as f:
                files[name] = f.read(MAX_BYTES + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            pass
    return files


def imager_settings(fat: Path) -> Found:
    """What Raspberry Pi Imager left on the FAT at `fat` (reads only)."""
    return parse(read_fat(fat))


def overwrite(path: Path) -> None:
    """Every byte of the file overwritten in place (the same clusters) and synced: no secret stays readable."""
    try:
        f = open(path, "r+b")
    except FileNotFoundError:
        return
    with f:
        size = f.seek(0, os.SEEK_END)
        f.seek(0)
        f.write(SCRUB_BYTE * size)
        f.flush()
        os.fsync(f.fileno())


def tidy(fat: Path, found: Found) -> list[str]:
    """After the settings are applied: Imager's files overwritten, `cmdline.txt` rewritten without
    Imager's words (a synced temporary file renamed over it: a power cut leaves the old or the new,
    both boot), then the files removed. Each step can be redone: a power cut anywhere is finished
    by the next boot. Returns what it did, one line each."""
    done = []
    for name in found.imagers:
        overwrite(fat / name)
    cmdline = fat / CMDLINE
    try:
        text = text_of(cmdline.read_bytes())
    except FileNotFoundError:
        text = None
    if text is not None:
        clean = clean_cmdline(text, imager_seen=bool(found.imagers))
        if clean != text:
            atomic_write_text(cmdline, clean)
            done.append("cmdline.txt: Raspberry Pi Imager's additions taken out")
    for name in found.imagers:
        (fat / name).unlink(missing_ok=True)
    if found.imagers:
        fd = os.open(fat, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        done.append(f"Raspberry Pi Imager's {', '.join(found.imagers)} applied, overwritten and removed")
    return done
