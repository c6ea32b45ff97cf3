"""Updates of the SD-card image: signed bundles written to the other of two system slots.

`bundle` reads and checks a bundle; `bootstate` is the two files on the FAT that say which
slot starts and how far an update has come; `box` finds the card's slots; `install` writes a
bundle to the other slot; `check` decides, on the first start of a new slot, whether it stays;
`status` is what the page and the OLED show; `cli` is `companion update`.
"""
