"""The table's memory: finished games read from the journal (plays), statistics, exports and imports.

plays (journal rows -> `Play`, through each game's history plug-in) -> stats (per player,
per game, seats, head-to-head) and export (BG Stats, BoardGameGeek XML, CSV, JSON
records; `companion import` brings JSON records back), all from `companion.journal.reader`
(the journal, read only, never a lock held; the table's page reads its live game through it
too). Nothing here writes the journal except `importer`, through the journal's own transactions.
"""
