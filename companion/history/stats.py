"""Statistics over the table's finished games: per player, per game and player count, head-to-head, colours.

Pure functions over a list of `Play` (no I/O). Only finished games count: an abandoned
`Play` given to any function here is left out.

Players are people, known by the table's one names' rule: two names the rule takes for one
person's ("Anna", "ANNA", "anna ": `seatnames.same_key`, the rule that refuses them side by side
at one table) are one player, whatever games they were written in, shown by their most recent
spelling (`spellings`). The seats the table names itself (a guest "Guest 2", a default "Player 2",
a bot "Bot 2 (mcts)": `seatnames.is_placeholder`) are no one person: they are anonymous here, left
out of every per-player figure (players, nemesis, head-to-head, the page's plot), while their seats
still count as seats of the game (seat and first player win rates, the winners' average, colour
averages). Points (average and best total) come only from games whose history
plug-in says they have points (`NO_POINTS` False): a Valley of the Mammoths "total" is
the camps held, not points.

Each registered game adds its own statistics (`GameType.statistics`, `statistics`): every
player's entry and every game and player count's entry has every game's, computed by the
game's hook from its plays (none: the statistic's nothing, 0).

Rates are rounded to 3 decimals, averages to 2; every mapping is built in a fixed
order (names and keys sorted), so the same plays always give the same JSON.

`stats_pages` turns the numbers into short pages for the 128x64 OLED.
"""

from __future__ import annotations

import logging
import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable

from companion.history.gamefacts import game_name
from companion.history.plays import Play, iso_time
from companion.i18n import _
from companion.table.seatnames import is_placeholder, same_key  # who a seat is: the table's one names' rule

log = logging.getLogger(__name__)
_FAILED: set[tuple[str, str]] = set()  # the statistics whose failure was logged (once each per process)

if TYPE_CHECKING:
    from companion.table.gametype import Statistic

__all__ = ["person", "spellings", "people_seats", "counted", "player_stats", "game_stats", "head_to_head",
           "head_to_heads", "color_averages", "table_stats", "stats_pages", "has_points", "statistics", "LINE",
           "PAGE_LINES"]

LINE = 21  # characters on one OLED line
PAGE_LINES = 6  # body lines on one OLED page (under its title)
NAME_CUT = 10  # characters of a name shown on the OLED


@lru_cache(maxsize=None)
def has_points(kind: str) -> bool:
    """True when `kind`'s totals are points (its `GameType.no_points` is False; an unknown game's are)."""
    from companion.games import GAMES

    game = GAMES.get(kind)
    return game is None or not game.no_points


def statistics(per: str) -> list[tuple[str, Statistic]]:
    """Every registered game's statistics `per` "player" or "game", in the registry's order: (kind, statistic)."""
    from companion.games import GAMES

    return [(kind, stat) for kind, game in GAMES.items() for stat in game.statistics if stat.per == per]


def statistic_value(kind: str, stat: Statistic, plays: list) -> Any:
    """`stat.value(plays)`, contained: a game's statistic that raises, or gives what is no number
    (nor None), is None in this answer and logged once, so one game's bug never takes the page's
    statistics, `companion stats` or the other games' figures down with it."""
    try:
        value = stat.value(plays)
    except Exception:  # noqa: BLE001 - any bug of a game's hook
        if (kind, stat.name) not in _FAILED:
            _FAILED.add((kind, stat.name))
            log.exception("statistic %s of %s failed: shown as none", stat.name, kind)
        return None
    if value is None or isinstance(value, int) and not isinstance(value, bool) \
            or isinstance(value, float) and math.isfinite(value):
        return value
    if (kind, stat.name) not in _FAILED:
        _FAILED.add((kind, stat.name))
        log.warning("statistic %s of %s gave %s, not a number: shown as none", stat.name, kind, type(value).__name__)
    return None


