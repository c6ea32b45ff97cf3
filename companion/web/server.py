"""`companion web`: serves the table's page to the phones at the table (contract 7,
docs/contracts.md).

    companion web --state-dir DIR [--bind ADDR] [--port N] [--pin-file F]
                  [--config PATH] [--lang CODE] [--key-socket PATH] [--allow-host NAME]

A process of its own beside the referee (`companion run`): it reads the journal in DIR
read-only, never writes anything (the PIN: DIR/web-pin, which the box's menu, New PIN, makes,
else --pin-file or the config's `web.pin_file`; a change is taken at once, companion.web.pinfile), and hands keys typed on a phone (with the PIN) to the
daemon through its key socket. Options override the config's `web:` section. Bounded,
with a fair share for every client (companion.web.limits): `MAX_CONNECTIONS` open
connections (at the cap a newcomer takes the place of a greedier client's connection
that is still waiting for its request), `MAX_STREAMS` event streams (the same), small
request bodies that must arrive within `http.BODY_S`, and a request's headers within
`IDLE_S` of the connection or of its last answer (aiohttp's keep-alive timeout, which
closes a connection whose request is not whole by then).

The address the OLED's Phone view shows (and its QR code) is the box's LAN address as
the route to the outside picks it (no packet is sent), in upper case so the QR code can
use its compact alphanumeric mode; a box with no network shows `<hostname>.local`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import signal
import socket
import sys
from typing import Any

from companion.argtypes import directory, given, port, shown
from companion.i18n import LANGUAGES

log = logging.getLogger("companion.web")

IDLE_S = 10.0
LINGER_S = 2.0  # a body nobody reads (a POST to a page that takes none) is drained at most this long
FILES_WANTED = 4096  # open files: every connection is one (the default soft limit is 1024)


def bind_address(text: str) -> str:
    """An argparse type: an address this box can listen on, an IP address or a host name resolving to
    one (tried with a socket bound to port 0 and closed at once: nothing listens). ArgumentTypeError
    naming what to give otherwise, so a wrong --bind is one line and exit 2 before anything starts."""
    want = "give an address of this box, e.g. 127.0.0.1 (this box only) or 0.0.0.0 (every network)"
    if not re.fullmatch(r"[A-Za-z0-9.:%_-]{1,253}", text):
        raise argparse.ArgumentTypeError(f"{want}, not {shown(text)}")
    try:
        found = socket.getaddrinfo(text, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise argparse.ArgumentTypeError(f"{shown(text)} is not an address ({reason}); {want}") from None
    why: object = "no address"
    for family, kind, proto, _, sockaddr in found:
        try:
            with socket.socket(family, kind, proto) as probe:
                probe.bind(sockaddr)
            return text
        except OSError as exc:
            why = exc.strerror or exc
    raise argparse.ArgumentTypeError(f"{shown(text)} is not an address of this box ({why}); {want}")


def parse_args(argv: list[str]) -> argparse.Namespace:
    """`companion web`'s options; a --port outside 1-65535 or a --bind this box cannot listen on is
    argparse's error (one line, exit 2, under companion.cli)."""
    ap = argparse.ArgumentParser(prog="companion web", description=__doc__.split("\n\n")[0])
    ap.add_argument("--state-dir", metavar="DIR", type=directory,
                    help="the kiosk's journal directory (default: the config's)")
    ap.add_argument("--bind", metavar="ADDR", type=bind_address,
                    help="address to listen on (default 127.0.0.1; config web.bind)")
    ap.add_argument("--port", type=port, metavar="N", help="TCP port 1-65535 (default 8080; config web.port)")
    ap.add_argument("--pin-file", metavar="F", type=given("a PIN file"),
                    help="a file holding the PIN that allows keys from phones")
    ap.add_argument("--config", metavar="PATH", type=given("a config file"),
                    help="config file (default /etc/companion/config.yaml if present)")
    ap.add_argument("--lang", choices=LANGUAGES, metavar="CODE", help="the page's language until the table picks one")
    ap.add_argument("--key-socket", metavar="PATH", type=given("a socket path"),
                    help="the daemon's key socket (config web.key_socket)")
    ap.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="one more name the page may be reached by (repeatable; config web.allowed_hosts)")
    ap.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    return ap.parse_args(argv)


