"""Shutting down on the kiosk: the panel goes dark before systemd powers off; a refused
power-off (no polkit rule, an inhibitor) is said on the screen and the game goes on."""

from __future__ import annotations

from companion.kiosk import daemon


def kiosk(tmp_path, answer: tuple[int, str]):
    keys = tmp_path / "k"
    keys.write_text("")
    d = daemon.build(daemon.parse_args(["--display", "dummy", "--players", "2", "--seed", "1", "--keys", str(keys)]))
    d.headless = False  # as under systemd
    d.may_power_off = lambda: True
    calls: list = []
    sink = d.panel.sink
    real_set_power = sink.set_power

    def set_power(on: bool) -> None:
        calls.append(("panel", on))
        real_set_power(on)

    def run(argv):
        calls.append(tuple(argv))
        return answer

    sink.set_power = set_power
    d.run_command = run
    return d, calls


def shut_down(d) -> bool:
    d.step("POWER")
    assert d.shell.screen().name == "shutdown?"
    return d.step("#")


def test_the_panel_goes_dark_then_systemd_powers_off(tmp_path):
    d, calls = kiosk(tmp_path, (0, ""))
    assert shut_down(d) is False  # the loop ends: systemd is stopping the service
    assert calls == [("panel", False), ("systemctl", "poweroff")]
    assert d.last_screen.name == "bye"


def test_a_refused_power_off_is_said_and_the_game_goes_on(tmp_path):
    d, calls = kiosk(tmp_path, (1, "Call to PowerOff failed: Access denied\n"))
    assert shut_down(d) is True  # still refereeing
    assert calls == [("panel", False), ("systemctl", "poweroff"), ("panel", True)]
    screen = d.shell.screen()
    assert screen.name == "no-power-off" and "Access denied" in " ".join(screen.lines)
    d.step("*")  # dismissed
    for k in "12":
        d.step(k)
    assert d.shell.screen().entry.startswith("12")
    assert not d.power_off and not d.shell.shutting_down


def test_off_the_box_a_shutdown_only_ends_the_run(tmp_path):
    d, calls = kiosk(tmp_path, (0, ""))
    d.may_power_off = lambda: False
    assert shut_down(d) is False and calls == []
