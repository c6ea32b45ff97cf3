"""Valley of the Mammoths as the table knows it before loading it: its `GameType` (companion.table.gametype).

Valley of the Mammoths (La Vallée des Mammouths, Bruno Faidutti; Ludodélire 1991, Jeux
Descartes 2001), 3-6 players, 12 and up, 2 hours (fr.wikipedia via fr-academic.com,
bdml.free.fr fiche 330). It is on BoardGameGeek, but no stored source gives its id:
`bgg_id` 0 and `bgg_year` 0 (what a BG Stats file holds for a game it has no BGG link for),
so the exports leave the id out and the apps match the game by name; a table that knows
it sets it (`companion export --bgg-id mammut=ID`).

The game has no points: a tribe's "total" in the history is the camps it holds at the end
(the measure of victory, 4 to win), and BG Stats is told `noPoints`.
"""

from companion.table.gametype import GameType, Statistic

GAME = GameType(
    kind="mammut", title="Mammut", name="Valley of the Mammoths", module="companion.games.mammut.controller",
    designers="Bruno Faidutti", min_players=3, max_players=6, highest_wins=True, no_points=True,
    min_play_time=120, max_play_time=120, min_age=12,
    stylesheet="companion.games.mammut:page.css",
    speech="companion.games.mammut.speech", web="companion.games.mammut.web", history="companion.games.mammut.history",
    # the games that ended in extinction: per player in the JSON only; per game also in `companion stats --tables`
    statistics=(Statistic("extinctions", "player", "companion.games.mammut.history:player_extinctions"),
                Statistic("extinctions", "game", "companion.games.mammut.history:extinctions", column="extinct")),
    total_words=("camp", "camps"), no_winner=("extinct", "extinct: no winner"),
)
