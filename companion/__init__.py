"""Clans tabletop companion: a referee and scorekeeper box for Clans and Valley of the Mammoths."""

__version__ = "0.1.0"
