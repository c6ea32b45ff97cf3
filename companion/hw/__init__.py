"""Hardware adapters; each imports its hardware library lazily.

Adapters (buttons, keypad, terminal, display, notify) only put events on the
daemon's queue or consume finished frames; importing this package loads no
hardware library, so commands that need none start fast.
"""
