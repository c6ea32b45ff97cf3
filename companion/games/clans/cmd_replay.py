"""`companion replay RECORD [--json]`: check a game record and show where it stands (spec section 2)."""

from __future__ import annotations

import argparse
import json
import sys

from companion.games.clans.record import Record, RecordError, summary


def _text(s: dict) -> str:
    lines = [f"status: {s['status']}" + (f", player {s['to_move'] + 1} to move" if s["to_move"] is not None else ""),
             f"epoch: {s['epoch']}"]
    for n, v in enumerate(s["villages"], start=1):
        what = "destroyed" if v["destroyed"] else (f"{v['value']} to {', '.join(v['colors'])}" if v["colors"]
                                                   else "emptied by strife")
        strife = f" (strife removed {', '.join(f'{k} {c}' for k, c in v['removed'].items())})" if v["removed"] else ""
        lines.append(f"village {n:>2}: {v['territory']:>2} epoch {v['epoch']} by player {v['founder'] + 1}: "
                     f"{what}{strife}")
    lines.append("scores: " + ", ".join(f"{c} {p}" for c, p in s["scores"].items()))
    lines.append("chips: " + ", ".join(f"player {i + 1} {c}" for i, c in enumerate(s["chips"])))
    if "totals" in s:
        lines.append("totals: " + ", ".join(f"player {i + 1} {t}" for i, t in enumerate(s["totals"])))
        lines.append("winner" + ("s" if len(s["winners"]) > 1 else "") + ": "
                     + ", ".join(f"player {w + 1}" for w in s["winners"]))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="companion replay", description=__doc__)
    ap.add_argument("record", help="a game record (JSON)")
    ap.add_argument("--json", action="store_true", help="print one JSON object (the spec's format)")
    args = ap.parse_args(argv)
    try:
        record = Record.load(args.record)
        game = record.play()
    except RecordError as exc:
        print(f"companion replay: {args.record}: {exc}", file=sys.stderr)
        return 2
    s = summary(game, record.colors)
    print(json.dumps(s, indent=1) if args.json else _text(s))
    return 0
