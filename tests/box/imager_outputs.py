"""What Raspberry Pi Imager writes on a card's FAT for its OS customisation, made by Python ports of
Imager's own generators, line for line with the same template strings (for tests/box/test_imager.py
and the image's boot test), from raspberrypi/rpi-imager:
- 2.x: commit 72ad1179ff46a8355291898416fe65cbe6bbd450 (after v2.0.11.1), src/customization_generator.cpp
  (generateSystemdScript, generateCloudInitUserData, generateCloudInitNetworkConfig,
  generateRpiPreseedToml), src/imagewriter.cpp (cfg80211.ieee80211_regdom) and src/downloadthread.cpp
  (_customizeImage: the systemd.run words, `ds=nocloud;i=`, meta-data, the `#cloud-config` line).
- 1.x: tag v1.8.5, commit 06abbadbb501869c29076df0f0409b977869e992, src/OptionsPopup.qml (applySettings)
  and src/downloadthread.cpp (the same cmdline words; a custom image gets the cloud-init files).
"""

from __future__ import annotations

import hashlib

IMAGE_CMDLINE = "console=tty0 console=ttyS1,115200 root=LABEL=clans-root ro rootwait\n"
KEY1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHKbdZ4s5a2dQ4QvhQx0m2y0gZ0U5s0mJb6r8yqN3l2k anna@laptop"
KEY2 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBn2rj8lqXbq7yIh1o9k3dX0y7o2cH5c7c1k0mYwz7Xx anna@phone"
CRYPT = "$y$j9T$abcdefghijklmnop$0123456789abcdefghijklmnopqrstuvwxyzABCDE"
RUN_WORDS = " systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot systemd.unit=kernel-command-line.target"


def shell_quote(v: str) -> str:  # CustomisationGenerator::shellQuote / escapeshellarg in OptionsPopup.qml
    return "'" + v.replace("'", "'\"'\"'") + "'"


def pbkdf2(passphrase: str, ssid: bytes) -> str:  # CustomisationGenerator::pbkdf2
    return hashlib.pbkdf2_hmac("sha1", passphrase.encode(), ssid, 4096, 32).hex()


def crypted_psk(passphrase: str, ssid: bytes) -> str:  # resolveWifiPskCrypt
    return pbkdf2(passphrase, ssid) if 8 <= len(passphrase) < 64 else passphrase


def wpa_ssid_field(ssid: bytes) -> str:  # wpaSupplicantSsidField
    try:
        ssid.decode("utf-8")
        needs_hex = any(b < 0x20 or b == 0x7F or b in b'\\"' for b in ssid)
    except UnicodeDecodeError:
        needs_hex = True
    if needs_hex:
        return "\tssid=hex:" + ssid.hex()
    return '\tssid="' + ssid.decode().replace("\\", "\\\\").replace('"', '\\"') + '"'


def hostname_and_user(hostname: str, subst: str) -> str:
    """The host name block (when there is a name) and the first user's lookup: 1.x with `...`, 2.x with $(...)."""
    named = [
        "CURRENT_HOSTNAME=" + subst.format("cat /etc/hostname | tr -d \" \\t\\n\\r\""),
        "if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then",
        "   /usr/lib/raspberrypi-sys-mods/imager_custom set_hostname " + hostname,
        "else",
        "   echo " + hostname + " >/etc/hostname",
        "   sed -i \"s/127.0.1.1.*$CURRENT_HOSTNAME/127.0.1.1\\t" + hostname + "/g\" /etc/hosts",
        "fi"] if hostname else []
    lines = named + ["FIRSTUSER=" + subst.format("getent passwd 1000 | cut -d: -f1"),
                     "FIRSTUSERHOME=" + subst.format("getent passwd 1000 | cut -d: -f6")]
    return "".join(x + "\n" for x in lines)


