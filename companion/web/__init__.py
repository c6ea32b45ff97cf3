"""The table's page (`companion web`): the live game on the phones at the table, a separate process.

server (the command) -> app (aiohttp routes, guards, event streams) -> views (journal rows to
public views through each game's web module, companion.table.gameweb) -> companion.journal.reader
(the journal, read only). guard: Host checks, headers, PIN and sessions. keylink: keys from
phones to the daemon's key socket (companion.hw.keysocket). pages: the HTML.
"""
