"""The table's finished games for BG Stats: a play file it merges, and the one-tap "createPlay" link.

The file is a BG Stats *play file* (`.bgsplay`), the form another app hands BG Stats to add
plays: opened with the app, it shows its matching screen (each player and game matched to
the user's own, or added) and merges the plays. It is not a backup: a backup restore may
replace the user's data. The layout is that of real BG Stats files (four exports of app
versions 5.3.1 to 6.14.2, and RickardNi/MagicPlayExporter's play files, Models/Export/):
top-level `about`, `players`, `locations`, `games`, `plays`, `userInfo`; every object a
`uuid`, an integer `id` the plays refer to (`gameRefId`, `locationRefId`, `playerRefId`)
and a `modificationDate`, dates the box's local time "YYYY-MM-DD HH:MM:SS".

* Players: one per person, by the table's one names' rule (`seatnames.same_key`, the rule that
  refuses "Anna" and "ANNA" side by side at one table: "Anna" in one game and "anna" in the next
  are one player, as in the statistics, companion.history.stats), named by their most recent
  spelling in the file's plays; its `uuid` a uuid5 of the box's id and the person's key (unique per
  person and per box; stable, so a second file from the box names the same players whatever the
  spelling). Seats that are no one person (a guest "Guest 2", a default "Player 2", a bot "Bot 3
  (mcts)": `seatnames.is_placeholder`) all go to ONE anonymous player (`isAnonymous` true,
  "Anonymous player"), as real files do, one `playerScores` entry per seat; such a seat's
  `metaData` (a JSON text, as real files give some seats: `{"scoreUuid": ...}`) keeps the table's
  name for it, `{"companionSeat": "Bot 3 (mcts)"}` (SEAT_META), so that `companion import` of the
  file gives the seat back as the table named it (companion.history.foreign).
* `userInfo.meRefId`: the player who sends the file. The sender is the table, so the file
  lists it as a player of its own, SENDER (25 characters: no player's name can be it), in no
  play; the matching screen lets the user match it to themselves.
* A play's `playerScores`: `score` as text (null for a game without points), `winner`,
  `newPlayer`, `startPlayer`, `rank`, `role` (Clans: the seat's secret colour), `seatOrder`
  (the seat, 1-based; real files write 0 for "not set") and `startPosition` (the turn order
  as text, "1" the first player; "" when unknown). `plays[].bggId` 0 (no BGG play yet).
* Games carry what real files hold (`bggYear`, `designers`, players and time, `copies`):
  companion.history.gamefacts.

The link is BG Stats' documented deep link (bgstatsapp.com, "push plays to BG Stats from
other apps"): `https://app.bgstatsapp.com/createPlay.html?data=<URL-encoded JSON>`, one play,
`sourceName`/`sourcePlayId` so tapping it twice updates rather than doubles the play, and a
`sourcePlayerId` per person (the player's uuid, `player_uuid`). Its `playDate` is UTC.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import urllib.parse
import uuid
from typing import Any, Iterable, Mapping

from companion.history.gamefacts import game_info
from companion.history.plays import Play
from companion.history.stats import person, spellings
from companion.util.safe_text import json_text, no_surrogates

__all__ = ["SOURCE_NAME", "LOCATION", "SENDER", "ANONYMOUS", "SEAT_META", "bgstats_document", "bgstats_json",
           "create_play_link", "ranks", "slug", "game_info", "play_date", "player_uuid", "is_anonymous",
           "start_positions"]

SOURCE_NAME = "Clans companion"
LOCATION = "Clans companion"
SENDER = "The Clans companion table"  # longer than any name (24): never a player's
ANONYMOUS = "Anonymous player"  # BG Stats' own name for its anonymous player
SEAT_META = "companionSeat"  # an anonymous seat's metaData key: the table's name for the seat ("Bot 3 (mcts)")
LINK = "https://app.bgstatsapp.com/createPlay.html?data="
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/clans-companion/bgstats")
ABOUT = ("This is a Play file that can be read by Board Game Stats, written by the Clans companion. "
         "Open it with Board Game Stats (share it to the app, or tap it in a file manager): the app "
         "shows its matching screen and merges the plays. It is not a backup: do not restore it.")


def slug(name: str) -> str:
    """A readable id from a name (lower case, runs of anything but letters and digits one "-").
    Never an identity: "Anna" and "anna" share a slug (player ids are `player_uuid`)."""
    text = re.sub(r"[\W_]+", "-", name.casefold()).strip("-")
    return text or "player"


def play_date(seconds: float, utc: bool = False) -> str:
    """Epoch seconds as BG Stats writes dates: "YYYY-MM-DD HH:MM:SS" (local time, or UTC)."""
    when = dt.datetime.fromtimestamp(seconds, dt.timezone.utc) if utc else dt.datetime.fromtimestamp(seconds)
    return when.strftime("%Y-%m-%d %H:%M:%S")


def _box_namespace(box: str) -> uuid.UUID:
    try:
        return uuid.UUID(box)
    except ValueError:
        return uuid.uuid5(_NAMESPACE, "box:" + box.encode("utf-8", "surrogatepass").hex())


def player_uuid(box: str, name: str) -> str:
    """The player's uuid: a uuid5 of the box's id and the person's key (`seatnames.same_key`: "Anna" and
    "ANNA" have one uuid; otherwise every code point counts)."""
    key = person(name)
    key = name if key is None else key
    return str(uuid.uuid5(_box_namespace(box), "player:" + key.encode("utf-8", "surrogatepass").hex()))


def is_anonymous(name: str) -> bool:
    """A seat that is no one person: a guest, a default "Player N", a bot (`stats.person` is None)."""
    return person(name) is None


def ranks(play: Play, highest_wins: bool = True) -> list[int]:
    """Each seat's place, 1 the best: the winners first, then by total; equal seats share a place."""
    winners = set(play.winners)

    def key(i: int) -> tuple[bool, int]:
        total = play.totals[i] if i < len(play.totals) else 0
        return (i in winners, total if highest_wins else -total)

    seats = range(len(play.players))
    return [1 + sum(key(j) > key(i) for j in seats) for i in seats]


