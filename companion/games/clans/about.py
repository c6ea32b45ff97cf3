"""Clans as the table knows it before loading it: its `GameType` (companion.table.gametype).

Every figure has a source a reader can check; a figure nobody could confirm would be 0.
Clans (Leo Colovini; Winning Moves, Rio Grande Games, Venice Connection, 2002), 2-4
players, 10 and up, 30-45 minutes: the German Wikipedia article (de.zxc.wiki/wiki/Clans)
and the publishers' boxes as reviewed on rareboardgames.com and boardgamegeek.com (thread
136214). Its BoardGameGeek id, 4636: a club's play log of 28 November 2002, "Clans ( Winning
Moves ) BGG Id: 4636" (trickylight.co.uk/session_detail.php?sessionid=175). The 4226 an
earlier version said had no source.
"""

from companion.games.clans.board import BOARD_FILE
from companion.i18n import N_
from companion.table.gametype import GameType, Statistic

GAME = GameType(
    kind="clans", title="Clans", name="Clans", module="companion.games.clans.controller",
    designers="Leo Colovini", min_players=2, max_players=4, highest_wins=True,
    bgg_id=4636, bgg_year=2002, min_play_time=30, max_play_time=45, min_age=10,
    bots=("easy", "normal", "hard", "random", "greedy", "mcts"), default_bot="normal", quick_start=True, searcher="companion.games.clans.bots.runner:make_searcher",
    camera="companion.games.clans.camera.watch:Watcher",
    # NOTE: the table's page: the camera page, above the picture (the board file's corners (0,0), (1200,0), (1200,800), (0,800))
    camera_help=N_("Tap the board's four corners in this order: beside territory 1, at the top of the scoring "
                   "track, by its CLANS label, the last one. Then save them."),
    # the table's MCTS as tuned with `companion clans arena` (the normal level's defaults are the same);
    # --bot-iterations adds a fixed budget
    bot_options={"mcts": {"c": 0.7, "reward": "mix", "search": "halving", "horizon": 12}},
    commands={
        "replay": ("companion.games.clans.commands:replay", "check and play a game record, print the result"),
        "selfplay": ("companion.games.clans.commands:selfplay", "play random games: the engine's throughput benchmark"),
        "new": ("companion.games.clans.commands:new", "write a fresh game record with a random R1 setup"),
        "board": ("companion.games.clans.boardmap:main", "draw a printable numbered map of the board"),
        "arena": ("companion.games.clans.bots.arena:main", "play bots against each other and print win rates"),
        "camera": ("companion.games.clans.camera.command:main", "the camera above the board: camera propose (the move two photographs show)"),
    },
    sounds={"village": ((880.0, 0.08), (None, 0.06), (1175.0, 0.12)),  # two rising
            "epoch": ((660.0, 0.1), (None, 0.06), (660.0, 0.1), (None, 0.06), (990.0, 0.2))},  # three
    sound_words={
        # NOTE: the announce log's words for a buzzer pattern (not spoken)
        "village": N_("Beep: village founded."),
        # NOTE: the announce log's words for a buzzer pattern (not spoken)
        "epoch": N_("Beep: new epoch."),
    },
    stylesheet="companion.games.clans:page.css", board=BOARD_FILE,
    speech="companion.games.clans.speech", web="companion.games.clans.web", history="companion.games.clans.history",
    # in `companion stats --json` and /api/stats only (no column of the command or the page)
    statistics=(Statistic("villages_founded", "player", "companion.games.clans.history:villages_founded"),),
)
