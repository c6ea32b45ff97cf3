"""The phone view's unit (companion-web.service) and avahi file: they match the shipped
files, verify cleanly, keep a low exposure, and install-service writes both, enabling the
phone view only when the config turns it on."""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from tests.box.install_helpers import fake_venv, parse_unit, pretend_root, security_score, trust_tmp

from companion.box import service_install, service_web
from companion.box.service_install import main
from companion.box.service_web import render_avahi, render_web_unit, web_settings

ROOT = Path(__file__).resolve().parents[2]
SHIPPED_WEB_UNIT = ROOT / "systemd" / "companion-web.service"
SHIPPED_KIOSK_UNIT = ROOT / "systemd" / "companion.service"
SHIPPED_AVAHI = ROOT / "systemd" / "companion-web.avahi.xml"
NO_ANALYZE = "systemd-analyze not installed (Debian package: systemd)"


@pytest.fixture(autouse=True)
def tmp_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    trust_tmp(monkeypatch)


def shipped() -> dict[str, dict[str, list[str]]]:
    return parse_unit(SHIPPED_WEB_UNIT.read_text(encoding="utf-8"))


# --- the files ----------------------------------------------------------------------------

def test_templates_in_module_are_the_shipped_files() -> None:
    assert service_install.WEB_UNIT_TEMPLATE == SHIPPED_WEB_UNIT.read_text(encoding="utf-8")
    assert service_web.WEB_UNIT_TEMPLATE is service_install.WEB_UNIT_TEMPLATE
    assert service_web.AVAHI_TEMPLATE == SHIPPED_AVAHI.read_text(encoding="utf-8")


def test_rendered_unit_is_the_shipped_file_filled_in(tmp_path: Path) -> None:
    venv = fake_venv(tmp_path)
    expected = SHIPPED_WEB_UNIT.read_text(encoding="utf-8").replace("@VENV@", str(venv)).replace(
        "@CONFIG@", "/etc/companion/c.yaml")
    rendered = render_web_unit(venv, "/etc/companion/c.yaml")
    assert rendered == expected
    assert f"ExecStart={venv}/bin/companion web --config /etc/companion/c.yaml --key-socket %t/companion/keys.sock\n" \
        in rendered
    assert "@VENV@" not in rendered and "@CONFIG@" not in rendered
    assert "ExecStart=/opt/50%%/venv/bin/companion web" in render_web_unit(Path("/opt/50%/venv"))
    with pytest.raises(service_install.InstallError, match="contains ' '"):
        render_web_unit(Path("/opt/my venv"))


def test_independent_of_the_kiosk() -> None:
    unit = shipped()["Unit"]
    assert set(unit["After"][0].split()) == {"network-online.target", "companion.service"}
    assert unit["Wants"] == ["network-online.target"]
    for binding in ("Requires", "BindsTo", "PartOf", "Requisite"):
        assert binding not in unit, f"{binding}= would tie the phone view to the kiosk"
    service = shipped()["Service"]
    assert service["Restart"] == ["on-failure"]
    assert service["ExecStart"] == ["@VENV@/bin/companion web --config @CONFIG@ --key-socket %t/companion/keys.sock"]
    assert shipped()["Install"]["WantedBy"] == ["multi-user.target"]


