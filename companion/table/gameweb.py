"""What a game gives the table's page (`GameWeb`), and the small HTML helpers its views share.

A game's web module (named by its description, `GameType.web`) is a plain module with
the functions of `GameWeb`. The page knows no game: it rebuilds the game from the journal
with the game's own `from_actions`, then asks that module for the public state (the JSON
of spec section 7) and for HTML fragments (the live view, one replay step).

Everything a view returns is public: no secret (a Clans color dealt to a seat) may appear
before the game reveals it. Fragments use no inline script and no `style=` attribute (the
page's Content-Security-Policy refuses both); SVG presentation attributes are fine.
It stands beside `GameType` (companion.table.gametype), below the games and the page: the
games' web modules import it from here, never from the page.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable, Protocol

from companion.util.safe_text import printable


class GameWeb(Protocol):
    """The functions of a game's web module (`table` is the game's `TableGame`)."""

    def public_state(self, table: Any) -> dict:
        """The `state` object of /api/state: public facts only."""

    def live_html(self, table: Any) -> str:
        """The live view: map or books, whose turn, the last result, in the table's language."""

    def steps(self, table: Any) -> list[str]:
        """The replay's steps, one label each ("3. P1 12 -> 13"); step k shows the game after k of them."""

    def step_html(self, table: Any, k: int) -> str:
        """The game after `k` steps (0: the start), as a fragment."""

    def record(self, table: Any) -> str | None:
        """The public record (for Clans spec section 1, no secret color before the reveal), or None."""


def esc(value: Any) -> str:
    """Text made safe for HTML content and attribute values."""
    return escape(str(value), quote=True)


def name_text(name: Any) -> str:
    """A player's name as the page shows it, not yet escaped: unchanged when the names' rule accepts
    it; a name kept before the rule (an old journal's) has what a name may not hold written as its
    code ("\\u202eAnna"), so a bidirectional control cannot turn the text around it."""
    return printable(str(name))


def attrs(**values: Any) -> str:
    """` name="value"` pairs (None dropped; `cls` -> class, `for_` -> for, `data_x` -> data-x)."""
    out = []
    for name, value in values.items():
        if value is None:
            continue
        name = "class" if name == "cls" else name.rstrip("_").replace("_", "-")  # for_ -> for
        out.append(f' {name}="{esc(value)}"')
    return "".join(out)


def tag(name: str, content: str = "", **values: Any) -> str:
    """`<name attrs>content</name>`; `content` is already HTML (escape text with `esc`)."""
    return f"<{name}{attrs(**values)}>{content}</{name}>"


def table(headers: Iterable[str], rows: Iterable[Iterable[str]], caption: str = "", cls: str = "") -> str:
    """A small HTML table of already-escaped cells (a header row, then rows)."""
    head = "".join(tag("th", h, scope="col") for h in headers)
    body = "".join(tag("tr", "".join(tag("td", c) for c in row)) for row in rows)
    cap = tag("caption", esc(caption)) if caption else ""
    return tag("table", f"{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody>", cls=cls or None)


def paragraphs(lines: Iterable[str], cls: str = "") -> str:
    """Plain text lines as escaped <p> elements."""
    return "".join(tag("p", esc(line), cls=cls or None) for line in lines)
