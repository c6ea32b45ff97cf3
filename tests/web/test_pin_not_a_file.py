"""A PIN file that is not a regular file (issue 41, item 11): a FIFO named by `--pin-file` is refused
in one line at start (exit 2), and a PIN file replaced by a FIFO while the page runs is not read
(one line in the log, the page closed to changes as for any broken PIN file) and never hangs
the page: it keeps answering and stops on SIGTERM. Without the fix both runs block on the FIFO."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from companion.web import guard
from tests.web.realweb import ROOT, RealWeb, free_port, post_json, raw_request, wait_until

PIN = "4711471147"


def test_a_fifo_as_pin_file_is_refused_at_start_in_one_line(tmp_path):
    fifo = tmp_path / "pin"
    os.mkfifo(fifo)
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    done = subprocess.run([sys.executable, "-m", "companion", "web", "--state-dir", str(state_dir),
                           "--port", str(free_port()), "--pin-file", str(fifo)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"companion web: the PIN file {fifo} is not a regular file (a FIFO): "
                                        "give a text file holding 4 to 16 digits"]


@pytest.mark.parametrize("make", ["fifo", "directory"])
def test_read_pin_never_opens_what_is_not_a_file_for_reading(tmp_path, make):
    path = tmp_path / "pin"
    os.mkfifo(path) if make == "fifo" else path.mkdir()
    got: list[BaseException | str] = []

    def read() -> None:
        try:
            got.append(guard.read_pin(str(path)))
        except BaseException as exc:
            got.append(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(30)
    if reader.is_alive():  # blocked on the FIFO: a writer lets it go, so the test fails instead of hanging
        with open(os.open(path, os.O_WRONLY), "w") as f:
            f.write(PIN)
        reader.join(30)
        pytest.fail("read_pin blocked on a FIFO")
    assert isinstance(got[0], ValueError) and "is not a regular file" in str(got[0]), got


def test_a_pin_file_replaced_by_a_fifo_while_serving_is_ignored_and_sigterm_still_stops_the_page(tmp_path):
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    pin = tmp_path / "pin"
    pin.write_text(PIN + "\n")
    with RealWeb(state_dir, "--pin-file", str(pin)) as web:
        assert post_json(web.port, "/api/login", {"pin": PIN}, source="127.0.0.2")[0] == 200
        before = raw_request(web.port, "GET", "/api/state")[0]  # no journal here: 503, answered at once
        os.mkfifo(tmp_path / "fifo")
        os.replace(tmp_path / "fifo", pin)
        wait_until("the FIFO is named in the log", lambda: "is not a regular file (a FIFO)" in web.log())
        assert raw_request(web.port, "GET", "/api/state")[0] == before, "the page still answers"
        assert post_json(web.port, "/api/login", {"pin": PIN}, source="127.0.0.3", timeout=30)[0] == 403
        web.proc.terminate()
        assert web.proc.wait(timeout=30) == 0, "SIGTERM stops the page"
    assert web.log().count("is not a regular file") == 1, web.log()
