"""Time budgets that scale with the machine the tests run on: the hostile-input tests' CPU budgets,
the page's push latency.

A budget catches a loader that goes quadratic on a crafted file (many times over), not a slow
CPU: under qemu-user (tools/arm64-check.sh) or on a Pi Zero 2 W pure Python runs 5 to 20 times
slower than on the machine the budgets were set on, and nothing may depend on speed. So each
budget is multiplied by how much slower than that machine this one runs a fixed piece of
pure-Python work (never by less than 1: a faster machine keeps the budgets as written)."""

from __future__ import annotations

import functools
import json
import time

# CPU seconds the reference work took on the machine the budgets were set on (the CI machine,
# 2 cores, x86-64; `python -c "from tests.cpu_budget import reference_work; ..."`).
REFERENCE_S = 0.050


def reference_work() -> float:
    """CPU seconds for a fixed mix of what the loaders do: JSON, dicts, strings; best of three."""
    record = {"players": ["red", "green", "blue"], "moves": [[i % 60, (i * 7) % 60] for i in range(300)]}
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        for _ in range(300):
            text = json.dumps(record)
            back = json.loads(text)
            words = {str(k): str(v).upper() for k, v in enumerate(back["moves"])}
            "".join(sorted(words.values()))
        best = min(best, time.process_time() - t0)
    return best


@functools.cache
def slowness() -> float:
    """How many times slower than the reference machine this one is (at least 1)."""
    return max(1.0, reference_work() / REFERENCE_S)


def cpu_budget(seconds: float) -> float:
    """`seconds` of CPU on the reference machine, as this machine's budget."""
    return seconds * slowness()
