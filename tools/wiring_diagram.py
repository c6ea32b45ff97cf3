"""Draw docs/wiring.png: the Pi's 40-pin header and how the OLED, buttons and encoder connect.

    python tools/wiring_diagram.py [OUTPUT.png]

Drawn with Pillow from the tables below (the default pins in hardware.md), so
the picture and the guide agree; re-run after changing a default pin. The
output is a small palette PNG meant to be committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# Physical pin -> label, for the 40-pin header (same on Pi Zero 2 W, 4 and 5).
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2 SDA", 4: "5V", 5: "GPIO3 SCL", 6: "GND", 7: "GPIO4", 8: "GPIO14 TXD",
    9: "GND", 10: "GPIO15 RXD", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "GPIO0 ID_SD", 28: "GPIO1 ID_SC",
    29: "GPIO5", 30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19",
    36: "GPIO16", 37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}

# The connections drawn: (physical pin, what it goes to).
OLED = {"VCC": 1, "SDA": 3, "SCL": 5, "GND": 9}
BUTTONS_LEFT = {"UP": 11, "DOWN": 13, "OK": 15}  # GPIO17, 27, 22
BUTTONS_LEFT_GND = 25
BUTTONS_RIGHT = {"BACK": 16, "MENU": 18}  # GPIO23, 24
BUTTONS_RIGHT_GND = 20
ENCODER = {"CLK (A)": 29, "DT (B)": 31, "SW": 33, "+": 17, "GND": 39}  # GPIO5, 6, 13

W, H = 1400, 1040
PIN_TOP, PIN_STEP = 190, 40
LEFT_X, RIGHT_X = 680, 720
LABEL_W = 150

COLOURS = {
    "3V3": "#f39c12",
    "5V": "#d62728",
    "GND": "#222222",
    "i2c": "#1f77b4",
    "gpio": "#2ca02c",
    "unused": "#d9d9d9",
    "wire": "#444444",
}


def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def pin_xy(pin: int) -> tuple[int, int]:
    row = (pin - 1) // 2
    return (LEFT_X if pin % 2 else RIGHT_X, PIN_TOP + row * PIN_STEP)


def wire_end(pin: int) -> tuple[int, int]:
    """Outer end of the pin's label box, where its wire starts."""
    x, y = pin_xy(pin)
    return (x - 20 - LABEL_W, y) if pin % 2 else (x + 20 + LABEL_W, y)


def pin_kind(label: str) -> str:
    if label in ("3V3", "5V", "GND"):
        return label
    return "i2c" if "SDA" in label or "SCL" in label else "gpio"


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: int, fill: str = "#000000",
         align: str = "left") -> None:
    f = font(size)
    x0, _, x1, _ = draw.textbbox((0, 0), s, font=f)
    _, y0, _, y1 = draw.textbbox((0, 0), "0", font=f)
    x = {"left": xy[0] - x0, "center": xy[0] - (x0 + x1) / 2, "right": xy[0] - x1}[align]
    draw.text((x, xy[1] - (y0 + y1) / 2), s, font=f, fill=fill)


def wire(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]], colour: str) -> None:
    draw.line(points, fill=colour, width=4, joint="curve")


def dot(draw: ImageDraw.ImageDraw, xy: tuple[float, float], colour: str) -> None:
    draw.ellipse([xy[0] - 6, xy[1] - 6, xy[0] + 6, xy[1] + 6], fill=colour)


