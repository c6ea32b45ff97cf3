"""The web service's side of the daemon's key socket (companion.hw.keysocket).

Keeps one connection to the daemon: on connect it says where the page is (`{"url": ...}`,
which the OLED's Phone view shows) and reconnects every `RETRY_S` while the daemon is
down or restarting. Keys typed on a phone (after the PIN) go as `{"keys": [...]}` lines;
a send on a connection the daemon has closed (it closes the quietest client when a new one
needs the place) connects afresh and tries once more; `send` answers False when the daemon
cannot be reached, so the page can say so.
"""

from __future__ import annotations

import asyncio
import logging

from companion.table import pagelink as link

log = logging.getLogger(__name__)

RETRY_S = 2.0


class KeyLink:
    """One connection to the daemon's key socket at `path` (see the module docstring)."""

    def __init__(self, path: str | None, url: str | None) -> None:
        self.path = path
        self.url = url
        self.writer: asyncio.StreamWriter | None = None
        self.reader: asyncio.StreamReader | None = None
        self._lock = asyncio.Lock()

    async def _connect(self) -> None:
        if self.path is None:
            return
        try:
            self.reader, self.writer = await asyncio.open_unix_connection(self.path)
        except OSError:
            return
        if await self._send(link.url(self.url)):
            log.info("web: connected to the table's key socket %s", self.path)

    async def _send(self, message: dict) -> bool:
        if self.writer is None:
            return False
        try:
            self.writer.write(link.encode(message))
            await self.writer.drain()
            return True
        except (OSError, RuntimeError):
            self._drop()
            return False

    def _drop(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.writer = self.reader = None

    async def run(self) -> None:
        """Stay connected (a background task of the server); returns only when cancelled."""
        if self.path is None:
            return
        while True:
            async with self._lock:
                if self.writer is None:
                    await self._connect()
            reader = self.reader
            if reader is not None:
                try:
                    while await reader.read(1024):
                        pass  # the daemon sends nothing; EOF means it went away
                except OSError:
                    pass
                async with self._lock:
                    if self.reader is reader:
                        self._drop()
                log.info("web: the table's key socket closed; retrying")
            await asyncio.sleep(RETRY_S)

    async def send(self, message: dict) -> bool:
        """Send one message ({"keys": [...]} or {"roster": [...]}) to the daemon, connecting first when
        needed; False when it cannot be reached."""
        async with self._lock:
            for _attempt in range(2):
                if self.writer is None:
                    await self._connect()
                if await self._send(message):
                    return True
            return False

    def close(self) -> None:
        self._drop()
