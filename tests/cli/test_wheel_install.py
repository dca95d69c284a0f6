"""Installable like any Python program (issue 26): the wheel ``uv build`` makes installs with plain pip into a
fresh virtual environment from the package index alone, and the commands work from there.

The install is read-only to the commands, as a system-wide install is: the numba kernels must then be cached
under the user's cache folder (``$XDG_CACHE_HOME``), and a second process must load them instead of compiling
again. Its files lose their write permissions, and since root writes regardless, a test run as root (as CI
is) runs the installed commands as ``nobody`` (``setpriv``). Every command runs with a clean environment (no
``PYTHONPATH``, so this checkout is never imported) and home, data and cache folders of its own.
"""

from __future__ import annotations

import json
import os
import pwd
import queue
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
INHERITED = ("PATH", "LANG", "LC_ALL", "TMPDIR", "PIP_CONFIG_FILE", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CERT")
"""What the installed commands see of the test's environment: how to find programs and the package index."""


@dataclass(frozen=True)
class Install:
    venv: Path
    site_packages: Path
    home: Path
    env: dict[str, str]
    runner: tuple[str, ...]
    """What runs an installed command: nothing, or as root ``setpriv`` making it ``nobody``'s."""

    def kaisa(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.runner, str(self.venv / "bin" / "kaisa"), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=self.env,
            cwd=self.home,
            check=False,
        )

    def python(self, code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.runner, str(self.venv / "bin" / "python"), "-c", code],
            capture_output=True,
            text=True,
            timeout=600,
            env=self.env,
            cwd=self.home,
            check=False,
        )


def chmod_tree(root: Path, writable: bool) -> None:
    write = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    for path in [root, *root.rglob("*")]:
        if path.is_symlink():
            continue
        mode = path.stat().st_mode
        path.chmod((mode | stat.S_IWUSR) if writable else (mode & ~write))