def test_sandbox_keys() -> None:
    service = shipped()["Service"]
    required = {
        "User": "companion", "Group": "companion", "UMask": "0077",
        "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes", "PrivateDevices": "yes",
        "PrivateUsers": "yes", "NoNewPrivileges": "yes", "IPAddressDeny": "any", "CapabilityBoundingSet": "",
        "MemoryMax": "128M", "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes",
        "ProtectKernelTunables": "yes", "ProtectControlGroups": "yes", "ProtectClock": "yes",
        "ProtectHostname": "yes", "ProtectProc": "invisible", "ProcSubset": "pid", "RestrictNamespaces": "yes",
        "RestrictRealtime": "yes", "RestrictSUIDSGID": "yes", "LockPersonality": "yes",
        "MemoryDenyWriteExecute": "yes", "SystemCallArchitectures": "native", "RemoveIPC": "yes",
    }
    for key, value in required.items():
        assert service.get(key) == [value], f"{key}={service.get(key)}"
    assert int(service["TasksMax"][0]) >= 16
    assert set(service["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert service["SystemCallFilter"] == ["@system-service", "~@privileged @resources"]
    # The journal is read, never written: read-only, and no directory the service would own.
    assert set(service["ReadOnlyPaths"]) in ({"/var/lib/companion", "/run"}, {"-/var/lib/companion", "/run"})
    for writable in ("StateDirectory", "RuntimeDirectory", "CacheDirectory", "LogsDirectory", "ReadWritePaths",
                     "SupplementaryGroups", "AmbientCapabilities", "DeviceAllow"):
        assert writable not in service, writable


def test_ip_allow_list_is_the_lan_only() -> None:
    allowed = shipped()["Service"]["IPAddressAllow"][0].split()
    symbolic = {"localhost", "link-local", "multicast"}
    assert symbolic <= set(allowed)
    networks = [ipaddress.ip_network(a) for a in allowed if a not in symbolic]
    assert {str(n) for n in networks} == {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "fe80::/10"}
    for net in networks:
        assert net.is_private or net.is_link_local, net
    assert not any(ipaddress.ip_address("8.8.8.8") in n for n in networks)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason=NO_ANALYZE)
def test_systemd_analyze_verify_is_silent(tmp_path: Path) -> None:
    unit = tmp_path / "companion-web.service"
    unit.write_text(render_web_unit(fake_venv(tmp_path), "/etc/companion/config.yaml"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    # verify exits 0 on unknown keys and only warns: stderr must be empty too.
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    unit.write_text(unit.read_text().replace("PrivateUsers=yes", "PrivateUser=yes"))
    typo = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, check=False)
    assert "PrivateUser" in typo.stderr, "verify no longer reports a misspelt key: the check above means nothing"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason=NO_ANALYZE)
def test_security_exposure_web_at_most_2_and_kiosk_at_most_1(tmp_path: Path) -> None:
    """systemd-analyze security --offline=true: 1.0 OK for the phone view, 0.6 for the kiosk."""
    venv = fake_venv(tmp_path)
    web = tmp_path / "companion-web.service"
    web.write_text(render_web_unit(venv, "/etc/companion/config.yaml"))
    kiosk = tmp_path / "companion.service"
    kiosk.write_text(service_install.render_unit(venv, "/etc/companion/config.yaml"))
    web_score, kiosk_score = security_score(web), security_score(kiosk)
    if web_score is None or kiosk_score is None:
        pytest.skip("this systemd-analyze has no `security --offline=true` (systemd < 250)")
    assert web_score <= 2.0, web_score
    assert kiosk_score <= 1.0, kiosk_score


def test_avahi_file_parses_with_the_port() -> None:
    text = render_avahi(8123)
    assert text.splitlines()[1] == '<!DOCTYPE service-group SYSTEM "avahi-service.dtd">'
    root = ET.fromstring(text)
    assert root.tag == "service-group"
    name = root.find("name")
    assert name is not None and name.text == "Clans companion on %h" and name.get("replace-wildcards") == "yes"
    services = root.findall("service")
    assert len(services) == 1
    assert services[0].findtext("type") == "_http._tcp"
    assert services[0].findtext("port") == "8123"
    assert ET.fromstring(render_avahi()).findtext("service/port") == "8080"
    assert service_web.avahi_is_ours(text)


# --- web_settings ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    (None, {"enabled": False, "port": 8080}),
    ("", {"enabled": False, "port": 8080}),
    ("display: {driver: sh1106}\n", {"enabled": False, "port": 8080}),
    ("web: {enabled: true}\n", {"enabled": True, "port": 8080}),
    ("web:\n  enabled: true\n  port: 8181\n  bind: 0.0.0.0\n", {"enabled": True, "port": 8181}),
    ("web: {enabled: false, port: 9000}\n", {"enabled": False, "port": 9000}),
    ("web: {enabled: 'true'}\n", {"enabled": False, "port": 8080}),  # a string is not a yes
    ("web: on\n", {"enabled": False, "port": 8080}),
    ("- a list\n", {"enabled": False, "port": 8080}),
    ("web: {enabled: true\n", {"enabled": False, "port": 8080}),  # not YAML: left off
])
def test_web_settings(tmp_path: Path, text: str | None, expected: dict) -> None:
    config = tmp_path / "config.yaml"
    if text is not None:
        config.write_text(text)
    assert web_settings(config) == expected