def start_positions(play: Play) -> list[int | None]:
    """Each seat's place in the turn order, 1 the first player (None each when it is not known)."""
    n, first = len(play.players), play.first_player
    if first is None or not 0 <= first < n:
        return [None] * n
    return [(i - first) % n + 1 for i in range(n)]


def _uuid(kind: str, key: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, no_surrogates(f"{kind}:{key}")))  # (a --location from bytes not UTF-8)


def _roles(play: Play) -> list[str]:
    colors = list(play.colors or [])
    return [colors[i] if i < len(colors) else "" for i in range(len(play.players))]


def _game(kind: str, gid: int, stamp: str, ids: Mapping[str, int] | None) -> dict[str, Any]:
    info = game_info(kind, ids)
    return {"uuid": _uuid("game", kind), "id": gid, "name": info["name"], "modificationDate": stamp,
            "cooperative": False, "highestWins": info["highestWins"], "noPoints": info["noPoints"],
            "usesTeams": False, "bggName": info["name"] if info["bggId"] else "", "bggYear": info["bggYear"],
            "bggId": info["bggId"], "designers": info["designers"], "isBaseGame": 1, "isExpansion": 0,
            "rating": 0, "minPlayerCount": info["minPlayerCount"], "maxPlayerCount": info["maxPlayerCount"],
            "minPlayTime": info["minPlayTime"], "maxPlayTime": info["maxPlayTime"], "minAge": info["minAge"],
            "preferredImage": 0, "previouslyPlayedAmount": 0, "copies": []}


class _Players:
    """The file's players: the sender first, then each person as met (named by `spelled`: their most recent
    spelling), the anonymous one when needed."""

    def __init__(self, box: str, stamp: str, spelled: Mapping[str, str]) -> None:
        self.box, self.stamp, self.spelled = box, stamp, spelled
        self.by_name: dict[str, dict[str, Any]] = {}  # by person (`person`)
        self.anonymous: dict[str, Any] | None = None
        self.sender = self._entry(str(uuid.uuid5(_box_namespace(box), "sender")), SENDER, False)

    def _entry(self, uid: str, name: str, anonymous: bool) -> dict[str, Any]:
        return {"uuid": uid, "id": 1 + len(self.by_name) + (self.anonymous is not None) + hasattr(self, "sender"),
                "name": name, "isAnonymous": anonymous, "modificationDate": self.stamp, "bggUsername": "",
                "metaData": json.dumps({"isNpc": 0})}

    def ref(self, name: str) -> int:
        key = person(name)
        if key is None:
            if self.anonymous is None:
                self.anonymous = self._entry(str(uuid.uuid5(_box_namespace(self.box), "anonymous")), ANONYMOUS, True)
            return self.anonymous["id"]
        if key not in self.by_name:
            self.by_name[key] = self._entry(player_uuid(self.box, name), self.spelled.get(key, name), False)
        return self.by_name[key]["id"]

    def listed(self) -> list[dict[str, Any]]:
        out = [self.sender, *self.by_name.values(), *([self.anonymous] if self.anonymous else [])]
        return sorted(out, key=lambda p: p["id"])