def firstrun_2x(hostname="", user="", password="", keys=(), ssid=b"", passphrase="", country="",
                hidden=False, keyboard="", timezone="") -> str:
    """generateSystemdScript (2.x)."""
    s = ""

    def line(text: str) -> None:
        nonlocal s
        s += text + "\n"

    line("#!/bin/sh"); line(""); line("set +e"); line("")
    s += hostname_and_user(hostname, "$({})")
    if keys:
        line("if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then")
        line("   /usr/lib/raspberrypi-sys-mods/imager_custom enable_ssh -k" + "".join(" " + shell_quote(k) for k in keys))
        line("else")
        line("   install -o \"$FIRSTUSER\" -m 700 -d \"$FIRSTUSERHOME/.ssh\"")
        line("cat > \"$FIRSTUSERHOME/.ssh/authorized_keys\" <<'EOF'")
        line("\n".join(keys))
        line("EOF")
        line("   chown \"$FIRSTUSER:$FIRSTUSER\" \"$FIRSTUSERHOME/.ssh/authorized_keys\"")
        line("   chmod 600 \"$FIRSTUSERHOME/.ssh/authorized_keys\"")
        line("   echo 'PasswordAuthentication no' >>/etc/ssh/sshd_config")
        line("   systemctl enable ssh")
        line("fi")
    if user or password or keys:
        effective = user or "pi"
        line("if [ -f /usr/lib/userconf-pi/userconf ]; then")
        line("   /usr/lib/userconf-pi/userconf " + shell_quote(effective) + " " + shell_quote(password))
        line("else")
        if password:
            line("   echo \"$FIRSTUSER:" + password + "\" | chpasswd -e")
        line("   if [ \"$FIRSTUSER\" != \"" + effective + "\" ]; then")
        line("      usermod -l \"" + effective + "\" \"$FIRSTUSER\"")
        # Imager's own script text, as its source writes it onto the card: a path on the Pi, not here
        line("      usermod -m -d \"/home/" + effective + "\" \"" + effective + "\"")
        line("      groupmod -n \"" + effective + "\" \"$FIRSTUSER\"")
        line("   fi")
        line("fi")
    if ssid:
        psk = crypted_psk(passphrase, ssid) if passphrase else ""
        try:
            use_custom = b"\0" not in ssid and bool(ssid.decode("utf-8"))
        except UnicodeDecodeError:
            use_custom = False
        line("if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ] && " + ("true" if use_custom else "false") + "; then")
        if use_custom:
            cmd = "   /usr/lib/raspberrypi-sys-mods/imager_custom set_wlan "
            if hidden:
                cmd += " -h "
            line(cmd + shell_quote(ssid.decode()) + " " + shell_quote(psk) + " " + shell_quote(country))
        line("else")
        s += "cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'\n"
        if country:
            s += "country=" + country + "\n"
        s += "ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\n" + "ap_scan=1\n\n" + "update_config=1\n"
        s += "network={\n" + ("\tscan_ssid=1\n" if hidden else "") + wpa_ssid_field(ssid) + "\n"
        s += "\tkey_mgmt=NONE\n" if not psk else "\tkey_mgmt=WPA-PSK SAE\n" + "\tpsk=" + psk + "\n" + "\tieee80211w=1\n"
        s += "}\n" + "WPAEOF\n"
        line("   chmod 600 /etc/wpa_supplicant/wpa_supplicant.conf")
        line("   rfkill unblock wifi")
        line("   for filename in /var/lib/systemd/rfkill/*:wlan ; do")
        line("       echo 0 > $filename")
        line("   done")
        line("fi")
    if keyboard or timezone:
        line("if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then")
        if keyboard:
            line("   /usr/lib/raspberrypi-sys-mods/imager_custom set_keymap " + shell_quote(keyboard))
        if timezone:
            line("   /usr/lib/raspberrypi-sys-mods/imager_custom set_timezone " + shell_quote(timezone))
        line("else")
        if timezone:
            line("   rm -f /etc/localtime")
            line("   echo \"" + timezone + "\" >/etc/timezone")
            line("   dpkg-reconfigure -f noninteractive tzdata")
        if keyboard:
            line("cat >/etc/default/keyboard <<'KBEOF'")
            line("XKBMODEL=\"pc105\"")
            line("XKBLAYOUT=\"" + keyboard + "\"")
            line("XKBVARIANT=\"\"")
            line("XKBOPTIONS=\"\"")
            line("")
            line("KBEOF")
            line("   dpkg-reconfigure -f noninteractive keyboard-configuration")
        line("fi")
    line("rm -f /boot/firstrun.sh")
    line("sed -i 's| systemd.run.*||g' /boot/cmdline.txt")
    line("exit 0")
    return s


