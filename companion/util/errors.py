"""The companion's errors: one base class, and each error also subclasses the matching
built-in (as gpiozero does), so `except ValueError` keeps working for callers that
know nothing of ours."""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""


class ActionError(CompanionError, ValueError):
    """A journaled action that cannot be applied (a damaged or foreign journal)."""


class UsageError(CompanionError, ValueError):
    """Bad arguments or input files: one line on stderr, exit status 2."""


class NotSupportedError(UsageError):
    """A game asked for something it does not offer (e.g. --load for a game without records)."""