def _scores(play: Play, info: dict[str, Any], players: _Players) -> list[dict[str, Any]]:
    places, roles, order = ranks(play, info["highestWins"]), _roles(play), start_positions(play)
    out = []
    for i, name in enumerate(play.players):
        score = {"score": None if info["noPoints"] else str(play.totals[i]), "winner": i in play.winners,
                 "newPlayer": False, "startPlayer": play.first_player == i, "playerRefId": players.ref(name),
                 "role": roles[i], "rank": places[i], "seatOrder": i + 1,
                 "startPosition": "" if order[i] is None else str(order[i])}
        if is_anonymous(name):  # the table's name for the seat, for `companion import` of this file
            score["metaData"] = json_text({SEAT_META: name}, separators=(",", ":"))
        out.append(score)
    return out


def bgstats_document(plays: Iterable[Play], location: str = LOCATION, now: float | None = None,
                     box: str | None = None, bgg_ids: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The BG Stats play file's object for `plays` (finished games; abandoned ones are left out).
    `box`: the box's id (default: the plays' own, `Play.box`)."""
    plays = [p for p in plays if not p.abandoned]
    box = box if box is not None else next((p.box for p in plays if p.box), "")
    stamp = play_date(now if now is not None else dt.datetime.now().timestamp())
    players = _Players(box, stamp, spellings(plays))
    games: dict[str, dict[str, Any]] = {}
    out_plays = []
    place = {"uuid": str(uuid.uuid5(_box_namespace(box), "location:" + no_surrogates(location))), "id": 1,
             "name": location, "modificationDate": stamp}
    for play in plays:
        info = game_info(play.game, bgg_ids)
        if play.game not in games:
            games[play.game] = _game(play.game, len(games) + 1, stamp, bgg_ids)
        date = play_date(play.started)
        out_plays.append({"uuid": _uuid("play", play.source_id), "modificationDate": stamp, "entryDate": date,
                          "playDate": date, "usesTeams": False, "durationMin": play.duration_min,
                          "ignored": False, "manualWinner": False, "rounds": 0, "bggId": 0, "importPlayId": 0,
                          "locationRefId": place["id"], "gameRefId": games[play.game]["id"], "board": "",
                          "rating": 0, "nemestatsId": 0, "scoringSetting": 0,
                          "playerScores": _scores(play, info, players), "expansionPlays": []})
    return {"about": ABOUT, "players": players.listed(), "locations": [place] if out_plays else [],
            "games": list(games.values()), "plays": out_plays,
            "userInfo": {"meRefId": players.sender["id"], "bggUsername": "", "exportDate": stamp,
                         "appVersion": SOURCE_NAME}}


def bgstats_json(plays: Iterable[Play], location: str = LOCATION, now: float | None = None,
                 box: str | None = None, bgg_ids: Mapping[str, int] | None = None) -> str:
    """`bgstats_document` as the JSON text of a `.bgsplay` file."""
    return json_text(bgstats_document(plays, location, now, box, bgg_ids), indent=1) + "\n"


def _source_player_id(box: str, name: str) -> str:
    return player_uuid(box, name)


def create_play_link(play: Play, location: str = LOCATION, bgg_ids: Mapping[str, int] | None = None) -> str:
    """BG Stats' one-tap link that opens the app on this play, filled in (game, players, scores, winners)."""
    info = game_info(play.game, bgg_ids)
    game: dict[str, Any] = {"name": info["name"], "highestWins": info["highestWins"], "noPoints": info["noPoints"],
                            "sourceGameId": play.game}
    if info["bggId"]:
        game["bggId"] = info["bggId"]
    places, roles = ranks(play, info["highestWins"]), _roles(play)
    players = []
    for i, name in enumerate(play.players):
        entry: dict[str, Any] = {"name": name, "winner": i in play.winners, "startPlayer": play.first_player == i,
                                 "rank": places[i], "role": roles[i],
                                 "sourcePlayerId": _source_player_id(play.box, name)}
        if not info["noPoints"]:
            entry["score"] = play.totals[i]
        players.append(entry)
    data = {"sourceName": SOURCE_NAME, "sourcePlayId": play.source_id, "playDate": play_date(play.started, utc=True),
            "durationMin": play.duration_min, "location": location, "game": game, "players": players}
    return LINK + urllib.parse.quote(json_text(data, separators=(",", ":")), safe="")