def firstrun_1x(hostname, user, password, keys, ssid, passphrase, country, hidden, keyboard, timezone) -> str:
    """OptionsPopup.qml applySettings (1.8.5): the firstrun script (bash)."""
    fr = ""

    def add(text: str) -> None:
        nonlocal fr
        fr += text + "\n"

    fr += hostname_and_user(hostname, "`{}`")
    pubkey = "\n".join(keys)
    add("if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then")
    add("   /usr/lib/raspberrypi-sys-mods/imager_custom enable_ssh -k" + "".join(" " + shell_quote(k) for k in keys))
    add("else")
    add("   install -o \"$FIRSTUSER\" -m 700 -d \"$FIRSTUSERHOME/.ssh\"")
    add("   install -o \"$FIRSTUSER\" -m 600 <(printf \"" + pubkey.replace("\n", "\\n") + "\") \"$FIRSTUSERHOME/.ssh/authorized_keys\"")
    add("   echo 'PasswordAuthentication no' >>/etc/ssh/sshd_config")
    add("   systemctl enable ssh")
    add("fi")
    add("if [ -f /usr/lib/userconf-pi/userconf ]; then")
    add("   /usr/lib/userconf-pi/userconf " + shell_quote(user) + " " + shell_quote(password))
    add("else")
    add("   echo \"$FIRSTUSER:\"" + shell_quote(password) + " | chpasswd -e")
    add("   if [ \"$FIRSTUSER\" != \"" + user + "\" ]; then")
    add("      usermod -l \"" + user + "\" \"$FIRSTUSER\"")
    add("   fi")
    add("fi")
    psk = crypted_psk(passphrase, ssid.encode())
    wpa = "country=" + country + "\n" + "ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\n"
    wpa += "ap_scan=1\n\n" + "update_config=1\n" + "network={\n" + ("\tscan_ssid=1\n" if hidden else "")
    wpa += "\tssid=\"" + ssid + "\"\n" + "\tpsk=" + psk + "\n" + "}\n"
    add("if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then")
    add("   /usr/lib/raspberrypi-sys-mods/imager_custom set_wlan " + (" -h " if hidden else "")
        + shell_quote(ssid) + " " + shell_quote(psk) + " " + shell_quote(country))
    add("else")
    add("cat >/etc/wpa_supplicant/wpa_supplicant.conf <<'WPAEOF'")
    add(wpa)
    add("WPAEOF")
    add("   chmod 600 /etc/wpa_supplicant/wpa_supplicant.conf")
    add("fi")
    kbd = "XKBMODEL=\"pc105\"\n" + "XKBLAYOUT=\"" + keyboard + "\"\n" + "XKBVARIANT=\"\"\n" + "XKBOPTIONS=\"\"\n"
    add("if [ -f /usr/lib/raspberrypi-sys-mods/imager_custom ]; then")
    add("   /usr/lib/raspberrypi-sys-mods/imager_custom set_keymap " + shell_quote(keyboard))
    add("   /usr/lib/raspberrypi-sys-mods/imager_custom set_timezone " + shell_quote(timezone))
    add("else")
    add("   rm -f /etc/localtime")
    add("   echo \"" + timezone + "\" >/etc/timezone")
    add("   dpkg-reconfigure -f noninteractive tzdata")
    add("cat >/etc/default/keyboard <<'KBEOF'")
    add(kbd)
    add("KBEOF")
    add("   dpkg-reconfigure -f noninteractive keyboard-configuration")
    add("fi")
    fr = "#!/bin/bash\n\n" + "set +e\n\n" + fr
    add("rm -f /boot/firstrun.sh")
    add("sed -i 's| systemd.run.*||g' /boot/cmdline.txt")
    add("exit 0")
    return fr


