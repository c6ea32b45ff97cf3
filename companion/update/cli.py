"""`companion update`: verify a bundle anywhere; install one on the box; the check at each start.

    companion update verify BUNDLE [--key PEM] [--allow-downgrade]
    companion update install BUNDLE [--allow-downgrade] [--no-reboot]     (root, on the box)
    companion update install --request                                     (the page's and the stick's)
    companion update check [--deadline S]                                  (root, at each start)
    companion update offer [--gone] DEVICE                                 (root, a USB stick: udev)
    companion update status

`verify` exits 0 with one line when the bundle is whole, signed by the trusted key (the box's own,
or the one `--key` names: off the image there is no default, and none is ever trusted by default),
for this board and not older than what runs; else exit 2 and one line saying what is wrong. Every
name printed has what a terminal cannot print escaped. `install --request` takes the bundle named in REQUEST (written
by the page after an upload, or by the daemon when `#` confirms a USB stick's bundle).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from companion.update.box import NoSlot, detect, load_trusted, running_build
from companion.update.bundle import BundleError, check, key_id, open_file, shown
from companion.update.check import DEADLINE_S, boot_check, wait_ready
from companion.update.install import install
from companion.update.status import UPDATE_DIR, read_slots, read_status, write_status

EXIT_REFUSED = 2
REQUEST = "request.json"


def _say(line: str) -> None:
    print(line, flush=True)


def verify(a: argparse.Namespace) -> int:
    if not a.bundle:
        print("update: give the bundle's file name (an empty one was given)", file=sys.stderr)
        return EXIT_REFUSED
    board, built = running_build()
    try:
        key = load_trusted(a.key, off_image=True)
        m = check(a.bundle, key, board, built, a.allow_downgrade)
    except BundleError as exc:
        print(f"{shown(a.bundle)}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    print(f"{shown(a.bundle)}: whole and signed by key {key_id(key)}: version {m.version}, built {m.day()} UTC, "
          f"for {m.board}")
    return 0


def _claim_request(update_dir: Path) -> Path | None:
    """The bundle a request names; the request is removed first, so a power cut never resumes it.
    None when there is none, or it is not a JSON object naming an absolute path."""
    req = update_dir / REQUEST
    try:
        with open_file(req, "the request") as f:
            text = f.read(4096).decode("utf-8")
        req.unlink()
        body = json.loads(text)
    except (BundleError, OSError, ValueError, RecursionError):
        req.unlink(missing_ok=True)
        return None
    named = body.get("bundle") if isinstance(body, dict) else None
    if not isinstance(named, str) or "\0" in named or not named.startswith("/"):
        return None
    return Path(named)


def do_install(a: argparse.Namespace) -> int:
    update_dir = Path(a.update_dir)
    bundle = _claim_request(update_dir) if a.request else Path(a.bundle)
    if bundle is None:
        print("update: no request to install (the page or the USB stick writes one)", file=sys.stderr)
        return EXIT_REFUSED
    last = [None]

    def report(state: str, percent: int) -> None:
        if (state, percent) != last[0]:
            last[0] = (state, percent)
            write_status(state, update_dir, percent=percent, offered=shown(bundle.name))
            _say(f"update: {state} {percent}%")

    try:
        box = detect()
        m = install(bundle, box, load_trusted(), report, a.allow_downgrade)
    except (BundleError, NoSlot) as exc:
        write_status("failed", update_dir, message=str(exc), reason=getattr(exc, "code", "noslot"))
        print(f"update: {shown(bundle)}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    write_status("restarting", update_dir, percent=100, offered=m.version, version=box.version)
    _say(f"update: version {m.version} written to system {'b' if box.running == 'a' else 'a'}: "
         + ("restart the box to try it" if a.no_reboot else "restarting into it"))
    if not a.no_reboot:
        subprocess.run(["systemctl", "reboot"], check=False)
    return 0


def do_check(a: argparse.Namespace) -> int:
    try:
        box = detect()
    except NoSlot:
        return 0  # not the image, or a card without slots: nothing to decide
    boot_check(box, lambda: wait_ready(deadline_s=a.deadline),
               lambda: subprocess.run(["systemctl", "reboot"], check=False), _say)
    return 0


def do_offer(a: argparse.Namespace) -> int:
    from companion.update import usb

    folder = Path(a.update_dir)
    if a.gone:
        usb.gone(a.device, folder)
        return 0
    board, built = running_build()
    device = shown(a.device)
    try:
        body = usb.offer(a.device, folder, load_trusted(), board, built)
    except (OSError, subprocess.CalledProcessError, BundleError) as exc:
        print(f"update: {device}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    _say(f"update: {device}: " + ("no update bundle" if body is None else
                                  f"offers {body['version']}" + (f" ({body['problem']})" if body["problem"] else "")))
    return 0


def status(a: argparse.Namespace) -> int:
    folder = Path(a.update_dir)
    print(json.dumps({**read_status(folder), "slots": read_slots(folder)}, sort_keys=True))
    return 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="companion update", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    v = sub.add_parser("verify", help="check a bundle: exit 0 when it may be installed, else 2 and why")
    v.add_argument("bundle")
    v.add_argument("--key", type=Path, help="the public key (PEM) to trust instead of the box's")
    v.add_argument("--allow-downgrade", action="store_true", help="accept a bundle older than what runs")
    i = sub.add_parser("install", help="write a bundle to the other system slot and restart into it (root)")
    i.add_argument("bundle", nargs="?")
    i.add_argument("--request", action="store_true", help="install the bundle the page or the USB stick asked for")
    i.add_argument("--allow-downgrade", action="store_true")
    i.add_argument("--no-reboot", action="store_true", help="write it, do not restart")
    c = sub.add_parser("check", help="at each start: keep a new system or go back (root)")
    c.add_argument("--deadline", type=float, default=DEADLINE_S, help="seconds a new system has to get ready")
    s = sub.add_parser("status", help="what the last update did (JSON)")
    o = sub.add_parser("offer", help="offer a USB stick's update bundle on the OLED (root, from udev)")
    o.add_argument("device", type=Path)
    o.add_argument("--gone", action="store_true", help="the stick was taken out")
    for q in (i, s, o):
        q.add_argument("--update-dir", default=str(UPDATE_DIR), help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.what == "install" and not a.request and not a.bundle:
        p.error("install: give the BUNDLE (or --request)")
    return {"verify": verify, "install": do_install, "check": do_check, "status": status, "offer": do_offer}[a.what](a)
