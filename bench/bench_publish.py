"""Benchmark of issue 21's "publish → visible on the national page in < 60 s" (approval
scripted), end to end, against a real national server (figures in docs/benchmarks.md; not a
timed test).

The national server: ``risiko serve`` (uvicorn, production settings) on a fresh SQLite
database holding the synthetic year of ``bench_national.py`` (1,300 players, 400
tournaments, 16,324 results: the recompute is the full-size one). A club's machine: its own
data directory. Each run (``RUNS``, 5):

1. **publish**: ``risiko national publish REPORT.json --to URL --revision N --json`` in a fresh
   process on the club's side (the club key in ``RISIKO_CLUB_KEY``): the report of a new
   master where the player followed (national id 1) wins, signed, over HTTP;
2. **approve**: ``risiko national approve ID`` in a fresh process (the officer's script on
   the national server);
3. **visible**: ``GET /nazionale/giocatore/1/`` repeated until the page shows the player's
   new points (worked out in the benchmark's process from the stored revisions after the
   approval, a computation left out of the times); each GET recomputes the list (it is
   never stored).

4. **pushed**: a follower of the same page, connected over the live socket
   (``ws/live/?path=/nazionale/giocatore/1/&lang=it``, opened before the run, as a phone
   left on the page), receives the fragment showing the new points. The approval is made by
   another process (the officer's script), so the server's hub sees it at its next look at
   the national change key (every ``WATCH_INTERVAL``, 2 s) and renders the followed page
   once; the times are taken in a thread of the benchmark when each frame arrives (the
   polling of step 3 runs meanwhile, as a phone without the socket would).

"visible" (step 3) is the first page fetch after the approval showing the new points, i.e.
the recompute plus the page; "pushed" (step 4) is when a follower's socket gets it, with no
fetch at all.

Run: ``.venv/bin/python bench/bench_publish.py [RUNS]`` (takes about a minute to set up).
"""

from __future__ import annotations

import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

RUNS = 5
MASTER_SECRET = "bench-master-secret"  # the national server's RISIKO_CLUB_KEY_SECRET
CLI = "import sys; from risiko.cli.main import main; sys.argv[0] = 'risiko'; main()"


def new_master(k: int) -> dict[str, Any]:
    """A master of club00 (2 rounds, 16 players, national ids 1..16), player 1 first."""
    keys = [f"n{n}" for n in range(1, 17)]
    games = []
    for rnd in (1, 2):
        order = keys if rnd == 1 else keys[1:] + keys[:1]
        for t in range(4):
            four = order[4 * t:4 * t + 4]
            games.append({"round": rnd, "table": t + 1, "winners": [four[0]],
                          "seats": [{"player": p, "points": v}
                                    for p, v in zip(four, (100, 60, 40, 20), strict=True)]})
    return {
        "format": "risiko-report/1",
        "club": {"id": "club00", "name": "CITTÀ 00 [Club 00]"},
        "tournament": {"name": f"Master di prova {k}", "category": "master", "rounds": 2,
                       "dates": ["2024-12-07", "2024-12-14"], "finished": True},
        "players": [{"key": f"n{n}", "national_id": n, "name": f"Nome{n}",
                     "surname": f"Cognome{n}", "birth_date": None} for n in range(1, 17)],
        "games": games,
        "standings": [{"player": p, "position": i} for i, p in enumerate(keys, 1)],
    }


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", CLI, *args], env=env, text=True,
                          capture_output=True, check=False)
    if done.returncode:
        raise RuntimeError(f"risiko {' '.join(args)}: {done.stdout}{done.stderr}")
    return done


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as answer:
        return str(answer.read().decode("utf-8"))