def phone_url(bind: str, port: int, hostname: str | None = None) -> str:
    """The page's address for the Phone view: the LAN address the box would use, upper case."""
    host = bind
    if bind in ("0.0.0.0", "::", ""):
        host = ""
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # a documentation address: UDP connect sends nothing
                host = probe.getsockname()[0]
        except OSError:
            pass
        if not host or host.startswith("127."):
            host = f"{hostname or socket.gethostname()}.local"
    if ":" in host:
        host = f"[{host}]"
    return f"HTTP://{host}{'' if port == 80 else f':{port}'}".upper()


def settings(args: argparse.Namespace) -> dict:
    """Options over the config's web section; ValueError/ConfigError with a clear message."""
    from companion.box.config import ConfigError, load_config
    from companion.journal.store import find_state_dir
    from companion.hw.platform import is_raspberry_pi

    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        raise ValueError(str(exc)) from None
    web = cfg.web
    explicit_config = args.config is not None or cfg.source != "<defaults>"
    return {
        "state_dir": find_state_dir(args.state_dir, cfg, on_box=is_raspberry_pi()),
        "bind": args.bind or (web.bind if explicit_config else "127.0.0.1"),
        "port": args.port if args.port is not None else web.port,
        "pin_file": args.pin_file or web.pin_file,
        "hosts": list(web.allowed_hosts) + [h.lower() for h in args.allow_host],
        "key_socket": args.key_socket or web.resolved_key_socket(),
        "language": args.lang or cfg.language,
        "roster": list(cfg.roster),
    }


def more_files() -> None:
    """Raise the soft limit of open files to `FILES_WANTED` (within the hard limit): the connection
    cap is above the usual 1024."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = FILES_WANTED if hard == resource.RLIM_INFINITY else min(FILES_WANTED, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        except (ValueError, OSError):
            pass


async def serve(app: Any, bind: str, port: int, ready: asyncio.Event | None = None,
                stop: asyncio.Event | None = None) -> None:
    """Run `app` on bind:port until `stop` is set (or SIGTERM/SIGINT)."""
    from aiohttp import web

    from companion.web.http import STATE

    more_files()
    from companion.web.lograte import ServerLog

    runner = web.AppRunner(app, handler_cancellation=True, keepalive_timeout=IDLE_S, lingering_time=LINGER_S,
                           access_log=None, logger=ServerLog(log))
    await runner.setup()
    server = runner.server
    app[STATE]["connections"].install(server)
    loop = asyncio.get_running_loop()
    listener = await loop.create_server(server, bind, port, reuse_address=True, backlog=512)
    stop = stop or asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    log.info("web: serving http://%s:%d/", bind, port)
    from companion.hw import notify

    notify.ready("serving the table's page")
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        notify.stopping()
        listener.close()
        await runner.cleanup()


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose == 0 else logging.DEBUG, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        s = settings(args)
        from companion.web.pinfile import PinSource

        pins = PinSource(s["state_dir"], s["pin_file"])  # the box's New PIN, else the config's pin_file
        pin, pin_path = pins.read()
    except ValueError as exc:
        print(f"companion web: {exc}", file=sys.stderr)
        return 2
    from companion import i18n
    from companion.web.app import make_app
    from companion.web.guard import HostCheck, PinGuard
    from companion.web.keylink import KeyLink
    from companion.journal.reader import JournalReader
    from companion.web.views import Views

    language = i18n.choose(s["language"])
    url = phone_url(s["bind"], s["port"])
    pins.warn_if_short(pin, pin_path)
    app = make_app(Views(JournalReader(s["state_dir"]), language), PinGuard(pin), HostCheck(s["hosts"]),
                   KeyLink(s["key_socket"], url), roster=s["roster"], pins=pins)
    log.info("web: journal %s, %s, phone view %s", s["state_dir"],
             f"keys from phones with the PIN in {pin_path}" if pin else "read-only (no PIN)", url)
    try:
        asyncio.run(serve(app, s["bind"], s["port"]))
    except OSError as exc:
        print(f"companion web: cannot listen on {s['bind']}:{s['port']}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
