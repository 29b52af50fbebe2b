"""``risiko serve`` in a child process on a port the system picks (tests and benchmarks that
need the real server: uvicorn, the production settings, several requests at once).
``with ServedApp(env={"RISIKO_DATA_DIR": folder}) as app: urlopen(app.url + "/")``.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from types import TracebackType

_RUNNING = re.compile(r"Uvicorn running on (http://\S+?)(?:\s|$)")


class ServedApp:
    """``risiko serve --port 0 ARGS`` with ``env`` added to this process's environment;
    ``url`` (``http://127.0.0.1:PORT``) once started; ``log`` every line it wrote to stderr.
    A context manager: started on enter, stopped (SIGINT, then SIGKILL) on exit.
    ``with_stdout``: ``log`` holds its standard output too (uvicorn's access log)."""

    def __init__(self, env: Mapping[str, str] | None = None, args: Sequence[str] = (),
                 drop_env: Sequence[str] = ("DJANGO_SETTINGS_MODULE",),
                 with_stdout: bool = False) -> None:
        self.with_stdout = with_stdout
        self.env = {k: v for k, v in os.environ.items() if k not in drop_env}
        self.env.update(env or {})
        self.env.setdefault("PYTHONUNBUFFERED", "1")
        self.args = list(args)
        self.url = ""
        self.log: list[str] = []
        self.process: subprocess.Popen[str] | None = None
        self._ready = threading.Event()

    def _drain(self) -> None:
        assert self.process is not None
        stream = self.process.stdout if self.with_stdout else self.process.stderr
        assert stream is not None
        for line in stream:
            self.log.append(line.rstrip("\n"))
            found = _RUNNING.search(line)
            if found and not self.url:
                self.url = found.group(1).rstrip("/")
                self._ready.set()
        self._ready.set()  # the process ended

    def start(self, timeout: float = 120.0) -> str:
        """Start the server and wait until it listens; its base URL. RuntimeError with its
        output if it stops or does not listen within ``timeout`` seconds."""
        code = "import sys; from risiko.cli.main import main; sys.argv[0] = 'risiko'; main()"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, "serve", "--port", "0", *self.args],
            env=self.env, text=True,
            stdout=subprocess.PIPE if self.with_stdout else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if self.with_stdout else subprocess.PIPE,
        )
        threading.Thread(target=self._drain, daemon=True).start()
        deadline = time.monotonic() + timeout
        if not self._ready.wait(timeout) or not self.url or not self._listening(deadline):
            self.stop()
            raise RuntimeError("risiko serve did not start:\n" + "\n".join(self.log[-30:]))
        return self.url

    def _listening(self, deadline: float) -> bool:
        """Wait until the port accepts connections (with ``--workers`` the port is bound
        before the workers listen on it)."""
        parts = urllib.parse.urlsplit(self.url)
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                return False
            try:
                socket.create_connection((parts.hostname, parts.port), timeout=1).close()
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def stop(self) -> None:
        """Stop the server (SIGINT, SIGKILL after 10 s)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)

    def errors(self) -> list[str]:
        """The log lines that report a server error (a traceback or an error line)."""
        return [line for line in self.log if "Traceback" in line or " 500 " in line
                or line.startswith("ERROR")]

    def __enter__(self) -> ServedApp:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