def button(draw: ImageDraw.ImageDraw, x: float, y: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """A push-button symbol centred at (x, y); returns its two terminals (left, right)."""
    left, right = (x - 40, y), (x + 40, y)
    draw.line([left, (x - 22, y)], fill="#000000", width=3)
    draw.line([(x + 22, y), right], fill="#000000", width=3)
    draw.line([(x - 22, y), (x + 18, y - 14)], fill="#000000", width=3)
    draw.line([(x - 10, y - 22), (x + 10, y - 22)], fill="#000000", width=3)
    draw.line([(x, y - 22), (x, y - 10)], fill="#000000", width=3)
    return left, right


def used_pins() -> set[int]:
    pins = set(OLED.values()) | set(BUTTONS_LEFT.values()) | set(BUTTONS_RIGHT.values()) | set(ENCODER.values())
    return pins | {BUTTONS_LEFT_GND, BUTTONS_RIGHT_GND}


def draw_header(draw: ImageDraw.ImageDraw) -> None:
    used = used_pins()
    top, bottom = PIN_TOP - 30, PIN_TOP + 19 * PIN_STEP + 30
    draw.rounded_rectangle([LEFT_X - 30, top, RIGHT_X + 30, bottom], radius=10, fill="#1b5e20")
    text(draw, ((LEFT_X + RIGHT_X) / 2, top - 18), "40-pin header", 18, align="center")
    for pin, label in HEADER.items():
        x, y = pin_xy(pin)
        kind = pin_kind(label)
        colour = COLOURS[kind] if pin in used or kind in ("3V3", "5V", "GND") else COLOURS["unused"]
        draw.ellipse([x - 14, y - 14, x + 14, y + 14], fill=colour if pin in used else "#f0f0f0",
                     outline="#000000", width=2)
        text(draw, (x, y), str(pin), 13, "#ffffff" if pin in used and kind != "3V3" else "#000000", align="center")
        box_x0 = x - 20 - LABEL_W if pin % 2 else x + 20
        fill = colour if pin in used else "#ffffff"
        draw.rectangle([box_x0, y - 15, box_x0 + LABEL_W, y + 15], fill=fill, outline=COLOURS["unused"])
        ink = "#ffffff" if pin in used and kind in ("GND", "i2c", "gpio", "5V") else "#000000"
        text(draw, (box_x0 + LABEL_W / 2, y), label, 15, ink, align="center")


def draw_oled(draw: ImageDraw.ImageDraw) -> None:
    x0, y0, x1, y1 = 90, 150, 330, 340
    draw.rounded_rectangle([x0, y0, x1, y1], radius=8, fill="#0d47a1", outline="#000000", width=2)
    draw.rectangle([x0 + 20, y0 + 55, x1 - 20, y1 - 20], fill="#000000")
    text(draw, ((x0 + x1) / 2, y0 + 110), "128x64", 18, "#9ad0ff", align="center")
    text(draw, ((x0 + x1) / 2, y0 + 140), "SSD1306 / SH1106", 15, "#9ad0ff", align="center")
    text(draw, ((x0 + x1) / 2, y1 + 18), "I2C OLED (address 0x3C)", 16, align="center")
    order = ["GND", "VCC", "SCL", "SDA"]  # the usual order on the module's header
    colours = {"GND": COLOURS["GND"], "VCC": COLOURS["3V3"], "SCL": COLOURS["i2c"], "SDA": COLOURS["i2c"]}
    for i, name in enumerate(order):
        tx = x0 + 45 + i * 50
        draw.rectangle([tx - 8, y0 + 8, tx + 8, y0 + 24], fill="#f5d76e", outline="#000000")
        text(draw, (tx, y0 + 38), name, 14, "#ffffff", align="center")
        # Up from the module, then across to the pin's label, one lane each.
        end = wire_end(OLED[name])
        channel_x = 380 + i * 28
        wire(draw, [(tx, y0 + 8), (tx, y0 - 16 - i * 12), (channel_x, y0 - 16 - i * 12), (channel_x, end[1]), end],
             colours[name])


def draw_left_buttons(draw: ImageDraw.ImageDraw) -> None:
    bus_x = 200
    ys = []
    for name, pin in BUTTONS_LEFT.items():
        end = wire_end(pin)
        left, right = button(draw, 300, end[1])
        text(draw, (400, end[1] - 13), name, 15, align="center")
        wire(draw, [right, end], COLOURS["gpio"])
        wire(draw, [left, (bus_x, end[1])], COLOURS["GND"])
        ys.append(end[1])
    gnd = wire_end(BUTTONS_LEFT_GND)
    wire(draw, [(bus_x, min(ys)), (bus_x, gnd[1]), gnd], COLOURS["GND"])
    for y in ys[1:]:
        dot(draw, (bus_x, y), COLOURS["GND"])


def draw_right_buttons(draw: ImageDraw.ImageDraw) -> None:
    bus_x = 1200
    ys = []
    for name, pin in BUTTONS_RIGHT.items():
        end = wire_end(pin)
        left, right = button(draw, 1100, end[1])
        text(draw, (990, end[1] - 13), name, 15, align="center")
        wire(draw, [end, left], COLOURS["gpio"])
        wire(draw, [right, (bus_x, end[1])], COLOURS["GND"])
        ys.append(end[1])
    gnd = wire_end(BUTTONS_RIGHT_GND)
    wire(draw, [(bus_x, min(ys)), (bus_x, gnd[1]), gnd], COLOURS["GND"])
    for y in ys[1:]:
        dot(draw, (bus_x, y), COLOURS["GND"])


def draw_encoder(draw: ImageDraw.ImageDraw) -> None:
    x0, y0, x1, y1 = 90, 700, 300, 920
    draw.rounded_rectangle([x0, y0, x1, y1], radius=8, fill="#37474f", outline="#000000", width=2)
    draw.ellipse([x0 + 40, y0 + 60, x0 + 130, y0 + 150], fill="#9e9e9e", outline="#000000", width=2)
    text(draw, ((x0 + x1) / 2, y1 + 18), "KY-040 rotary encoder (optional)", 16, align="center")
    colours = {"CLK (A)": COLOURS["gpio"], "DT (B)": COLOURS["gpio"], "SW": COLOURS["gpio"],
               "+": COLOURS["3V3"], "GND": COLOURS["GND"]}
    for i, (name, pin) in enumerate(ENCODER.items()):
        ty = y0 + 30 + i * 40
        text(draw, (x1 - 10, ty), name, 14, "#ffffff", align="right")
        draw.rectangle([x1, ty - 6, x1 + 14, ty + 6], fill="#f5d76e", outline="#000000")
        end = wire_end(pin)
        channel_x = 360 + i * 26
        wire(draw, [(x1 + 14, ty), (channel_x, ty), (channel_x, end[1]), end], colours[name])


def draw_keypad(draw: ImageDraw.ImageDraw) -> None:
    x0, y0 = 960, 600
    draw.rounded_rectangle([x0, y0, x0 + 180, y0 + 200], radius=6, fill="#eeeeee", outline="#000000", width=2)
    keys = "123A456B789C*0#D"
    for i, k in enumerate(keys):
        kx, ky = x0 + 25 + (i % 4) * 43, y0 + 30 + (i // 4) * 45
        draw.rounded_rectangle([kx - 16, ky - 16, kx + 16, ky + 16], radius=4, fill="#ffffff", outline="#777777")
        text(draw, (kx, ky), k, 16, align="center")
    text(draw, (x0 + 90, y0 + 220), "4x4 keypad", 16, align="center")
    mx = x0 + 230
    draw.rounded_rectangle([mx, y0 + 60, mx + 130, y0 + 140], radius=6, fill="#00695c", outline="#000000", width=2)
    text(draw, (mx + 65, y0 + 88), "micro-", 15, "#ffffff", align="center")
    text(draw, (mx + 65, y0 + 110), "controller", 15, "#ffffff", align="center")
    for r in range(8):
        y = y0 + 70 + r * 8
        draw.line([(x0 + 180, y0 + 40 + r * 18), (mx, y)], fill="#777777", width=2)
    wire(draw, [(mx + 65, y0 + 140), (mx + 65, y0 + 290)], "#555555")
    text(draw, (mx + 65, y0 + 310), "USB to the Pi", 16, align="center")
    text(draw, (mx + 65, y0 + 332), "(/dev/serial/by-id/...)", 14, align="center")
    text(draw, (mx + 65, y0 + 354), "one ASCII char per key", 14, align="center")


def draw_notes(draw: ImageDraw.ImageDraw) -> None:
    text(draw, (30, 30), "Clans companion - wiring (default pins)", 30)
    text(draw, (30, 64), "Pins in circles are physical pin numbers; labels are BCM GPIO numbers. "
         "The config file can move the buttons and encoder.", 16, "#333333")
    notes = [
        "Buttons: GPIO to GND, internal pull-ups; no resistors needed.",
        "Power the OLED and the encoder from 3V3, never 5V:",
        "their on-board pull-ups would put 5 V on the Pi's GPIO.",
    ]
    for i, line in enumerate(notes):
        text(draw, (900, 180 + i * 24), line, 15, "#333333")
    legend = [("3V3", COLOURS["3V3"]), ("GND", COLOURS["GND"]), ("I2C", COLOURS["i2c"]), ("GPIO", COLOURS["gpio"])]
    for i, (name, colour) in enumerate(legend):
        x = 900 + i * 100
        draw.line([(x, 270), (x + 34, 270)], fill=colour, width=5)
        text(draw, (x + 40, 270), name, 15)


def render() -> Image.Image:
    img = Image.new("RGB", (W, H), "#ffffff")
    draw = ImageDraw.Draw(img)
    draw_notes(draw)
    draw_oled(draw)
    draw_left_buttons(draw)
    draw_encoder(draw)
    draw_right_buttons(draw)
    draw_keypad(draw)
    draw_header(draw)
    return img


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "wiring.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    render().quantize(colors=32).save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
