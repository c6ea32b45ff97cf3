"""An OLED controller on a fake I2C bus: counts the bytes luma sends and keeps the panel's RAM.

`FakeOledBus` stands where smbus2's `SMBus` does. On the box luma opens the bus itself
(`i2c(port=1)`: "managed"), sends commands with `write_i2c_block_data(address, 0x00, cmds)`
and display data as one `i2c_rdwr` message per `data()` call (control byte 0x40, then up to
4 KB); `fake_device` builds the device that way, and `managed=False` the way a caller-given
bus is driven (`i2c(bus=...)`: data in 32-byte blocks). It counts what crosses the bus
(`bytes_sent`: the address byte, the control byte and the payload of every write) and applies
every byte to a model of the controller, an SSD1306 (horizontal addressing in a
COLUMNADDR/PAGEADDR window, as luma's init sets it up) or an SH1106 (page addressing,
132 columns of RAM), with each command's argument count and the display start line
(0x40|n: RAM row n on the first line, the rows wrapping round), so `image()` is the
picture the panel shows. The benchmark counts bytes with it (`companion bench`) and the
tests prove that what is sent leaves exactly the rendered frame in the RAM.
"""

from __future__ import annotations

from typing import Any

# SSD1306 commands followed by arguments: how many
_SSD1306_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
                 0x8D: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2}
# SH1106 (no 0x20/0x21/0x22 window commands; luma sends a bare 0x20 at init, a no-op)
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1, 0x8D: 1}


class FakeOledBus:
    """A counting I2C bus with an SSD1306 (`chip="ssd1306"`) or SH1106 behind it."""

    def __init__(self, chip: str = "ssd1306", width: int = 128, height: int = 64, model: bool = True) -> None:
        self.chip = chip
        self.model = model  # False: count the bytes only (the benchmark: no time spent modelling)
        self.width, self.pages = width, height // 8
        self.ram_width = width + 4 if chip == "sh1106" else width
        self.ram = bytearray(self.ram_width * self.pages)
        self.bytes_sent = 0
        self.writes = 0
        self.contrast: int | None = None
        self.on = False
        self.gone = False  # True: every write fails as an unplugged panel does (EREMOTEIO)
        self._args = _SH1106_ARGS if chip == "sh1106" else _SSD1306_ARGS
        self._pending: list[int] = []  # a command waiting for its arguments
        self.col, self.page = 0, 0
        self.start_line = 0
        self.window = (0, width - 1, 0, self.pages - 1)  # SSD1306: columns and pages

    # ----- the bus (what luma calls) ------------------------------------------------------
    def write_i2c_block_data(self, address: int, control: int, values: list[int]) -> None:
        self._transfer(control, values)

    def i2c_rdwr(self, *messages: Any) -> None:
        """smbus2's combined transfer: each message (an `smbus2.i2c_msg` write) is the control byte
        and its payload."""
        for message in messages:
            control, *values = bytes(message)
            self._transfer(control, values)

    def _transfer(self, control: int, values: list[int]) -> None:
        if self.gone:
            raise OSError(121, "Remote I/O error")
        self.bytes_sent += 2 + len(values)  # the address, the control byte, the payload
        self.writes += 1
        if not self.model:
            return
        if control == 0x40:
            for value in values:
                self._data(value)
        else:
            for value in values:
                self._command(value)

    def close(self) -> None:
        pass

    # ----- the controller ------------------------------------------------------------------
    def _command(self, byte: int) -> None:
        if self._pending:
            self._pending.append(byte)
            if len(self._pending) == self._args[self._pending[0]] + 1:
                self._apply(self._pending)
                self._pending = []
            return
        if byte in self._args:
            self._pending = [byte]
            return
        if self.chip == "sh1106":
            if 0xB0 <= byte <= 0xB7:
                self.page = byte & 0x07
            elif byte <= 0x0F:
                self.col = (self.col & 0xF0) | byte
            elif byte <= 0x1F:
                self.col = (self.col & 0x0F) | ((byte & 0x0F) << 4)
        if byte in (0xAE, 0xAF):
            self.on = byte == 0xAF
        elif 0x40 <= byte <= 0x7F:
            self.start_line = byte & 0x3F

    def _apply(self, cmd: list[int]) -> None:
        op = cmd[0]
        if op == 0x81:
            self.contrast = cmd[1]
        elif op == 0x21:
            self.window = (cmd[1], cmd[2], self.window[2], self.window[3])
            self.col = cmd[1]
        elif op == 0x22:
            self.window = (self.window[0], self.window[1], cmd[1] & 0x07, cmd[2] & 0x07)
            self.page = cmd[1] & 0x07

    def _data(self, value: int) -> None:
        if 0 <= self.col < self.ram_width and 0 <= self.page < self.pages:
            self.ram[self.page * self.ram_width + self.col] = value
        if self.chip == "sh1106":
            self.col += 1  # page addressing: the column moves on, the page stays
            return
        c0, c1, p0, p1 = self.window
        if self.col >= c1:
            self.col = c0
            self.page = p0 if self.page >= p1 else self.page + 1
        else:
            self.col += 1

    def image(self, offset: int | None = None) -> Any:
        """The visible RAM as a 1-bit PIL image (what the panel shows, before its scan direction):
        row r shows RAM row r + start line (mod 64); an SH1106's visible columns start at
        `offset` (luma's page_address_offset, 2)."""
        from PIL import Image

        start = (2 if offset is None else offset) if self.chip == "sh1106" else 0
        img = Image.new("1", (self.width, self.pages * 8))
        px = img.load()
        for p in range(self.pages):
            row = self.ram[p * self.ram_width + start:p * self.ram_width + start + self.width]
            for x, value in enumerate(row):
                for bit in range(8):
                    if value >> bit & 1:
                        px[x, (p * 8 + bit - self.start_line) % (self.pages * 8)] = 1
        return img


def fake_device(bus: FakeOledBus, rotate: int = 0, managed: bool = True) -> Any:
    """The real luma device class of `bus.chip` on the fake bus (its init sequence goes through it).
    `managed`: luma opens "port 1" itself, as on the box (smbus2's SMBus is the fake for that
    moment), so display data goes as single large transfers; False: the bus is handed to luma."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    if managed:
        import smbus2  # (what luma imports for a port on the box)

        real, smbus2.SMBus = smbus2.SMBus, lambda port: bus  # not unittest.mock: it imports asyncio
        try:
            serial = i2c(port=1, address=0x3C)
        finally:
            smbus2.SMBus = real
    else:
        serial = i2c(bus=bus, address=0x3C)
    cls = sh1106 if bus.chip == "sh1106" else ssd1306
    return cls(serial, width=bus.width, height=bus.pages * 8, rotate=rotate)