@pytest.mark.parametrize("port", ["80", "0", "70000", "'8080'", "8080.5", "true"])
def test_web_settings_refuses_a_port_the_unit_cannot_bind(tmp_path: Path, port: str) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(f"web: {{enabled: true, port: {port}}}\n")
    with pytest.raises(service_install.InstallError, match="web.port"):
        web_settings(config)


# --- install-service in a fake root ---------------------------------------------------------

class FakeRoot:
    """/etc/systemd/system, /etc/avahi/services and /etc/companion under tmp_path."""

    def __init__(self, tmp_path: Path, web: str | None, avahi: bool = True) -> None:
        self.units = tmp_path / "etc" / "systemd" / "system"
        self.avahi_dir = tmp_path / "etc" / "avahi" / "services"
        self.config = tmp_path / "etc" / "companion" / "config.yaml"
        self.config.parent.mkdir(parents=True)
        if avahi:
            self.avahi_dir.mkdir(parents=True)
        if web is not None:
            self.config.write_text(web)

    @property
    def avahi_file(self) -> Path:
        return self.avahi_dir / "companion.service"

    def install(self, *extra: str) -> int:
        return main(["--unit-dir", str(self.units), "--config", str(self.config),
                     "--avahi-dir", str(self.avahi_dir), *extra])


def test_enabled_in_the_config_writes_both_units_and_the_avahi_file_and_starts_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = fake_venv(tmp_path)
    ran = pretend_root(monkeypatch, venv)
    root = FakeRoot(tmp_path, "web: {enabled: true, port: 8181}\n")
    assert root.install() == 0
    assert (root.units / "companion.service").read_text() == service_install.render_unit(venv, root.config)
    assert (root.units / "companion-web.service").read_text() == render_web_unit(venv, root.config)
    assert (root.units / "companion-web.service").stat().st_mode & 0o777 == 0o644
    assert root.avahi_file.read_text() == render_avahi(8181)
    assert root.avahi_file.stat().st_mode & 0o777 == 0o644
    assert ran == [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "companion"],
                   ["systemctl", "enable", "--now", "companion-web"]]
    assert ":8181/" in capsys.readouterr().out


def test_not_enabled_writes_the_unit_leaves_it_off_and_says_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    venv = fake_venv(tmp_path)
    ran = pretend_root(monkeypatch, venv)
    root = FakeRoot(tmp_path, None)  # a fresh install: the starter config, everything commented out
    assert root.install() == 0
    assert (root.units / "companion-web.service").read_text() == render_web_unit(venv, root.config)
    assert not root.avahi_file.exists()
    assert ran == [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "companion"]]
    hints = [ln for ln in capsys.readouterr().out.splitlines() if "web: {enabled: true}" in ln]
    assert len(hints) == 1 and str(root.config) in hints[0] and "install-service" in hints[0]


def test_turned_off_again_disables_it_and_withdraws_the_announcement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = pretend_root(monkeypatch, fake_venv(tmp_path))
    root = FakeRoot(tmp_path, "web: {enabled: true}\n")
    assert root.install() == 0
    # What `systemctl enable` made:
    wants = root.units / "multi-user.target.wants"
    wants.mkdir()
    (wants / "companion-web.service").symlink_to(root.units / "companion-web.service")
    root.config.write_text("web: {enabled: false}\n")
    ran.clear()
    assert root.install() == 0
    assert ran == [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "companion"],
                   ["systemctl", "disable", "--now", "companion-web"]]
    assert not root.avahi_file.exists()


