"""Seeded byte mutations for the hostile-file fuzz tests: flip, insert, delete, repeat, plant."""

from __future__ import annotations

import random
from typing import Sequence


def mutate(data: bytes, rnd: random.Random, alphabet: bytes, plants: Sequence[bytes]) -> bytes:
    """1-6 mutations of `data`: a random byte, a few bytes of `alphabet` inserted, a cut, a slice
    repeated, or one of `plants` (the shapes a hostile tester tried) inserted."""
    b = bytearray(data)
    for _ in range(rnd.randint(1, 6)):
        op, i = rnd.randrange(5), rnd.randrange(len(b) or 1)
        if op == 0 and b:
            b[i] = rnd.randrange(256)
        elif op == 1:
            b[i:i] = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(1, 8)))
        elif op == 2:
            del b[i:i + rnd.randint(1, 40)]
        elif op == 3:
            j = rnd.randrange(len(b) or 1)
            b[i:i] = b[min(i, j):max(i, j)] * rnd.randint(2, 30)
        else:
            b[i:i] = rnd.choice(plants)
    return bytes(b)