def cloud_1x(hostname, user, password, keys, ssid, passphrase, hidden, keyboard, timezone) -> tuple[str, str]:
    """OptionsPopup.qml applySettings (1.8.5): user-data (with downloadthread's `#cloud-config`) and network-config."""
    ci = ""

    def add(text: str) -> None:
        nonlocal ci
        ci += text + "\n"

    add("hostname: " + hostname)
    add("manage_etc_hosts: true")
    add("packages:")
    add("- avahi-daemon")
    add("apt:")
    add("  conf: |")
    add("    Acquire {")
    add("      Check-Date \"false\";")
    add("    };")
    add("")
    add("users:")
    add("- name: " + user)
    add("  groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,games,input,gpio,spi,i2c,render,sudo")
    add("  shell: /bin/bash")
    add("  lock_passwd: false")
    add("  passwd: " + password)
    add("  ssh_authorized_keys:")
    for k in keys:
        add("    - " + k)
    add("  sudo: ALL=(ALL) NOPASSWD:ALL")
    add("")
    add("")
    add("timezone: " + timezone)
    ci += "runcmd:\n" + "- localectl set-x11-keymap \"" + keyboard + "\" pc105\n" + "- setupcon -k --force || true\n" + "\n" + "\n"
    psk = crypted_psk(passphrase, ssid.encode())
    net = "version: 2\n" + "wifis:\n" + "  renderer: networkd\n" + "  wlan0:\n" + "    dhcp4: true\n"
    net += "    optional: true\n" + "    access-points:\n" + "      \"" + ssid + "\":\n" + "        password: \"" + psk + "\"\n"
    if hidden:
        net += "        hidden: true\n"
    return "#cloud-config\n" + ci, net


def yaml_escape(ssid: bytes) -> str:  # yamlEscapeSsidOctets
    table = {0x5C: "\\\\", 0x22: '\\"', 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x08: "\\b", 0x0C: "\\f", 0: "\\0"}
    return "".join(table[b] if b in table else chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}" for b in ssid)


def cloud_2x(hostname="", user="", password="", keys=(), ssid=b"", passphrase="", country="", hidden=False,
             keyboard="", timezone="") -> tuple[str, str]:
    """generateCloudInitUserData / generateCloudInitNetworkConfig (2.x; push() drops empty lines)."""
    ci, net = [], []
    if hostname:
        ci += ["hostname: " + hostname, "manage_etc_hosts: true", "packages:", "- avahi-daemon", "apt:",
               "  preserve_sources_list: true", "  conf: |", "    Acquire {", "      Check-Date \"false\";", "    };"]
    if timezone:
        ci.append("timezone: " + timezone)
    if keyboard:
        ci += ["keyboard:", "  model: pc105", "  layout: \"" + keyboard + "\""]
    if (user and password) or keys:
        ci += ["user:", "  name: " + (user or "pi"), "  shell: /bin/bash"]
        ci += ["  lock_passwd: false", "  passwd: \"" + password + "\""] if password else ["  lock_passwd: true"]
        if keys:
            ci.append("  ssh_authorized_keys:")
            ci += ["    - \"" + k + "\"" for k in keys]
        ci.append("  sudo: null")
        ci.append("ssh_pwauth: false")
        ci += ["runcmd:", "  - [ systemctl, enable, --now, ssh ]"]
    user_data = "#cloud-config\n" + "manage_resolv_conf: false\n\n" + "".join(x + "\n" for x in ci)
    if ssid:
        net += ["network:", "  version: 2", "  ethernets:", "    eth0:", "      dhcp4: true", "      dhcp6: true",
                "      optional: true", "  wifis:", "    wlan0:", "      dhcp4: true"]
        if country:
            net.append("      regulatory-domain: \"" + country.upper() + "\"")
        net += ["      access-points:", "        \"" + yaml_escape(ssid) + "\":"]
        if hidden:
            net.append("          hidden: true")
        psk = crypted_psk(passphrase, ssid) if passphrase else ""
        if not psk:
            net += ["          auth:", "            key-management: none"]
        else:
            net.append("          password: \"" + psk.replace('"', '\\"') + "\"")
        net.append("      optional: true")
    return user_data, "".join(x + "\n" for x in net)


