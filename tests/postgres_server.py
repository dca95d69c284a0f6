"""A throwaway PostgreSQL server for the storage tests: initdb into a temporary directory, start it on a free
localhost port, create databases, stop and remove it at the end.

The server binaries come from ``$KAISA_PG_BIN``, else the newest ``/usr/lib/postgresql/*/bin``, else ``PATH``.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` system user (``runuser``).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
from psycopg import sql

SYSTEM_USER = "postgres"
SUPERUSER = "postgres"
INSTALL_HINT = (
    "the PostgreSQL storage tests need the PostgreSQL server binaries (initdb, pg_ctl, postgres): install them "
    "(Debian/Ubuntu as root: apt-get update && apt-get install -y postgresql; .ci/run does this) or set "
    "KAISA_PG_BIN to the directory that holds them"
)


class PostgresUnavailableError(RuntimeError):
    """The server cannot be started here; the message says why and what to install."""


def find_bindir() -> Path:
    env = os.environ.get("KAISA_PG_BIN")
    if env:
        candidates = [Path(env)]
    else:
        candidates = sorted(
            Path("/usr/lib/postgresql").glob("*/bin"),
            key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
            reverse=True,
        )
        on_path = shutil.which("initdb")
        if on_path:
            candidates.append(Path(on_path).parent)
    for bindir in candidates:
        if all((bindir / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres")):
            return bindir
    looked = ", ".join(str(c) for c in candidates) or "/usr/lib/postgresql/*/bin and PATH"
    raise PostgresUnavailableError(f"no PostgreSQL server binaries found (looked in {looked}): {INSTALL_HINT}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresServer:
    """A running server. ``url(name)`` is the SQLAlchemy URL of database ``name``."""

    def __init__(self, bindir: Path, base: Path, port: int, prefix: list[str]) -> None:
        self.bindir, self.base, self.port, self.prefix = bindir, base, port, prefix
        self.data = base / "data"
        self.log = base / "server.log"
        self._created = 0

    def _run(self, *args: str, timeout: float = 60.0) -> None:
        try:
            done = subprocess.run(
                [*self.prefix, *args], capture_output=True, text=True, timeout=timeout, cwd=self.base, check=False
            )
        except FileNotFoundError as error:
            raise PostgresUnavailableError(f"cannot run {args[0]}: {error}") from None
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailableError(
                f"{' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}\n{log}"
            )

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.base} -c fsync=off"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(PostgresUnavailableError, subprocess.TimeoutExpired):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.base, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new empty database; returns its URL."""
        self._created += 1
        name = f"kaisa_test_{self._created}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)


def start_server() -> PostgresServer:
    """Start a server in a new temporary directory; raises :class:`PostgresUnavailableError` with the reason."""
    bindir = find_bindir()
    base = Path(tempfile.mkdtemp(prefix="kaisa-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            shutil.rmtree(base, ignore_errors=True)
            raise PostgresUnavailableError(
                f"running as root, the server must run as the {SYSTEM_USER!r} system user, which does not exist: "
                f"{INSTALL_HINT}"
            ) from None
        runuser = shutil.which("runuser")
        if runuser is None:
            shutil.rmtree(base, ignore_errors=True)
            raise PostgresUnavailableError("running as root, the server is started with runuser, which is missing")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = [runuser, "-u", SYSTEM_USER, "--"]
    base.chmod(0o700)
    server = PostgresServer(bindir, base, free_port(), prefix)
    try:
        server.start()
    except BaseException:
        server.stop()
        raise
    return server
