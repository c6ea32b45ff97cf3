"""Raspberry Pi Imager's OS customisation on the card's FAT (companion.box.imager): read as settings-card
entries, left alone when it is not Imager's, then scrubbed, removed and taken out of cmdline.txt.

The fixtures are what Imager's own source writes: tests/box/imager_outputs.py ports its generators
(its docstring names the files and commits).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from companion.box import card as C
from companion.box import imager as I
from tests.box.imager_outputs import (CRYPT, IMAGE_CMDLINE, KEY1, KEY2, RUN_WORDS, cloud_1x, cloud_2x, firstrun_1x,
                                      firstrun_2x, imager_cmdline, imager_writes, pbkdf2, preseed_2x)


def fat_with(tmp: Path, files: dict[str, str | bytes]) -> Path:
    fat = tmp / "fat"
    fat.mkdir(exist_ok=True)
    for name, text in files.items():
        (fat / name).write_bytes(text.encode() if isinstance(text, str) else text)
    return fat


def values(found: I.Found) -> dict[str, str]:
    return {k: s.value for k, s in found.settings.items()}


def box_at(tmp: Path) -> C.Box:
    zoneinfo = tmp / "zoneinfo"
    (zoneinfo / "Europe").mkdir(parents=True, exist_ok=True)
    (zoneinfo / "Europe" / "Rome").write_bytes(b"TZif")
    (zoneinfo / "iso3166.tab").write_text("#code\tname\nIT\tItaly\nDE\tGermany\n")
    return C.Box(card=tmp / "fat" / "companion.txt", data=tmp / "data", state=tmp / "state",
                 config=tmp / "config.yaml", zoneinfo=zoneinfo, problems=tmp / "problems.json", console=None)


SSID = "Casa Rossi"
PASS = "correct horse battery"
PSK = pbkdf2(PASS, SSID.encode())


# ---- each of Imager's forms gives the settings ------------------------------------------------

def test_firstrun_2x_gives_the_settings_and_says_what_it_leaves_out(tmp_path):
    script = firstrun_2x(hostname="tavolo", user="anna", password=CRYPT, keys=(KEY1, KEY2), ssid=SSID.encode(),
                         passphrase=PASS, country="IT", keyboard="it", timezone="Europe/Rome")
    found = I.parse({"firstrun.sh": script.encode(), "cmdline.txt": imager_cmdline(IMAGE_CMDLINE, "IT", "systemd").encode()})
    assert values(found) == {"hostname": "tavolo", "ssh_key": KEY1, "wifi_name": SSID, "wifi_password": PSK,
                             "wifi_country": "IT", "timezone": "Europe/Rome"}
    assert found.settings["hostname"].where() == "firstrun.sh line 7"
    assert found.imagers == ["firstrun.sh"] and found.foreign == []
    assert found.notes == ["firstrun.sh: 1 more SSH key(s) left out: the box takes one (ssh_key)",
                           "firstrun.sh: Imager's keyboard layout, user name and password are not used "
                           "(the box has no keyboard and no login user; SSH takes the key)"]
    # what the settings card does with them: every value passes its check, the pre-hashed key is the WPA key
    entries = {k: C.Entry(s.line, k, s.value) for k, s in found.settings.items()}
    good, problems = C.checked(entries, box_at(tmp_path))
    assert problems == []
    assert f"\tpsk={PSK}" in C.wpa_conf(C.merge({}, good)).split("\n")


def test_firstrun_1x_bash_gives_the_same(tmp_path):
    script = firstrun_1x("tavolo", "anna", CRYPT, [KEY1], SSID, PASS, "DE", True, "de", "Europe/Rome")
    found = I.parse({"firstrun.sh": script.encode()})
    assert values(found) == {"hostname": "tavolo", "ssh_key": KEY1, "wifi_name": SSID, "wifi_password": PSK,
                             "wifi_country": "DE", "timezone": "Europe/Rome"}
    assert len(found.notes) == 1 and "keyboard layout, user name and password are not used" in found.notes[0]


def test_ssh_keys_alone_say_nothing_of_a_user():
    """With keys and no user, Imager still writes `userconf 'pi' ''` (2.x) or a `user:` block (cloud-init)."""
    assert I.parse({"firstrun.sh": firstrun_2x(keys=(KEY1,)).encode()}).notes == []
    user_data, _ = cloud_2x(keys=(KEY1,))
    found = I.parse({"user-data": user_data.encode()})
    assert found.notes == [] and values(found) == {"ssh_key": KEY1}


def test_firstrun_without_imager_custom_lines_uses_the_fallbacks():
    """Each setting is written twice (imager_custom, then the plain fallback); the fallback alone is enough."""
    script = firstrun_2x(hostname="tavolo", keys=(KEY1,), ssid=SSID.encode(), passphrase=PASS, country="IT",
                         timezone="Europe/Rome")
    lines = [ln for ln in script.split("\n") if "/usr/lib/raspberrypi-sys-mods/imager_custom " not in ln]
    found = I.parse({"firstrun.sh": "\n".join(lines).encode()})
    assert values(found) == {"hostname": "tavolo", "ssh_key": KEY1, "wifi_name": SSID, "wifi_password": PSK,
                             "wifi_country": "IT", "timezone": "Europe/Rome"}
    old = firstrun_1x("tavolo", "anna", CRYPT, [KEY1, KEY2], SSID, PASS, "DE", False, "de", "Europe/Rome")
    old = "\n".join(ln for ln in old.split("\n") if "/usr/lib/raspberrypi-sys-mods/imager_custom " not in ln)
    assert values(I.parse({"firstrun.sh": old.encode()}))["ssh_key"] == KEY1  # from printf "k1\nk2"


def test_cloud_init_1x_for_a_custom_image_takes_the_country_from_cmdline():
    user_data, network = cloud_1x("tavolo", "anna", CRYPT, [KEY1], SSID, PASS, False, "it", "Europe/Rome")
    found = I.parse({"user-data": user_data.encode(), "network-config": network.encode(),
                     "cmdline.txt": imager_cmdline(IMAGE_CMDLINE, "IT", "").encode()})
    assert values(found) == {"hostname": "tavolo", "timezone": "Europe/Rome", "ssh_key": KEY1, "wifi_name": SSID,
                             "wifi_password": PSK, "wifi_country": "IT"}
    assert found.settings["wifi_country"].where() == "cmdline.txt line 1"
    assert sorted(found.imagers) == ["network-config", "user-data"]


def test_cloud_init_2x_with_meta_data_and_an_escaped_ssid():
    ssid = 'Casa "Rossi" l\'orto \\ è'.encode()
    user_data, network = cloud_2x(hostname="tavolo", user="anna", password=CRYPT, keys=(KEY1,), ssid=ssid,
                                  passphrase=PASS, country="it", hidden=True, keyboard="it", timezone="Europe/Rome")
    found = I.parse({"user-data": user_data.encode(), "network-config": network.encode(),
                     "meta-data": b"instance-id: rpi-imager-1764330000123\n",
                     "cmdline.txt": imager_cmdline(IMAGE_CMDLINE, "IT", "cloudinit").encode()})
    assert values(found) == {"hostname": "tavolo", "timezone": "Europe/Rome", "ssh_key": KEY1,
                             "wifi_country": "IT", "wifi_name": ssid.decode(), "wifi_password": pbkdf2(PASS, ssid)}
    assert sorted(found.imagers) == ["meta-data", "network-config", "user-data"]
    script = firstrun_2x(ssid=ssid, passphrase=PASS, country="IT")  # the same name through the shell's quotes
    assert values(I.parse({"firstrun.sh": script.encode()}))["wifi_name"] == ssid.decode()


def test_rpi_preseed_toml():
    text = preseed_2x("tavolo", "anna", CRYPT, [KEY1, KEY2], SSID.encode(), PSK, "IT", "it", "Europe/Rome")
    found = I.parse({"rpi-preseed.toml": text.encode()})
    assert values(found) == {"hostname": "tavolo", "timezone": "Europe/Rome", "wifi_name": SSID, "wifi_password": PSK,
                             "wifi_country": "IT", "ssh_key": KEY1}
    assert found.settings["hostname"].where() == "rpi-preseed.toml line 4"
    assert found.imagers == ["rpi-preseed.toml"]


@pytest.mark.parametrize("form", ["firstrun", "cloud", "preseed"])
def test_an_open_network_clears_the_passphrase(form):
    if form == "firstrun":
        files = {"firstrun.sh": firstrun_2x(ssid=b"Bar", country="IT")}
    elif form == "cloud":
        files = dict(zip(("user-data", "network-config"), cloud_2x(ssid=b"Bar", country="IT")))
    else:
        files = {"rpi-preseed.toml": preseed_2x("t", "a", CRYPT, [], b"Bar", "", "IT", "it", "UTC")}
    found = I.parse({k: v.encode() for k, v in files.items()})
    assert values(found)["wifi_name"] == "Bar" and values(found)["wifi_password"] == ""


def test_hand_edited_yaml_in_single_quotes():
    user_data, network = cloud_2x(hostname="tavolo", ssid=b"Bar", passphrase=PASS, timezone="Europe/Rome")
    user_data = user_data.replace("hostname: tavolo", "hostname: 'tavolo'").replace("timezone: Europe/Rome", 'timezone: "Europe/Rome"')
    network = network.replace('"Bar":', "'Bar''s':")
    found = I.parse({"user-data": user_data.encode(), "network-config": network.encode()})
    assert values(found) == {"hostname": "tavolo", "timezone": "Europe/Rome", "wifi_name": "Bar's",
                             "wifi_password": pbkdf2(PASS, b"Bar")}


def test_an_empty_country_says_nothing():
    """Imager 1.x always writes `country=` in its wpa_supplicant block, empty when none was chosen."""
    script = firstrun_1x("tavolo", "anna", CRYPT, [KEY1], SSID, PASS, "", False, "it", "Europe/Rome")
    assert "wifi_country" not in I.parse({"firstrun.sh": script.encode()}).settings
    assert "wifi_country" not in I.parse({"firstrun.sh": firstrun_2x(ssid=b"Bar", passphrase=PASS).encode()}).settings


def test_a_wifi_name_that_is_not_text_is_left_out_with_a_note():
    ssid = b"caf\xe9"  # Latin-1: no UTF-8 text for companion.txt's wifi_name
    found = I.parse({"firstrun.sh": firstrun_2x(ssid=ssid, passphrase=PASS, country="IT").encode()})
    assert "wifi_name" not in found.settings and any("not UTF-8" in n for n in found.notes)
    _, network = cloud_2x(ssid=ssid, passphrase=PASS)
    found = I.parse({"network-config": network.encode()})
    assert "wifi_name" not in found.settings and any("not UTF-8" in n for n in found.notes)


def test_companion_txts_own_lines_win_and_the_network_goes_as_a_pair():
    found = I.parse({"firstrun.sh": firstrun_2x(hostname="tavolo", ssid=SSID.encode(), passphrase=PASS,
                                                country="IT", timezone="Europe/Rome").encode()})
    assert set(found.beside({"hostname"})) == {"wifi_name", "wifi_password", "wifi_country", "timezone"}
    assert set(found.beside({"wifi_password", "timezone"})) == {"hostname", "wifi_country"}
    assert set(found.beside({})) == set(found.settings)


# ---- cmdline.txt and the reboot -----------------------------------------------------------------

@pytest.mark.parametrize("how", ["systemd", "cloudinit", ""])
def test_clean_cmdline_gives_back_the_images_line(how):
    written = imager_cmdline(IMAGE_CMDLINE, "IT", how)
    assert I.clean_cmdline(written, imager_seen=True) == IMAGE_CMDLINE
    assert I.clean_cmdline(IMAGE_CMDLINE, imager_seen=True) == IMAGE_CMDLINE  # nothing to do: untouched


def test_clean_cmdline_keeps_what_is_not_imagers():
    own = "root=LABEL=clans-root ro systemd.run=/usr/bin/true quiet cfg80211.ieee80211_regdom=DE\n"
    assert I.clean_cmdline(own) == own  # a regdom of the table's own is kept when Imager is nowhere
    assert I.clean_cmdline(own.strip() + RUN_WORDS) == "root=LABEL=clans-root ro systemd.run=/usr/bin/true quiet\n"
    crlf = (IMAGE_CMDLINE.strip() + RUN_WORDS).replace(" ", "  ") + "\r\n"
    assert I.clean_cmdline(crlf) == IMAGE_CMDLINE


def test_reboot_once_only_when_this_boot_is_imagers_and_the_card_is_clean():
    booted = imager_cmdline(IMAGE_CMDLINE, "IT", "systemd")
    assert I.reboot_needed(booted, IMAGE_CMDLINE)
    assert not I.reboot_needed(booted, booted)  # the card could not be cleaned: no reboot loop
    assert not I.reboot_needed(IMAGE_CMDLINE, IMAGE_CMDLINE)
    assert not I.reboot_needed(imager_cmdline(IMAGE_CMDLINE, "IT", "cloudinit"), IMAGE_CMDLINE)


def test_must_reboot_reads_this_boots_line_and_the_cards(tmp_path):
    fat = imager_card(tmp_path)
    proc = tmp_path / "proc-cmdline"
    proc.write_text(imager_cmdline(IMAGE_CMDLINE, "IT", "systemd") + "\n")
    assert not I.must_reboot(fat, proc)  # not tidied yet: the card would boot the same way again
    I.tidy(fat, I.imager_settings(fat))
    assert I.must_reboot(fat, proc)
    proc.write_text(IMAGE_CMDLINE)
    assert not I.must_reboot(fat, proc) and not I.must_reboot(tmp_path / "nowhere", proc)


# ---- tidy: scrubbed, removed, cmdline.txt rewritten -----------------------------------------------

def imager_card(tmp: Path) -> Path:
    script = firstrun_2x(hostname="tavolo", keys=(KEY1,), ssid=SSID.encode(), passphrase=PASS, country="IT",
                         timezone="Europe/Rome")
    return fat_with(tmp, {"firstrun.sh": script, "cmdline.txt": imager_cmdline(IMAGE_CMDLINE, "IT", "systemd"),
                          "companion.txt": "# hostname = clans\n"})


def test_tidy_overwrites_in_place_removes_and_restores_cmdline(tmp_path):
    fat = imager_card(tmp_path)
    other_name = tmp_path / "same-inode"
    os.link(fat / "firstrun.sh", other_name)  # sees the file's own blocks after its name is gone
    found = I.imager_settings(fat)
    done = I.tidy(fat, found)
    assert sorted(p.name for p in fat.iterdir()) == ["cmdline.txt", "companion.txt"]
    assert (fat / "cmdline.txt").read_text() == IMAGE_CMDLINE
    blocks = other_name.read_bytes()
    assert blocks and set(blocks) == {ord("#")} and PSK.encode() not in blocks
    assert done == ["cmdline.txt: Raspberry Pi Imager's additions taken out",
                    "Raspberry Pi Imager's firstrun.sh applied, overwritten and removed"]
    assert I.imager_settings(fat).settings == {} and I.tidy(fat, I.imager_settings(fat)) == []


@pytest.mark.parametrize("form", ["systemd", "cloudinit"])
def test_what_the_image_test_writes_is_taken_and_tidied(tmp_path, form):
    fat = fat_with(tmp_path, imager_writes(form, IMAGE_CMDLINE))
    found = I.imager_settings(fat)
    assert values(found) == {"hostname": "tavolo", "ssh_key": KEY1, "wifi_name": SSID, "wifi_password": PSK,
                             "wifi_country": "IT", "timezone": "Europe/Rome"}
    assert len(found.notes) == 1 and found.foreign == []
    I.tidy(fat, found)
    assert [p.name for p in fat.iterdir()] == ["cmdline.txt"] and (fat / "cmdline.txt").read_text() == IMAGE_CMDLINE


def test_a_power_cut_after_the_scrub_is_finished_by_the_next_boot(tmp_path, monkeypatch):
    fat = imager_card(tmp_path)
    found = I.imager_settings(fat)
    monkeypatch.setattr(I, "atomic_write_text", lambda *a, **k: (_ for _ in ()).throw(OSError(5, "power cut")))
    with pytest.raises(OSError):
        I.tidy(fat, found)
    assert set((fat / "firstrun.sh").read_bytes()) == {ord("#")}  # scrubbed, still there
    assert (fat / "cmdline.txt").read_text() == imager_cmdline(IMAGE_CMDLINE, "IT", "systemd")  # the old line: boots
    monkeypatch.undo()
    again = I.imager_settings(fat)
    assert again.imagers == ["firstrun.sh"] and again.foreign == [] and again.notes == []
    I.tidy(fat, again)
    assert sorted(p.name for p in fat.iterdir()) == ["cmdline.txt", "companion.txt"]
    assert (fat / "cmdline.txt").read_text() == IMAGE_CMDLINE


def test_a_power_cut_in_the_cmdline_rename_leaves_a_whole_file(tmp_path, monkeypatch):
    fat = imager_card(tmp_path)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(5, "power cut")))
    with pytest.raises(OSError):
        I.tidy(fat, I.imager_settings(fat))
    assert (fat / "cmdline.txt").read_text() == imager_cmdline(IMAGE_CMDLINE, "IT", "systemd")
    assert sorted(p.name for p in fat.iterdir()) == ["cmdline.txt", "companion.txt", "firstrun.sh"]


def test_a_script_that_is_not_imagers_is_left_alone_but_the_boot_is_freed(tmp_path):
    own = "#!/bin/bash\n# my own first boot\necho hello > /root/hello\n"
    fat = fat_with(tmp_path, {"firstrun.sh": own, "cmdline.txt": IMAGE_CMDLINE.strip() + RUN_WORDS,
                              "user-data": "#!/bin/sh\necho cloud\n"})
    found = I.imager_settings(fat)
    assert found.settings == {} and found.imagers == [] and sorted(found.foreign) == ["firstrun.sh", "user-data"]
    assert found.notes[0].startswith("firstrun.sh is not Raspberry Pi Imager's customisation: left on the card")
    I.tidy(fat, found)
    assert (fat / "firstrun.sh").read_text() == own and (fat / "user-data").exists()
    assert (fat / "cmdline.txt").read_text() == IMAGE_CMDLINE


# ---- hostile input -------------------------------------------------------------------------------

def mutate(rng: random.Random, raw: bytes) -> bytes:
    text = raw
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(7)
        lines = text.split(b"\n")
        i = rng.randrange(len(lines))
        if op == 0:
            text = text.replace(b"\n", b"\r\n")
        elif op == 1:
            text = b"\xef\xbb\xbf" + text
        elif op == 2:
            del lines[i]
            text = b"\n".join(lines)
        elif op == 3:
            lines[i] = lines[i].replace(b"'", b"").replace(b'"', b"'")  # odd quoting
            text = b"\n".join(lines)
        elif op == 4:
            text = text[: rng.randrange(len(text) + 1)]  # cut short
        elif op == 5:
            pos = rng.randrange(len(text) + 1)
            text = text[:pos] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))) + text[pos:]
        else:
            lines.insert(i, rng.choice([b"EOF", b"WPAEOF", b"  - \"", b"access-points:", b"[wlan]", b"ssid = \"",
                                        b"/usr/lib/raspberrypi-sys-mods/imager_custom set_wlan 'a", b"-h"]))
            text = b"\n".join(lines)
    return text


def test_fuzz_never_raises_and_gives_only_card_keys(tmp_path):
    rng = random.Random(40)
    ssid = SSID.encode()
    u1, n1 = cloud_1x("tavolo", "anna", CRYPT, [KEY1], SSID, PASS, True, "it", "Europe/Rome")
    u2, n2 = cloud_2x(hostname="tavolo", user="anna", password=CRYPT, keys=(KEY1,), ssid=ssid, passphrase=PASS,
                      country="IT", keyboard="it", timezone="Europe/Rome")
    sources = {
        "firstrun.sh": [firstrun_2x(hostname="tavolo", user="anna", password=CRYPT, keys=(KEY1, KEY2), ssid=ssid,
                                    passphrase=PASS, country="IT", hidden=True, keyboard="it", timezone="Europe/Rome"),
                        firstrun_1x("tavolo", "anna", CRYPT, [KEY1], SSID, PASS, "DE", True, "de", "Europe/Rome")],
        "user-data": [u1, u2], "network-config": [n1, n2],
        "rpi-preseed.toml": [preseed_2x("tavolo", "anna", CRYPT, [KEY1], ssid, PSK, "IT", "it", "Europe/Rome")],
        "meta-data": ["instance-id: rpi-imager-1764330000123\n"],
        "cmdline.txt": [imager_cmdline(IMAGE_CMDLINE, "IT", "systemd"), imager_cmdline(IMAGE_CMDLINE, "IT", "cloudinit")],
    }
    for n in range(200):
        files = {name: mutate(rng, rng.choice(texts).encode()) for name, texts in sources.items() if rng.random() < 0.6}
        found = I.parse(files)
        assert set(found.settings) <= set(C.KEYS)
        assert all(isinstance(s.value, str) and s.where() for s in found.settings.values())
        assert not set(found.imagers) & set(found.foreign)
        assert all("\n" not in note for note in found.notes)
        fat = tmp_path / f"fat{n}"
        fat.mkdir()
        for name, raw in files.items():
            (fat / name).write_bytes(raw)
        I.tidy(fat, I.imager_settings(fat))
        left = {p.name for p in fat.iterdir()}
        assert not left & set(found.imagers)
        if "cmdline.txt" in left:
            assert not I.runs_firstrun((fat / "cmdline.txt").read_text("utf-8", "replace"))
