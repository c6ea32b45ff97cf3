"""The table's finished games for BG Stats: its own JSON export file, and the one-tap "createPlay" link.

The file follows the layout of a BG Stats export ("Export all data" in the app), checked
against real exports: top-level `about`, `players`, `locations`, `games`, `plays`,
`userInfo`; every object has a stable `uuid` (uuid5, so a second export of the same
games carries the same uuids and BG Stats recognises them), an integer `id` that the
plays refer to (`gameRefId`, `locationRefId`, `playerRefId`) and a `modificationDate`.
A play's `playerScores` carry `score` as a string (BG Stats' own type; "" for a game
without points), `winner`, `newPlayer`, `startPlayer`, `rank`, `role` (Clans: the seat's
secret colour) and `seatOrder`. Dates are the box's local time, "YYYY-MM-DD HH:MM:SS",
like the app's own files.

The link is BG Stats' documented auto-posting deep link
(`https://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>`): one play, with
`sourceName`/`sourcePlayId` so that tapping it twice updates rather than doubles the play.
Its `playDate` is UTC, as the linking documentation asks.
"""

from __future__ import annotations

import datetime as dt
import re
import urllib.parse
import uuid
from typing import Any, Iterable

from companion.history.plays import Play
from companion.history.safe_text import json_text, no_surrogates

__all__ = ["SOURCE_NAME", "LOCATION", "bgstats_document", "bgstats_json", "create_play_link", "ranks", "slug",
           "game_info", "play_date"]

SOURCE_NAME = "Clans companion"
LOCATION = "Clans companion"
LINK = "https://app.bgstatsapp.com/createPlay.html?data="
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/clans-companion/bgstats")
ABOUT = ("This is a BG Stats file written by the Clans companion. Open it with BG Stats "
         "(Settings, Import) to add the table's games to your plays.")


def slug(name: str) -> str:
    """A stable id from a name: lower case, each run of anything but letters and digits one "-"."""
    text = re.sub(r"[\W_]+", "-", name.casefold()).strip("-")
    return text or "player"


def play_date(seconds: float, utc: bool = False) -> str:
    """Epoch seconds as BG Stats writes dates: "YYYY-MM-DD HH:MM:SS" (local time, or UTC)."""
    when = dt.datetime.fromtimestamp(seconds, dt.timezone.utc) if utc else dt.datetime.fromtimestamp(seconds)
    return when.strftime("%Y-%m-%d %H:%M:%S")


def game_info(kind: str) -> dict[str, Any]:
    """The game's BG Stats facts from its history plug-in: name, bggId (0 when unknown), highestWins, noPoints."""
    from companion.games import GAMES

    module = GAMES[kind].history_module() if kind in GAMES else None
    return {"name": getattr(module, "TITLE", kind), "bggId": getattr(module, "BGG_ID", None) or 0,
            "highestWins": bool(getattr(module, "HIGHEST_WINS", True)),
            "noPoints": bool(getattr(module, "NO_POINTS", False))}


def ranks(play: Play, highest_wins: bool = True) -> list[int]:
    """Each seat's place, 1 the best: the winners first, then by total; equal seats share a place."""
    winners = set(play.winners)

    def key(i: int) -> tuple[bool, int]:
        total = play.totals[i] if i < len(play.totals) else 0
        return (i in winners, total if highest_wins else -total)

    seats = range(len(play.players))
    return [1 + sum(key(j) > key(i) for j in seats) for i in seats]


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, no_surrogates(f"{kind}:{key}")))  # (a --location from bytes not UTF-8)


def _roles(play: Play) -> list[str]:
    colors = list(play.colors or [])
    return [colors[i] if i < len(colors) else "" for i in range(len(play.players))]


def bgstats_document(plays: Iterable[Play], location: str = LOCATION, now: float | None = None) -> dict[str, Any]:
    """The BG Stats export object for `plays` (finished games; abandoned ones are left out)."""
    plays = [p for p in plays if not p.abandoned]
    stamp = play_date(now if now is not None else dt.datetime.now().timestamp())
    players: dict[str, dict[str, Any]] = {}
    games: dict[str, dict[str, Any]] = {}
    out_plays = []
    place = {"uuid": _uuid("location", location), "id": 1, "name": location, "modificationDate": stamp}
    for play in plays:
        info = game_info(play.game)
        if play.game not in games:
            games[play.game] = {"uuid": _uuid("game", play.game), "id": len(games) + 1, "name": info["name"],
                                "modificationDate": stamp, "cooperative": False, "highestWins": info["highestWins"],
                                "noPoints": info["noPoints"], "usesTeams": False, "bggName": info["name"],
                                "bggYear": 0, "bggId": info["bggId"], "isBaseGame": 1, "isExpansion": 0,
                                "rating": 0}
        for name in play.players:
            if name not in players:
                players[name] = {"uuid": _uuid("player", slug(name)), "id": len(players) + 1, "name": name,
                                 "isAnonymous": False, "modificationDate": stamp, "bggUsername": ""}
        places = ranks(play, info["highestWins"])
        roles = _roles(play)
        scores = [{"score": "" if info["noPoints"] else str(play.totals[i]), "winner": i in play.winners,
                   "newPlayer": False, "startPlayer": play.first_player == i,
                   "playerRefId": players[name]["id"], "role": roles[i], "rank": places[i], "seatOrder": i}
                  for i, name in enumerate(play.players)]
        date = play_date(play.started)
        out_plays.append({"uuid": _uuid("play", play.source_id), "modificationDate": stamp, "entryDate": date,
                          "playDate": date, "usesTeams": False, "durationMin": play.duration_min,
                          "ignored": False, "manualWinner": False, "rounds": 0, "importPlayId": 0,
                          "locationRefId": place["id"], "gameRefId": games[play.game]["id"], "board": "",
                          "rating": 0, "nemestatsId": 0, "scoringSetting": 0, "playerScores": scores,
                          "expansionPlays": []})
    return {"about": ABOUT, "players": list(players.values()), "locations": [place] if out_plays else [],
            "games": list(games.values()), "plays": out_plays,
            "userInfo": {"meRefId": 0, "exportDate": stamp, "appVersion": SOURCE_NAME}}


def bgstats_json(plays: Iterable[Play], location: str = LOCATION, now: float | None = None) -> str:
    """`bgstats_document` as the JSON text of a file."""
    return json_text(bgstats_document(plays, location, now), indent=1) + "\n"


def create_play_link(play: Play, location: str = LOCATION) -> str:
    """BG Stats' one-tap link that opens the app on this play, filled in (game, players, scores, winners)."""
    info = game_info(play.game)
    game: dict[str, Any] = {"name": info["name"], "highestWins": info["highestWins"], "noPoints": info["noPoints"],
                            "sourceGameId": play.game}
    if info["bggId"]:
        game["bggId"] = info["bggId"]
    places = ranks(play, info["highestWins"])
    roles = _roles(play)
    players = []
    for i, name in enumerate(play.players):
        entry: dict[str, Any] = {"name": name, "winner": i in play.winners, "startPlayer": play.first_player == i,
                                 "rank": places[i], "role": roles[i], "sourcePlayerId": slug(name)}
        if not info["noPoints"]:
            entry["score"] = play.totals[i]
        players.append(entry)
    data = {"sourceName": SOURCE_NAME, "sourcePlayId": play.source_id, "playDate": play_date(play.started, utc=True),
            "durationMin": play.duration_min, "location": location, "game": game, "players": players}
    return LINK + urllib.parse.quote(json_text(data, separators=(",", ":")), safe="")
