"""The box: its settings, and setting it up.

config           the config file (/etc/companion/config.yaml): load, check, describe; its example
config_base      what a start needs of the config before (or without) a config file
doctor           `companion doctor`: the set-up checked, one line each with its fix; `--keys`
service_install  `companion install-service`: the kiosk's systemd unit for this venv
service_web      the page's unit and its avahi announcement
install_checks   what install-service refuses, and its safe file writing
card             the settings card (companion.txt) the SD-card image applies at every boot
"""
