"""A real `companion web` process on loopback, for the hostile tests: seen from outside, HTTP only.

`RealWeb` starts `python -m companion web` on a free port bound to 0.0.0.0 (so clients may
come from any 127.0.0.x address, each a different "phone"), waits for its "serving" log
line (no fixed sleep), keeps its stderr for the tests to read and stops it at the end.
`raw_request` sends one HTTP/1.1 request from a chosen source address over a plain socket
and returns (status, headers, body); `post_json` is the same for a JSON body.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A port free now, below Linux's usual ephemeral range (where the crowds' connections come from)."""
    import random

    for _ in range(100):
        port = random.randrange(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
                return port
            except OSError:
                continue
    raise OSError("no free port")


class RealWeb:
    """`companion web --state-dir DIR --bind 0.0.0.0 --port N ARGS` in a process of its own."""

    def __init__(self, state_dir: Path, *args: str, env: dict | None = None) -> None:
        for _attempt in range(5):  # a port picked free may be taken meanwhile (the crowds' own source ports)
            self._start(state_dir, args, env)
            if self.serving.is_set() or "address already in use" not in self.log():
                break
        if not self.serving.is_set():
            raise AssertionError("companion web did not start:\n" + self.log())

    def _start(self, state_dir: Path, args: tuple, env: dict | None) -> None:
        self.port = free_port()
        self.lines: list[str] = []
        self.serving = threading.Event()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "web", "--state-dir", str(state_dir), "--bind", "0.0.0.0",
             "--port", str(self.port), *args],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        if not self.serving.wait(30) or self.proc.poll() is not None:
            self.stop()
            self.reader.join(5)
            self.serving.clear()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)
            if "web: serving" in line:
                self.serving.set()

    def log(self) -> str:
        return "".join(self.lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "RealWeb":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def connect(port: int, source: str = "127.0.0.1", timeout: float = 5.0) -> socket.socket:
    """A TCP connection to the page from `source` (any 127.0.0.x works on Linux's loopback)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    return s


def read_response(s: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """One HTTP response (Content-Length bodies only; the page sends no chunked answer but the event
    stream). Raises OSError/ConnectionError when the server closed the connection instead."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError("closed before an answer")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:] if ":" in line)}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def raw_request(port: int, method: str, path: str, *, source: str = "127.0.0.1", body: bytes = b"",
                headers: dict[str, str] | None = None, timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    """One request on a new connection from `source`: (status, headers in lower case, body)."""
    hdrs = {"Host": f"127.0.0.1:{port}", "Connection": "close", **(headers or {})}
    if body or method == "POST":
        hdrs["Content-Length"] = str(len(body))
    text = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in hdrs.items()) + "\r\n"
    with connect(port, source, timeout) as s:
        s.sendall(text.encode("latin-1") + body)
        return read_response(s)


def post_json(port: int, path: str, data: Any, *, source: str = "127.0.0.1", origin: bool = True,
              headers: dict[str, str] | None = None, timeout: float = 5.0) -> tuple[int, dict[str, str], Any]:
    """POST `data` as JSON from `source` (with the page's own Origin unless `origin` is False)."""
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    if origin:
        hdrs["Origin"] = f"http://127.0.0.1:{port}"
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    status, h, body = raw_request(port, "POST", path, source=source, body=raw, headers=hdrs, timeout=timeout)
    try:
        return status, h, json.loads(body or b"null")
    except ValueError:
        return status, h, body.decode("utf-8", "replace")


def wait_until(what: str, check: Any, timeout: float = 30.0, every: float = 0.02) -> Any:
    """Ask `check()` until it is truthy (a condition seen from outside, not a fixed sleep)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"{what}: not within {timeout} s")
