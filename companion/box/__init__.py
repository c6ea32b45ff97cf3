"""Setting up the box: what the SD-card image does at boot (the settings card)."""
