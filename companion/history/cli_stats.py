"""`companion history` and `companion stats`: the table's finished games and their statistics (spec section 8).

`companion history --remove N` takes game N out of the history (`remove`).

Both read the journal in `--state-dir` read only (`companion.history.plays`). A journal
that cannot be read (none yet, not a journal) is one line on stderr and exit status 1;
a game whose row cannot be read is noted on stderr ("game 12: ... (left out)") and the
rest is listed. `--json` prints the spec's JSON; without it, readable lines (a name kept
before the names' rule shows what it may not hold as codes, "\\u202eAnna": no control
reaches the terminal). Command output is the same in every language (like `replay`): no
text here goes through i18n.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from typing import Any

from companion.history import stats as st
from companion.history.gamefacts import game_name
from companion.history.plays import History, Play, read_history
from companion.journal.reader import JournalUnavailable
from companion.util.safe_text import json_text, line_text


def _load(prog: str, state_dir: str | None, include_abandoned: bool = False) -> History | None:
    """The journal's history (in `state_dir`, default `where.table_state_dir`), damaged rows noted on
    stderr; None (after one line on stderr) when unreadable."""
    from companion.history.where import table_state_dir

    try:
        hist = read_history(table_state_dir(state_dir), include_abandoned=include_abandoned, full=False)
    except JournalUnavailable as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    for why in hist.damaged:
        print(f"{prog}: {why} (left out)", file=sys.stderr)
    return hist


def _parser(prog: str, doc: str | None) -> argparse.ArgumentParser:
    from companion.argtypes import directory

    ap = argparse.ArgumentParser(prog=prog, description=doc)
    ap.add_argument("--state-dir", default=None, type=directory,
                    help="the table's state directory (where its journal is; default: where `companion run` "
                         "keeps it, on the box the kiosk's)")
    ap.add_argument("--json", action="store_true", help="print JSON (contract 8, docs/contracts.md)")
    return ap


def _game(kind: str) -> Any:
    """The registered game `kind` (None when this companion does not know it)."""
    from companion.games import GAMES

    return GAMES.get(kind)


def play_line(play: Play) -> str:
    """One readable line for a game: when, which game, how long, each name with total (in its game's
    words when they are no points, `GameType.total_words`), the winners (or why nobody won, `no_winner`)."""
    when = dt.datetime.fromtimestamp(play.started).strftime("%Y-%m-%d %H:%M")
    if play.abandoned:
        return f"{when}  #{play.game_id} {game_name(play.game)}  (abandoned)"
    game = _game(play.game)
    one, more = game.total_words if game is not None and game.total_words and not st.has_points(play.game) \
        else ("", "")
    seats = ", ".join(f"{line_text(name)} {total}" + (f" {one if total == 1 else more}" if one else "")
                      for name, total in zip(play.players, play.totals))
    if play.winners:
        names = ", ".join(line_text(play.players[w]) for w in play.winners)
        won = ("winners: " if len(play.winners) > 1 else "winner: ") + names
    else:
        extra, words = game.no_winner if game is not None and game.no_winner else ("", "")
        won = words if extra and play.extras.get(extra) else "no winner"
    return f"{when}  #{play.game_id} {game_name(play.game)}  {play.duration_min} min  {seats}  {won}"


def remove(prog: str, state_dir: str | None, game_id: int) -> int:
    """`companion history --remove N`: game N out of the history, the statistics and the exports, kept
    aside in the journal (`Journal.remove_game`); one line, exit 0; a game not in the history, exit 2."""
    from companion.history.where import table_state_dir
    from companion.journal.reader import JournalReader
    from companion.journal.store import Journal, JournalError

    state = table_state_dir(state_dir)
    try:
        JournalReader(state).check()  # never make a journal to take a game out of
        readable = read_history(state, full=False, game_id=game_id).plays
        journal = Journal(state)
        try:
            why = journal.remove_game(game_id, "taken out by companion history --remove")
        finally:
            journal.close()
    except JournalUnavailable as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    except (JournalError, OSError) as exc:
        print(f"{prog}: cannot write the journal: {exc}", file=sys.stderr)
        return 1
    if why is not None:
        print(f"{prog}: --remove {game_id}: game {game_id} is not in the history ({why}): "
              "`companion history` lists the games and their numbers", file=sys.stderr)
        return 2
    shown = f": {play_line(readable[0])}" if readable else " (it was unreadable)"
    print(f"game {game_id} taken out of the history, the statistics and the exports (kept aside in the "
          f"journal){shown}")
    return 0


def history(argv: list[str]) -> int:
    """`companion history --state-dir DIR [--json] [--all] [--remove N]`: the table's finished games,
    oldest first; `--remove N` takes game N out of them (kept aside in the journal)."""
    from companion.argtypes import whole

    ap = _parser("companion history", history.__doc__)
    ap.add_argument("--all", action="store_true", help="include abandoned games (marked as such)")
    ap.add_argument("--remove", type=whole(1, 2**63 - 1), default=None, metavar="N",
                    help="take game N (the #N of the list) out of the history, the statistics and the exports; "
                         "it is kept aside in the journal")
    args = ap.parse_args(argv)
    if args.remove is not None:
        return remove("companion history", args.state_dir, args.remove)
    hist = _load("companion history", args.state_dir, include_abandoned=args.all)
    if hist is None:
        return 1
    if args.json:
        print(json_text([p.history_json() for p in hist.plays], indent=1))
    elif not hist.plays:
        print("no finished games yet")
    else:
        for play in hist.plays:
            print(play_line(play))
    return 0


def _num(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.0f}%"


def players_text(players: dict[str, dict[str, Any]]) -> list[str]:
    """The per-player table as aligned lines."""
    if not players:
        return ["no finished games yet"]
    width = max(6, *(len(line_text(n)) for n in players))
    own = [stat for _kind, stat in st.statistics("player") if stat.column]  # the games' columns, before nemesis
    head = f"{'player':<{width}}  games  wins  win%    avg  best  streak  " + "".join(f"{c.column}  " for c in own)
    lines = [head + "nemesis"]
    for name, s in players.items():
        lines.append(f"{line_text(name):<{width}}  {s['games']:>5}  {s['wins']:>4}  {_pct(s['win_rate']):>4}  "
                     f"{_num(s['average_total']):>5}  {_num(s['best_total']):>4}  {s['longest_streak']:>6}  "
                     + "".join(f"{_num(s[c.name]):>{len(c.column)}}  " for c in own)
                     + f"{line_text(s['nemesis'] or '-')}")
    return lines


def tables_text(table: dict[str, Any]) -> list[str]:
    """The table-level statistics (per game and player count, colours, head-to-head) as readable lines."""
    lines = ["", "per game and player count:"]
    own = [stat for _kind, stat in st.statistics("game") if stat.column]  # ", {column} {value}" when not 0
    for kind, counts in table["games"].items():
        for n, s in counts.items():
            seats = " ".join(f"{i + 1}:{_pct(r)}" for i, r in enumerate(s["seat_win_rate"]))
            extra = f", first player wins {_pct(s['first_player_win_rate'])}" \
                if s["first_player_win_rate"] is not None else ""
            if "average_winning_total" in s:
                extra += f", winning total {_num(s['average_winning_total'])}"
            extra += "".join(f", {c.column} {_num(s[c.name])}" for c in own if s[c.name])
            lines.append(f"  {game_name(kind)}, {n} players: {_games(s['games'])}{extra}; seat wins {seats}")
    if table["colors"]:
        lines += ["", "average total by colour: " + ", ".join(f"{c} {_num(v)}" for c, v in table["colors"].items())]
    if table["head_to_head"]:
        lines += ["", "head to head:"]
        for pair, h in table["head_to_head"].items():
            a, b = pair.split("|", 1)
            lines.append(f"  {line_text(a)} {h[a]} - {h[b]} {line_text(b)} ({_games(h['games'])}, {h['ties']} shared)")
    return lines


def stats(argv: list[str]) -> int:
    """`companion stats --state-dir DIR [--json] [--tables]`: statistics per player (and with --tables,
    per game and player count, seat, colour and head-to-head)."""
    ap = _parser("companion stats", stats.__doc__)
    ap.add_argument("--tables", action="store_true",
                    help="also per game and player count, colours, head-to-head (with --json: one object)")
    args = ap.parse_args(argv)
    hist = _load("companion stats", args.state_dir)
    if hist is None:
        return 1
    plays = hist.finished
    if args.json:
        out = st.table_stats(plays) if args.tables else st.player_stats(plays)
        print(json_text(out, indent=1))
        return 0
    lines = players_text(st.player_stats(plays))
    if args.tables:
        lines += tables_text(st.table_stats(plays))
    print("\n".join(lines))
    return 0
