"""The journal: the ground floor that the kiosk and the page stand on.

The kiosk (`companion run`) writes every move here before its screen confirms it; the page
(`companion web`) and the history read it, each in its own process. This package imports
nothing of theirs (nor of the box's set-up or the tools): only `companion.table`, for the
effects it journals and the errors it raises.

store    the SQLite schema, `Journal` (open, resume, set aside, finished games, settings)
         and `JournalWriter`, the kiosk's side (one transaction per batch of effects)
repair   the check at every start, on a copy: a damaged journal kept aside and salvaged
late     `LateJournal`: the kiosk's stand-in while the journal cannot be opened
reader   `JournalReader`: read only, never a lock held (the page, the history, the exports)
port     `JournalPort`: what the kiosk asks of its journal (the writer, the late one, none)

Every SQL statement is written here: the history, the page and the kiosk ask by name.
"""
