"""The pieces every Mammut form is built of: a question (`Field`), a form being answered
(`OpenForm`), the kinds of question (a tribe, a count, a camp, yes/no) and the `Form` base.
The forms themselves are in `forms` and `fight_forms`.

A question offers only the answers the rules allow at that point (a list keeps only the
allowed choices; a number's A/B step only through allowed values), and an answer that makes
the rest of the form impossible is refused at that question with the reason, so the game
call a complete form becomes is one the rules accept. A form nobody can fill now is refused
when it is opened (`Form.unavailable`). The questions a form asks never depend on what is
allowed, only what each offers: a journal of an earlier version replays onto the same
questions (`actions.TableState` takes its answers as they were given).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Iterator

from companion.i18n import _

from . import prompts as P
from . import rules as R
from .books import Tribe
from .game import MammutGame
from .rules import MammutError
from .texts import tribe_label

Check = Callable[[Any], "str | None"]


@dataclass(frozen=True)
class Field:
    """One question. Numbers: `lo`..`hi` (A/B step inside), `default` on an empty #.
    Lists: `choices` of (value, label), only those the rules allow (None: a number).
    `check` returns a refusal message or None."""

    name: str
    prompt: str
    lo: int = 0
    hi: int = 99
    default: int | None = None
    choices: tuple[tuple[Any, str], ...] | None = None
    check: Check | None = field(default=None, compare=False)

    @property
    def is_choice(self) -> bool:
        return self.choices is not None

    def problem(self, value: Any) -> str | None:
        """Why `value` is no answer to this question, or None. A list question gives its
        `check`'s reason first (why the rules refuse that value), then "choose one of"."""
        if self.choices is not None:
            why = self.check(value) if self.check is not None else None
            if why is None and not any(value == v and type(value) is type(v) for v, _label in self.choices):
                return P.choose_one_of([label for _value, label in self.choices])
            return why
        if isinstance(value, bool) or not isinstance(value, int):
            return _(P.TYPE_A_NUMBER)
        if self.check is None and not self.lo <= value <= self.hi:
            return P.type_between(self.lo, self.hi, value)
        return self.check(value) if self.check is not None else None

    def allowed(self) -> list[int]:
        """The numbers `lo`..`hi` this question accepts, in order (what A/B step through)."""
        return [v for v in range(self.lo, self.hi + 1) if self.problem(v) is None]


@dataclass(frozen=True)
class OpenForm:
    """A form being answered: its kind, its context ({"tribe": n} for the game's own), the
    answers so far (in order), and whether the game demanded it (`derived`)."""

    kind: str
    ctx: dict = field(default_factory=dict)
    answers: dict = field(default_factory=dict)
    derived: bool = False

    def answered(self, name: str, value: Any) -> OpenForm:
        return replace(self, answers={**self.answers, name: value})

    def take_back(self) -> OpenForm:
        """Without its last answer."""
        answers = dict(self.answers)
        answers.popitem()
        return replace(self, answers=answers)


# ----- kinds of question -------------------------------------------------------------------------
def tribe_field(g: MammutGame, name: str, prompt: str, ok: Callable[[Tribe], str | None] | None = None,
                among: list[int] | None = None) -> Field:
    """Which tribe, from a list of the tribes in the game (or `among`) by the table's name for
    them (color, short name or number): it must be in the game (or come back) and pass `ok`.
    The list offers only the tribes that do, in seat order (digit N is the Nth of them); a
    tribe that does not is refused with `ok`'s reason."""

    def check(v: int) -> str | None:
        try:
            t = g.tribe(v)
        except MammutError as e:
            return str(e)
        if t.eliminated and name != "resurrect":
            return P.eliminated(t)
        return ok(t) if ok is not None else None

    numbers = among if among is not None else [t.number for t in g.living()]
    return Field(name, prompt, choices=tuple((n, tribe_label(g.tribe(n))) for n in numbers if check(n) is None),
                 check=check)


def count_field(name: str, prompt: str, hi: int, too_many: Callable[[int], str], lo: int = 0,
                default: int | None = 0, too_few: Callable[[int], str] | None = None) -> Field:
    """A count `lo`..`hi`; above `hi` the refusal is `too_many(value)`, below `lo` it is
    `too_few(value)` (else "at least `lo`"). The default is `lo` when `default` is below it."""

    def check(v: int) -> str | None:
        if v < lo:
            return too_few(v) if too_few is not None else P.at_least(lo, v)
        return too_many(v) if v > hi else None

    return Field(name, prompt, lo, hi, lo if default is not None and default < lo else default, check=check)


def camp_kind_field(name: str, prompt: str, t: Tribe, allow_none: bool = False, taken: str | None = None) -> Field:
    """Which of `t`'s camps: its village or cave (or none of them, with `allow_none`). With
    `taken` (why: the space's one camp is another side's), only "No" is offered."""
    choices: list[tuple[Any, str]] = [(None, _(P.NOT_IN_CAMP))] if allow_none else []
    if t.villages and taken is None:
        choices.append((R.VILLAGE, _(P.OWN_VILLAGE) if allow_none else _(P.VILLAGE)))
    if t.caves and taken is None:
        choices.append((R.CAVE, _(P.OWN_CAVE) if allow_none else _(P.CAVE)))
    return Field(name, prompt, choices=tuple(choices), check=lambda v: taken if v is not None else None)


def yes_no(name: str, prompt: str, no: str | None = None, yes: str | None = None,
           refuse: dict[bool, str] | None = None) -> Field:
    """A two-way choice: `no` and `yes` (already in the table's language), else "No" and "Yes".
    `refuse` maps an answer the rules do not allow here to the reason: it is not offered."""
    refuse = refuse or {}
    choices = ((False, no if no is not None else _(P.NO)), (True, yes if yes is not None else _(P.YES)))
    return Field(name, prompt, choices=tuple((v, label) for v, label in choices if v not in refuse),
                 check=lambda v: refuse.get(v) if isinstance(v, bool) else None)


# ----- the forms ---------------------------------------------------------------------------------
class Form:
    """One kind of question sequence (see the module docstring)."""

    kind: ClassVar[str]
    method: ClassVar[str | None] = None  # the MammutGame action the answers become
    listed: ClassVar[bool] = False  # opened by the table from the phase's list
    undo: ClassVar[str] = ""  # its log entry, in words ("a fight"), marked `N_`: shown with `_`
    nobody: ClassVar[str] = P.NOBODY_CAN_NOW  # why nobody can fill it now, marked `N_`: shown with `_`

    def unavailable(self, g: MammutGame) -> str | None:
        """Why the form cannot be opened now (its first question offers nothing), or None."""
        first = next(iter(self.fields(g, {}, {})), None)
        if first is not None and first.choices == ():
            return _(self.nobody)
        return None

    def fields(self, g: MammutGame, ctx: dict, ans: dict) -> Iterator[Field]:
        """The questions in order; iteration stops at the first unanswered one, so later
        questions may read earlier answers."""
        raise NotImplementedError

    def args(self, g: MammutGame, ctx: dict, ans: dict) -> dict:
        """The game call's arguments from the complete answers."""
        return dict(ans)

    def report(self, g: MammutGame, args: dict, result: Any) -> list[str]:
        """What to tell the table after the call (the game is already changed)."""
        return []