def counted(plays: Iterable[Play]) -> list[Play]:
    """The plays that count (abandoned ones left out), in time order (started, then game id)."""
    return sorted((p for p in plays if not p.abandoned), key=lambda p: (p.started, p.game_id))


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def _avg(values: list[int] | list[float]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


@lru_cache(maxsize=4096)
def person(name: str) -> str | None:
    """Who a seat's name is: the names' rule's key (`seatnames.same_key`: "Anna" and "ANNA" are one),
    or None for a seat that is no one person (`seatnames.is_placeholder`: "Guest 2", "Player 2",
    "Bot 2 (mcts)")."""
    return None if is_placeholder(name) else same_key(name)


def spellings(plays: Iterable[Play]) -> dict[str, str]:
    """Each person (`person`) and the spelling they are shown by: the one of the last counted game
    (by its start, then game id) they played."""
    out: dict[str, str] = {}
    for play in counted(plays):
        for name in play.players:
            key = person(name)
            if key is not None:
                out[key] = name
    return out


def people_seats(play: Play, spelled: dict[str, str]) -> dict[str, list[int]]:
    """Each person of a play (shown as `spelled`, from `spellings`) and their seats (one person twice at
    one table, as a journal from before the names' rule may hold, is one player); anonymous seats left out."""
    out: dict[str, list[int]] = {}
    for seat, name in enumerate(play.players):
        key = person(name)
        if key is not None:
            out.setdefault(spelled.get(key, name), []).append(seat)
    return out


def _won(play: Play, seats: list[int]) -> bool:
    return any(s in play.winners for s in seats)


def _total(play: Play, seats: list[int]) -> int:
    return max(play.totals[s] for s in seats)


def _longest_streak(results: list[bool]) -> int:
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    return best


def player_stats(plays: Iterable[Play]) -> dict[str, dict[str, Any]]:
    """Per person (one player per `person`, shown by their most recent spelling; anonymous seats left
    out), sorted by name: games, wins, win_rate, average_total, best_total, last_played, longest_streak,
    nemesis, by_game, then every game's statistics per player (`statistics`).

    A shared win is a win. `average_total`/`best_total` are over points games only (None when
    none); `by_game[kind]` has them only when `kind` has points. `nemesis` is the person who most
    often won a game this player played and did not win (ties: alphabetical first; None if none).
    """
    games = counted(plays)
    own = statistics("player")
    spelled = spellings(games)
    per: dict[str, list[tuple[Play, list[int]]]] = {}
    for play in games:
        for name, seats in people_seats(play, spelled).items():
            per.setdefault(name, []).append((play, seats))
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(per):
        mine = per[name]
        results = [_won(p, s) for p, s in mine]
        points = [_total(p, s) for p, s in mine if has_points(p.game)]
        beaten_by: dict[str, int] = {}
        for (play, seats), won in zip(mine, results):
            if won:
                continue
            winners = {spelled[key] for key in (person(play.players[w]) for w in play.winners) if key is not None}
            for winner in sorted(winners - {name}):
                beaten_by[winner] = beaten_by.get(winner, 0) + 1
        nemesis = min(beaten_by, key=lambda n: (-beaten_by[n], n)) if beaten_by else None
        by_game: dict[str, dict[str, Any]] = {}
        for kind in sorted({p.game for p, _s in mine}):
            of_kind = [(p, s) for p, s in mine if p.game == kind]
            wins = sum(_won(p, s) for p, s in of_kind)
            entry: dict[str, Any] = {"games": len(of_kind), "wins": wins, "win_rate": _rate(wins, len(of_kind))}
            if has_points(kind):
                totals = [_total(p, s) for p, s in of_kind]
                entry["average_total"], entry["best_total"] = _avg(totals), max(totals)
            by_game[kind] = entry
        out[name] = {
            "games": len(mine),
            "wins": sum(results),
            "win_rate": _rate(sum(results), len(mine)),
            "average_total": _avg(points),
            "best_total": max(points) if points else None,
            "last_played": iso_time(max(p.finished for p, _s in mine)),
            "longest_streak": _longest_streak(results),
            "nemesis": nemesis,
            "by_game": by_game,
        }
        for kind, stat in own:
            out[name][stat.name] = statistic_value(kind, stat, [(p, s) for p, s in mine if p.game == kind])
    return out


def game_stats(plays: Iterable[Play]) -> dict[str, dict[str, dict[str, Any]]]:
    """Per game kind and player count ("3"): games, first_player_wins, first_player_win_rate (over the
    plays with a known first player; None when none), seat_wins and seat_win_rate (per seat, 0-based),
    every game's statistics per game (`statistics`), and for points games average_winning_total (the
    winners' total, averaged over the plays that have a winner)."""
    own = statistics("game")
    by: dict[str, dict[int, list[Play]]] = {}
    for play in counted(plays):
        by.setdefault(play.game, {}).setdefault(len(play.players), []).append(play)
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for kind in sorted(by):
        out[kind] = {}
        for n in sorted(by[kind]):
            group = by[kind][n]
            known = [p for p in group if p.first_player is not None]
            first_wins = sum(1 for p in known if p.first_player in p.winners)
            seat_wins = [sum(1 for p in group if seat in p.winners) for seat in range(n)]
            entry: dict[str, Any] = {
                "games": len(group),
                "first_player_wins": first_wins,
                "first_player_win_rate": _rate(first_wins, len(known)),
                "seat_wins": seat_wins,
                "seat_win_rate": [_rate(w, len(group)) for w in seat_wins],
            }
            for of_kind, stat in own:
                entry[stat.name] = statistic_value(of_kind, stat, group if of_kind == kind else [])
            if has_points(kind):
                entry["average_winning_total"] = _avg([max(p.totals[w] for w in p.winners)
                                                       for p in group if p.winners])
            out[kind][str(n)] = entry
    return out


def head_to_head(plays: Iterable[Play], a: str, b: str) -> dict[str, int]:
    """`a` against `b` (people: any spelling of theirs, `person`) over the games both played: {"games",
    a: games a won and b did not, b: the reverse, "ties": games both won}; the rest of "games" went
    to someone else. A seat that is no one person plays no head-to-head."""
    out = {"games": 0, a: 0, b: 0, "ties": 0}
    key_a, key_b = person(a), person(b)
    if key_a is None or key_b is None or key_a == key_b:
        return out
    for play in counted(plays):
        seats: dict[str | None, list[int]] = {}
        for seat, name in enumerate(play.players):
            seats.setdefault(person(name), []).append(seat)
        if key_a not in seats or key_b not in seats:
            continue
        won_a, won_b = _won(play, seats[key_a]), _won(play, seats[key_b])
        out["games"] += 1
        if won_a and won_b:
            out["ties"] += 1
        elif won_a:
            out[a] += 1
        elif won_b:
            out[b] += 1
    return out


def head_to_heads(plays: Iterable[Play]) -> dict[str, dict[str, int]]:
    """`head_to_head` for every pair of people who played together (shown by their most recent spelling),
    keyed "A|B" with A < B; one pass over the games (a club's thousands of games and dozens of pairs stay
    well under a second)."""
    pairs: dict[tuple[str, str], dict[str, int]] = {}
    games = counted(plays)
    spelled = spellings(games)
    for play in games:
        seats = people_seats(play, spelled)
        names = sorted(seats)
        won = {n: _won(play, seats[n]) for n in names}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                entry = pairs.setdefault((a, b), {"games": 0, a: 0, b: 0, "ties": 0})
                entry["games"] += 1
                if won[a] and won[b]:
                    entry["ties"] += 1
                elif won[a]:
                    entry[a] += 1
                elif won[b]:
                    entry[b] += 1
    return {f"{a}|{b}": pairs[(a, b)] for a, b in sorted(pairs)}


def color_averages(plays: Iterable[Play]) -> dict[str, float]:
    """The average total of each secret colour, over every seat of every finished points game that
    dealt colours (Clans), sorted by colour."""
    totals: dict[str, list[int]] = {}
    for play in counted(plays):
        if play.colors is None or not has_points(play.game):
            continue
        for color, total in zip(play.colors, play.totals):
            totals.setdefault(str(color), []).append(total)
    return {c: round(sum(t) / len(t), 2) for c, t in sorted(totals.items())}


def table_stats(plays: Iterable[Play]) -> dict[str, Any]:
    """Everything at once (`companion stats --tables --json`): players, games, colors, head_to_head."""
    games = counted(plays)
    return {"players": player_stats(games), "games": game_stats(games), "colors": color_averages(games),
            "head_to_head": head_to_heads(games)}


# ----- the OLED's short pages --------------------------------------------------------------------
def _fit(text: str) -> str:
    return text[:LINE]


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{round(rate * 100)}"


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _paged(title: str, lines: list[str]) -> list[tuple[str, list[str]]]:
    chunks = [lines[i:i + PAGE_LINES] for i in range(0, len(lines), PAGE_LINES)] or [[]]
    return [(title, chunk) for chunk in chunks]


def stats_pages(plays: Iterable[Play]) -> list[tuple[str, list[str]]]:
    """Short pages (title, lines of at most 21 characters) for the 128x64 OLED: one per player (most
    games first, then by name; names cut to 10 characters), then the first player's win rate per game
    and player count."""
    games = counted(plays)
    players = player_stats(games)
    pages: list[tuple[str, list[str]]] = []
    for name in sorted(players, key=lambda n: (-players[n]["games"], n)):
        s = players[name]
        # NOTE: max 21 characters with the numbers filled in, e.g. "Games 123 Wins 45"
        lines = [_("Games {games} Wins {wins}").format(games=s["games"], wins=s["wins"]),
                 # NOTE: max 21 characters with the numbers filled in, e.g. "Win 38%" ({rate}: 0-100)
                 _("Win {rate}%").format(rate=_percent(s["win_rate"]))]
        if s["average_total"] is not None:
            # NOTE: max 21 characters with the numbers filled in, e.g. "Avg 45.25 Best 61"
            lines.append(_("Avg {average} Best {best}").format(average=_number(s["average_total"]),
                                                              best=_number(s["best_total"])))
        # NOTE: max 21 characters with the number filled in, e.g. "Best streak 4" (wins in a row)
        lines.append(_("Best streak {streak}").format(streak=s["longest_streak"]))
        pages.append((_fit(name[:NAME_CUT]), [_fit(line) for line in lines]))
    rates: list[str] = []
    for kind, counts in game_stats(games).items():
        title = game_name(kind)
        for n, s in counts.items():
            if s["first_player_win_rate"] is None:
                continue
            # NOTE: max 21 characters filled in, e.g. "Clans 3p: 40% (12)" ({n}: players, (12): games)
            rates.append(_fit(_("{game} {n}p: {rate}% ({games})").format(
                game=title[:8], n=n, rate=_percent(s["first_player_win_rate"]), games=s["games"])))
    if not rates:
        # NOTE: max 21 characters
        rates = [_("No games yet")]
    # NOTE: max 21 characters (page title)
    pages += _paged(_fit(_("First player wins")), rates)
    return pages
