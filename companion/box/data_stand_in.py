"""What the SD-card image's companion-data left for the kiosk when the card had no data
partition (or it would not mount): /data is then a stand-in in RAM, the box plays, and its
games last only until it is switched off. The file holds one word: "missing" or "damaged"."""

from __future__ import annotations

STAND_IN_FILE = "/run/companion-box/data-stand-in"
REASONS = ("missing", "damaged")


def read_stand_in(path: str = STAND_IN_FILE) -> str | None:
    """Why /data is a stand-in ("missing", "damaged"), or None when it is the card's own
    partition (or this is not the image). Anything unreadable or unknown counts as "missing":
    the notice must not be lost to a stray byte."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            word = f.read(64).strip()
    except FileNotFoundError:
        return None
    except OSError:
        return "missing"
    return word if word in REASONS else "missing"