def toml_quote(v: str) -> str:  # tomlQuote
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "").replace("\n", "") + '"'


def preseed_2x(hostname, user, password, keys, ssid: bytes, psk_crypt, country, keyboard, timezone) -> str:
    """generateRpiPreseedToml (2.x)."""
    b = ["[system]", "hostname = " + toml_quote(hostname), "",
         "[user]", "name = " + toml_quote(user), "password = " + toml_quote(password), "password_encrypted = true",
         "groups = [\"sudo\"]", "",
         "[ssh]", "enabled = true", "password_authentication = false", "authorized_keys = ["]
    b += ["  " + toml_quote(k) + "," for k in keys] + ["]", ""]
    b += ["[wlan]"]
    try:
        b.append("ssid = " + toml_quote(ssid.decode("utf-8")))
    except UnicodeDecodeError:
        b.append("ssid_hex = " + toml_quote(ssid.hex()))
    if psk_crypt:
        b += ["password = " + toml_quote(psk_crypt), "password_encrypted = true"]
    b += ["hidden = false", "country = " + toml_quote(country), ""]
    b += ["[locale]", "keymap = " + toml_quote(keyboard), "timezone = " + toml_quote(timezone), ""]
    return "config_version = \"1.0\"\n\n" + "\n".join(b).rstrip("\n") + "\n"


def imager_cmdline(base: str, country: str, how: str) -> str:
    """downloadthread.cpp: cmdline.txt trimmed, then the regdom, then systemd.run or ds=nocloud."""
    add = (" cfg80211.ieee80211_regdom=" + country) if country else ""
    if how == "systemd":
        add += RUN_WORDS
    elif how == "cloudinit":
        add += " ds=nocloud;i=rpi-imager-1764330000123"
    return base.strip() + add


def imager_writes(form: str, cmdline_txt: str, hostname: str = "tavolo", keys: tuple[str, ...] = (KEY1,),
                  ssid: str = "Casa Rossi", passphrase: str = "correct horse battery", country: str = "IT",
                  timezone: str = "Europe/Rome") -> dict[str, bytes]:
    """The files Imager 2.x puts on the FAT (name -> bytes, cmdline.txt included) for `form`: "systemd"
    (firstrun.sh) or "cloudinit" (user-data, network-config, meta-data), with a user, a password hash and
    a keyboard layout too, as a table fills in the form; `cmdline_txt` is the card's own."""
    if form == "systemd":
        files = {"firstrun.sh": firstrun_2x(hostname=hostname, user="anna", password=CRYPT, keys=keys,
                                            ssid=ssid.encode(), passphrase=passphrase, country=country,
                                            keyboard="it", timezone=timezone)}
    else:
        user_data, network = cloud_2x(hostname=hostname, user="anna", password=CRYPT, keys=keys, ssid=ssid.encode(),
                                      passphrase=passphrase, country=country, keyboard="it", timezone=timezone)
        files = {"user-data": user_data, "network-config": network,
                 "meta-data": "instance-id: rpi-imager-1764330000123\n"}
    files["cmdline.txt"] = imager_cmdline(cmdline_txt, country, form)
    return {name: text.encode() for name, text in files.items()}