class Follower:
    """A phone left on a national page over the live socket: a thread receiving every frame,
    each put on :attr:`frames` as ``(perf_counter seconds at arrival, html)``."""

    def __init__(self, base: str, path: str) -> None:
        from websockets.sync.client import connect

        url = base.replace("http://", "ws://") + f"/ws/live/?path={path}&lang=it"
        self.socket = connect(url, origin=base)  # type: ignore[arg-type]
        self.frames: queue.SimpleQueue[tuple[float, str]] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                self.frames.put((time.perf_counter(), json.loads(text)["html"]))
        except Exception:  # closed at the end
            return

    def arrival(self, expected: str, deadline: float) -> float:
        """When the first frame showing ``expected`` arrived (RuntimeError after
        ``deadline`` seconds)."""
        stop = time.perf_counter() + deadline
        while True:
            left = stop - time.perf_counter()
            if left <= 0:
                raise RuntimeError(f"not pushed within {deadline} s: {expected}")
            try:
                at, html = self.frames.get(timeout=left)
            except queue.Empty:
                continue
            if expected in html:
                return at

    def close(self) -> None:
        self.socket.close()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else RUNS
    from bench_national import reports
    from risiko.web.serving import ServedApp

    with tempfile.TemporaryDirectory() as national, tempfile.TemporaryDirectory() as club:
        os.environ["RISIKO_CLUB_KEY_SECRET"] = MASTER_SECRET
        from bench_web import setup_django

        setup_django(national)
        from django.contrib.auth.models import User

        from risiko.national.publish import club_key_text
        from risiko.national.ranking import display_points
        from risiko.national.report import read_report
        from risiko.web.national.publishing import issue_key
        from risiko.web.national.services import import_report, ranking

        start = time.perf_counter()
        for data in reports(1300, 400):
            import_report(read_report(data), by="bench")
        User.objects.create_user("ufficiale", password="bench-password-42")
        key, secret = issue_key("club00", by="bench")
        print(f"national server: 400 tournaments imported in {time.perf_counter() - start:.0f}"
              f" s; load average {os.getloadavg()[0]:.1f}")
        base = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
        national_env = {**base, "RISIKO_DATA_DIR": national,
                        "RISIKO_CLUB_KEY_SECRET": MASTER_SECRET}
        club_env = {**base, "RISIKO_DATA_DIR": club,
                    "RISIKO_CLUB_KEY": club_key_text(key.key_id, secret)}
        club_env.pop("RISIKO_CLUB_KEY_SECRET", None)
        cli(club_env, "national", "ranking", "--year", "2024", "--json")  # migrate the club's
        rows: list[tuple[float, float, float, float, int, float, float]] = []
        with ServedApp({"RISIKO_DATA_DIR": national, "RISIKO_CLUB_KEY_SECRET": MASTER_SECRET}
                       ) as app:
            page = f"{app.url}/nazionale/giocatore/1/"
            fetch(page)  # warm
            follower = Follower(app.url, "/nazionale/giocatore/1/")
            for k in range(1, runs + 1):
                report = Path(club) / f"master-{k}.json"
                report.write_text(json.dumps(new_master(k), ensure_ascii=False), "utf-8")
                load = os.getloadavg()[0]
                t0 = time.perf_counter()
                sent = cli(club_env, "national", "publish", str(report), "--to", app.url,
                           "--revision", str(k), "--json")
                t1 = time.perf_counter()
                answer = json.loads(sent.stdout)
                cli(national_env, "national", "approve", str(answer["id"]), "--by", "bench")
                t2 = time.perf_counter()
                entry = next(p for p in ranking(2024).players if p.national_id == 1)
                expected = (f"Posizione {entry.position}, "
                            f"{display_points(entry.points)} punti.")
                own = time.perf_counter() - t2  # the benchmark's own check: not counted
                t2 += own
                t0 += own
                fetches = 0
                while True:
                    fetches += 1
                    if expected in fetch(page):
                        break
                    if time.perf_counter() - t0 > 120:
                        raise RuntimeError(f"not visible after 120 s: {expected}")
                t3 = time.perf_counter()
                # the arrival time is taken in the follower's thread as the frame arrives
                # (the server pushes while the benchmark checks): against the times as they
                # were before the benchmark's own check was taken out
                t4 = follower.arrival(expected, 120)
                pushed, after = t4 - (t0 - own), t4 - (t2 - own)
                rows.append((t1 - t0, t2 - t1, t3 - t2, t3 - t0, fetches, pushed, after))
                print(f"run {k}: publish {t1 - t0:.2f} s, approve {t2 - t1:.2f} s, "
                      f"visible after {t3 - t2:.2f} s ({fetches} fetch); end to end "
                      f"{t3 - t0:.2f} s; pushed to the live socket {pushed:.2f} s after "
                      f"the publish ({after:.2f} s after the approval); load {load:.1f}; "
                      f"{expected}")
            follower.close()
        for i, what in enumerate(("publish (club CLI process, signed POST)",
                                  "approve (officer CLI process)",
                                  "page shows the new points (recompute + page)",
                                  "publish → visible, end to end",
                                  None,
                                  "publish → pushed to a follower's live socket, end to end")):
            if what is None:
                continue
            values = [r[i] for r in rows]
            print(f"{what}: median {statistics.median(values):.2f} s, max {max(values):.2f} s")
        after = [r[6] for r in rows]
        print(f"approval (its process ended) → pushed: median {statistics.median(after):.2f}"
              f" s, max {max(after):.2f} s")
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
