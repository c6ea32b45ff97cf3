"""The companion at the table, minus the hardware: keys -> controller -> screen model -> image.

- `keys`: the key tokens every input turns into.
- `controller`: the pure state machine (journal-ready actions, `from_actions`).
- `screens`: what is shown, as data, and the words for it.
- `render`: a screen -> a 128x64 1-bit PIL image.
"""
