"""Fair shares of the page's connections and event streams, so slow or greedy clients cannot
shut the other phones out (issue 32, part 1).

A client is its address (an IPv6 address by its /64, which one device may fill at will).

- `ConnectionLimits`: at most `cap` open connections. When they are all taken, a new one
  does not simply lose: it closes the oldest *waiting* connection (no request whole yet,
  headers trickling in, or a body still arriving) of the client holding the most
  connections, as long as that client holds more than the newcomer's would. Connections
  whose request is being answered (an event stream, a page being sent) are never closed
  for another; when nothing can give way, the newcomer is closed at once. Headers are
  bounded by aiohttp's keep-alive timeout (a connection whose request is not whole within
  it is closed, from its first byte as after every answer), bodies by `http.json_body`.
- `StreamLimits`: at most `cap` event streams; at the cap, a newcomer whose client holds
  fewer than the greediest client (by at least two) takes that client's oldest stream
  (the phone's EventSource reconnects later and finds the cap again). So one client can
  hold every stream only while nobody else wants one.
"""

from __future__ import annotations

import ipaddress
import itertools
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from companion.web.lograte import RateLimitedLog

log = logging.getLogger("companion.web")

MAX_CONNECTIONS = 600
MAX_STREAMS = 300


def client_key(address: str | None) -> str:
    """Who a peer address is, for fair shares: the address itself, an IPv6 one by its /64."""
    if not address:
        return "?"
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def _peer(transport: Any) -> str:
    peer = transport.get_extra_info("peername") if transport is not None else None
    return client_key(peer[0] if isinstance(peer, tuple) and peer else None)


@dataclass
class _Conn:
    client: str
    transport: Any
    order: int
    busy: int = 0  # requests of this connection being answered now (not waiting for the client)


class ConnectionLimits:
    """Open connections, a fair share each (see the module docstring)."""

    def __init__(self, cap: int = MAX_CONNECTIONS) -> None:
        self.cap = cap
        self.conns: dict[Any, _Conn] = {}
        self.per_client: Counter[str] = Counter()
        self._order = itertools.count()
        self.warn = RateLimitedLog(log)

    def install(self, server: Any) -> None:
        """Hook into an aiohttp `web.Server`: its handlers report every connection made and lost."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: Any) -> None:
            made(handler, transport)
            self.admit(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self.forget(handler)
            lost(handler, exc)

        server.connection_made, server.connection_lost = connection_made, connection_lost

    def admit(self, handler: Any, transport: Any) -> bool:
        """Take a new connection, closing a waiting one of a greedier client when full; False (and
        the connection closed) when nothing can give way."""
        client = _peer(transport)
        if len(self.conns) >= self.cap:
            victim = self._victim(client)
            if victim is None:
                self.warn.warning("connections", "web: connection from %s refused: %d open", client, self.cap)
                transport.close()
                return False
            victim_transport = self.conns[victim].transport
            self.forget(victim)
            victim_transport.close()
        self.conns[handler] = _Conn(client, transport, next(self._order))
        self.per_client[client] += 1
        return True

    def _victim(self, client: str) -> Any:
        """The oldest waiting connection of the client with the most, if it holds more than `client`
        would with one more; None when there is none."""
        mine = self.per_client[client] + 1
        for other, count in self.per_client.most_common():
            if count <= mine and other != client:
                break
            waiting = [(c.order, h) for h, c in self.conns.items() if c.client == other and c.busy == 0]
            if waiting:
                return min(waiting, key=lambda w: w[0])[1]
        return None

    def forget(self, handler: Any) -> None:
        conn = self.conns.pop(handler, None)
        if conn is not None:
            self.per_client[conn.client] -= 1
            if self.per_client[conn.client] <= 0:
                del self.per_client[conn.client]

    def busy(self, handler: Any, delta: int) -> None:
        """A request of `handler`'s connection starts (+1) or stops (-1) being answered; while one
        is, the connection is not closed for a newcomer. (A body still arriving counts as waiting.)"""
        conn = self.conns.get(handler)
        if conn is not None:
            conn.busy = max(0, conn.busy + delta)


@dataclass
class _Stream:
    client: str
    close: Callable[[], None]
    order: int


@dataclass
class StreamLimits:
    """Event streams, a fair share each (see the module docstring)."""

    cap: int = MAX_STREAMS
    streams: dict[int, _Stream] = field(default_factory=dict)
    per_client: Counter = field(default_factory=Counter)
    _order: Any = field(default_factory=itertools.count)

    def __len__(self) -> int:
        return len(self.streams)

    def _greediest(self, client: str) -> str | None:
        """The client a newcomer from `client` may take a stream from at the cap, or None."""
        if not self.per_client:
            return None
        other, count = self.per_client.most_common(1)[0]
        return other if other != client and count >= self.per_client[client] + 2 else None

    def would_admit(self, address: str | None) -> bool:
        """Would a stream from `address` be taken now (the page `/` asks before it is loaded)?"""
        return len(self.streams) < self.cap or self._greediest(client_key(address)) is not None

    def acquire(self, address: str | None, close: Callable[[], None]) -> int | None:
        """A token for a new stream from `address` (`close` ends it if another client needs the place),
        or None when it is refused."""
        client = client_key(address)
        if len(self.streams) >= self.cap:
            other = self._greediest(client)
            if other is None:
                return None
            token = min((s.order, t) for t, s in self.streams.items() if s.client == other)[1]
            victim = self.streams[token]
            self.release(token)
            victim.close()
        token = next(self._order)
        self.streams[token] = _Stream(client, close, token)
        self.per_client[client] += 1
        return token

    def release(self, token: int | None) -> None:
        stream = self.streams.pop(token, None) if token is not None else None
        if stream is not None:
            self.per_client[stream.client] -= 1
            if self.per_client[stream.client] <= 0:
                del self.per_client[stream.client]
