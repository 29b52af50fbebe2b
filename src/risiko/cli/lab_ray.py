"""The Ray engine of the lab's simulations (``--engine ray [--address HOST:PORT]``).

Ray is an optional extra (``pip install 'risiko-club[ray]'``) imported only here, only when
asked. The cluster's workers run :func:`risiko.lab.play_batch`, the same function as the
process pool, so a game played on the cluster is the game played here (its seed is
:func:`risiko.lab.game_seed`); every node needs ``risiko-club`` installed.
"""

from __future__ import annotations

import importlib
from typing import Any

from ..lab import Facts, Progress, SimSpec, batches, play_batch


class RayMissingError(ImportError):
    """``--engine ray`` without Ray installed."""


def run_games_ray(spec: SimSpec, games: int, *, address: str | None = None,
                  batch: int | None = None, progress: Progress | None = None,
                  init: dict[str, Any] | None = None) -> list[Facts]:
    """Play ``games`` games of ``spec`` on Ray and return their facts in game order (equal
    to :func:`risiko.lab.run_games`'). ``address``: the cluster (``ray://host:10001`` or
    ``host:6379``); None starts or joins a local Ray. ``init``: more ``ray.init`` options.
    Raises RayMissingError when Ray is not installed, ValueError for ``games < 1``."""
    if games < 1:
        raise ValueError(f"games: at least 1, not {games}")
    try:  # typed as Any: mypy runs where the extra is not installed
        ray: Any = importlib.import_module("ray")
    except ImportError as e:
        raise RayMissingError(str(e)) from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 **(init or {}))
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    task = ray.remote(play_batch)
    pending = [task.remote(spec, a, b) for a, b in batches(games, cpus, batch)]
    out: list[Facts] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            chunk: list[Facts] = ray.get(ref)
            out.extend(chunk)
            if progress is not None:
                progress(len(chunk))
    out.sort(key=lambda f: int(f["index"]))
    return out