def test_someone_elses_avahi_file_is_not_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pretend_root(monkeypatch, fake_venv(tmp_path))
    root = FakeRoot(tmp_path, "web: {enabled: false}\n")
    root.avahi_file.write_text("<service-group><name>my own</name></service-group>\n")
    assert root.install() == 0
    assert root.avahi_file.read_text() == "<service-group><name>my own</name></service-group>\n"


def test_without_avahi_it_still_starts_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = pretend_root(monkeypatch, fake_venv(tmp_path))
    root = FakeRoot(tmp_path, "web: {enabled: true}\n", avahi=False)
    assert root.install() == 0
    assert not root.avahi_dir.exists(), "no avahi-daemon: its directory is not made"
    assert ["systemctl", "enable", "--now", "companion-web"] in ran
    assert "avahi-daemon" in capsys.readouterr().out


def test_a_changed_web_unit_restarts_a_running_phone_view(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = pretend_root(monkeypatch, fake_venv(tmp_path))
    root = FakeRoot(tmp_path, "web: {enabled: true}\n")
    root.units.mkdir(parents=True)
    (root.units / "companion-web.service").write_text("[Service]\nExecStart=/bin/true\n")
    assert root.install() == 0
    assert len(list(root.units.glob("companion-web.service.bak-*"))) == 1
    assert ran[-2:] == [["systemctl", "try-restart", "companion-web"],
                        ["systemctl", "enable", "--now", "companion-web"]]
    ran.clear()
    assert root.install() == 0  # unchanged now: no restart
    assert ["systemctl", "try-restart", "companion-web"] not in ran


def test_a_bad_port_stops_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = pretend_root(monkeypatch, fake_venv(tmp_path))
    root = FakeRoot(tmp_path, "web: {enabled: true, port: 80}\n")
    assert root.install() == 1
    assert "web.port 80" in capsys.readouterr().err
    assert not root.units.exists() and ran == []


def test_no_enable_writes_the_web_unit_but_no_announcement(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv = fake_venv(tmp_path)
    monkeypatch.setattr(sys, "prefix", str(venv))
    ran: list[list[str]] = []
    monkeypatch.setattr(service_install, "_run", ran.append)
    root = FakeRoot(tmp_path, "web: {enabled: true}\n")
    assert root.install("--no-enable") == 0
    assert (root.units / "companion-web.service").read_text() == render_web_unit(venv, root.config)
    assert not root.avahi_file.exists() and ran == []


def test_kiosk_unit_is_untouched_by_the_phone_view() -> None:
    """The kiosk keeps its own sandbox: no network, no IP allow list."""
    kiosk = parse_unit(SHIPPED_KIOSK_UNIT.read_text(encoding="utf-8"))["Service"]
    assert kiosk["PrivateNetwork"] == ["yes"] and kiosk["RestrictAddressFamilies"] == ["AF_UNIX"]
    assert "IPAddressAllow" not in kiosk


def test_the_page_finds_the_kiosks_key_socket(monkeypatch) -> None:
    """The page's unit names the socket the kiosk makes in its RuntimeDirectory= (/run/companion
    under systemd): without it a PIN holder's keys got 503 "the table is not running" on a box."""
    from companion.box.config import WebConfig
    from companion.box.service_install import UNIT_TEMPLATE

    kiosk_runtime = [line.split("=", 1)[1] for line in UNIT_TEMPLATE.splitlines() if line.startswith("RuntimeDirectory=")]
    monkeypatch.setenv("RUNTIME_DIRECTORY", f"/run/{kiosk_runtime[0]}")
    kiosk_socket = WebConfig(enabled=True).resolved_key_socket()
    page_socket = shipped()["Service"]["ExecStart"][0].split("--key-socket ", 1)[1].replace("%t", "/run")
    assert page_socket == kiosk_socket == "/run/companion/keys.sock"
