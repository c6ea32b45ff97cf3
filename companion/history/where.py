"""Where the table's journal is for `companion history`, `stats`, `export` and `import`.

The same place `companion run` uses (`journal.find_state_dir`): `--state-dir` when given;
else on the box (a Raspberry Pi, or a config file at /etc/companion/config.yaml) the
config's `state_dir`, else systemd's $STATE_DIRECTORY, else /var/lib/companion (the
kiosk's own state directory); else, on a laptop, ~/.local/state/companion
($XDG_STATE_HOME/companion).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["table_state_dir", "ensure_box_id"]


def table_state_dir(explicit: str | None) -> str:
    """`explicit`, else the state directory `companion run` would use (UsageError for a bad config)."""
    if explicit:
        return explicit
    from companion.box import config
    from companion.hw.platform import is_raspberry_pi
    from companion.util.errors import UsageError
    from companion.journal.store import find_state_dir

    try:
        cfg = config.load_config(None)
    except config.ConfigError as exc:
        raise UsageError(f"{exc} (or give --state-dir DIR)") from None
    return find_state_dir(None, cfg, on_box=is_raspberry_pi())


def ensure_box_id(state_dir: str | Path) -> None:
    """Give the journal in `state_dir` its box id (`Journal.box_id`) if it has none yet. Nothing is
    created where there is no journal, and a journal that cannot be written to is left as it is
    (the exports then use one made from the directory's path: `plays.box_of`)."""
    from companion.journal.store import BOX_SETTING, Journal, JournalError
    from companion.journal.reader import JournalReader, JournalUnavailable

    if not (Path(state_dir) / "journal.sqlite3").is_file():
        return
    try:
        if JournalReader(state_dir).has_setting(BOX_SETTING):
            return
        journal = Journal(state_dir)
        try:
            journal.box_id()
        finally:
            journal.close()
    except (JournalError, JournalUnavailable, OSError):
        return
