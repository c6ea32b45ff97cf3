"""Helpers any floor of `companion/` may use: they know nothing of tables, games or hardware.

This is the lowest floor (README's "How it is built"): nothing here imports anything else of
`companion`. What belongs here is small and general, e.g. durable file writes (`fsutil`), files
the box does not trust read with bounds (`bounded`), the error types (`errors`) and text made
safe to write out or show (`safe_text`). A helper that needs to know of a table, a game, the
journal or a device belongs on that floor instead.
"""