def unprivileged() -> tuple[tuple[str, ...], pwd.struct_passwd | None]:
    """As root: the ``setpriv`` prefix that runs a command as ``nobody``, and that user; else nothing."""
    if os.geteuid() != 0:
        return (), None
    user = pwd.getpwnam("nobody")
    setpriv = shutil.which("setpriv")
    assert setpriv, "running as root, the installed commands run as nobody through setpriv (util-linux), missing"
    return (setpriv, f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"), user


@pytest.fixture(scope="module")
def install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    """The wheel built from this checkout, pip-installed into a fresh venv whose site-packages is then
    read-only (write access is given back afterwards, so the temporary folder can be removed)."""
    runner, user = unprivileged()
    # nobody must reach the venv and its home: pytest's own temporary folders are open to their owner only
    work = Path(tempfile.mkdtemp(prefix="kaisa-wheel-")) if user else tmp_path_factory.mktemp("wheel-install")
    work.chmod(0o755)
    home = work / "home"
    home.mkdir()
    (home / "examples").mkdir()
    for name in ("position.json", "stroke.json"):
        shutil.copy(ROOT / "examples" / name, home / "examples" / name)
    if user:
        for path in [home, *home.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)
    env = {k: v for k, v in os.environ.items() if k in INHERITED}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHONUNBUFFERED="1",
        COLUMNS="200",
        NO_COLOR="1",
    )
    built = subprocess.run(
        [str(Path(sys.executable).parent / "uv"), "build", "--wheel", "--out-dir", str(work / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    [wheel] = (work / "dist").glob("kaisa-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # pip's own configuration (pip.conf, PIP_* variables, its download cache) says where the package index is
    pip_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    installed = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=1200,
        env=pip_env,
        check=False,
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    [site_packages] = (venv / "lib").glob("python3.*/site-packages")
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    chmod_tree(site_packages, writable=False)
    try:
        yield Install(venv, site_packages, home, env, runner)
    finally:
        chmod_tree(site_packages, writable=True)
        if user:
            shutil.rmtree(work)


def cache_snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` with its size and modification time (a recompiled kernel rewrites its files)."""
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_the_installed_package_is_the_wheel_and_its_help_lists_the_commands(install: Install) -> None:
    where = install.python("import kaisa; print(kaisa.__file__)")
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(install.site_packages)
    done = install.kaisa("--help")
    assert done.returncode == 0, done.stderr
    for command in ("simulate", "play", "club", "stats", "match", "replay"):
        assert command in done.stdout
    assert not stat.S_IMODE((install.site_packages / "kaisa").stat().st_mode) & 0o222  # read-only


def test_simulate_compiles_the_kernels_into_the_user_cache_once_and_a_second_process_loads_them(
    install: Install,
) -> None:
    args = (
        "simulate",
        "--position",
        str(ROOT / "examples/position.json"),
        "--stroke",
        str(ROOT / "examples/stroke.json"),
    )
    first = install.kaisa(*args, "--json")
    assert first.returncode == 0, first.stderr
    cache = install.home / "cache"
    assert any(cache.rglob("*.nbi")), "no numba kernel index under $XDG_CACHE_HOME"
    # the install itself is left as installed, even when it could be written (when the tests run as root)
    assert not [p.name for p in install.site_packages.rglob("*.nb[ic]")]
    before = cache_snapshot(cache)
    cached = install.python("import kaisa.physics; print(kaisa.physics.kernels_cached())")
    assert cached.returncode == 0, cached.stderr
    assert cached.stdout.strip() == "True"
    second = install.kaisa(*args, "--json")
    assert second.returncode == 0, second.stderr
    assert second.stderr == ""  # no first-use notice: nothing to compile
    assert cache_snapshot(cache) == before  # and nothing was compiled again
    assert json.loads(second.stdout) == json.loads(first.stdout)
    here = subprocess.run(  # the same record as this checkout's engine plays
        [sys.executable, "-c", "from kaisa.cli import main; main()", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=install.home,
        check=True,
    )
    assert json.loads(second.stdout) == json.loads(here.stdout)


def test_stats_on_a_new_database_runs_the_shipped_migrations(install: Install) -> None:
    db = install.home / "new.sqlite3"
    done = install.kaisa("stats", "--db", f"sqlite:///{db}")
    assert done.returncode == 0, done.stderr
    assert "Statistics over 0 matches" in done.stdout
    shipped = sorted(
        p.name for p in (install.site_packages / "kaisa/records/storage/migrations/versions").glob("r*.py")
    )
    with sqlite3.connect(db) as connection:
        [(revision,)] = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    assert shipped, "no migrations in the wheel"
    assert shipped[-1].startswith(f"r{revision}_")  # at the newest shipped revision


@contextmanager
def serving(install: Install, *args: str) -> Iterator[str]:
    """``kaisa ARGS --no-browser --port 0`` running; yields its base URL (from the line that announces it)."""
    process = subprocess.Popen(
        [
            *install.runner,
            str(install.venv / "bin" / "kaisa"),
            *args,
            "--no-browser",
            "--port",
            "0",
            "--host",
            "127.0.0.1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=install.env,
        cwd=install.home,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    said: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        while True:
            line = lines.get(timeout=300)
            assert line is not None, f"the server stopped: {''.join(said)}"
            said.append(line)
            found = re.search(r"(http://127\.0\.0\.1:\d+)/", line)
            if found:
                break
        yield found.group(1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


def get(url: str) -> tuple[int, str, bytes]:
    """Status, content type and body of a GET, never through a proxy (the server is on this machine)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=300) as response:
        return response.status, response.headers.get("content-type", ""), response.read()


def test_play_serves_its_page_static_files_and_api_from_the_install(install: Install) -> None:
    db = f"sqlite:///{install.home / 'play.sqlite3'}"
    with serving(install, "play", "--db", db) as base:
        status, kind, page = get(f"{base}/")
        assert (status, kind.split(";")[0]) == (200, "text/html")
        assert b"app.js" in page
        status, kind, script = get(f"{base}/static/table/app.js")
        assert status == 200
        assert script == (install.site_packages / "kaisa/web/static/table/app.js").read_bytes()
        status, kind, body = get(f"{base}/api/players")  # the API: the app, the database and the engine loaded
        assert (status, kind) == (200, "application/json")
        assert json.loads(body)


def test_club_serves_the_markers_page_and_its_api_from_the_install(install: Install) -> None:
    db = f"sqlite:///{install.home / 'club.sqlite3'}"
    with serving(install, "club", "--db", db) as base:
        status, kind, page = get(f"{base}/club")
        assert (status, kind.split(";")[0]) == (200, "text/html")
        assert b"club.js" in page
        status, _, script = get(f"{base}/static/club/club.js")
        assert status == 200
        assert script == (install.site_packages / "kaisa/web/static/club/club.js").read_bytes()
        status, kind, body = get(f"{base}/api/club/marker-facts")
        assert (status, kind) == (200, "application/json")
        assert json.loads(body)["fields"]
