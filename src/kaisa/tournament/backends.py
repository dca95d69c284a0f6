"""Where the games are played: a local process pool, or Ray tasks on a local instance or a cluster.

Both run the same pure :func:`~kaisa.tournament.games.play_game` on the same specs, so the same seeds give
the same results on either. A backend yields results as the games finish; the caller puts them back in
schedule order.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context
from types import TracebackType
from typing import Any, Protocol
from urllib.parse import urlsplit

from kaisa.tournament.games import GameSpec, TournamentError, play_game

BACKENDS = ("local", "ray")
RAY_INSTALL_HINT = "pip install 'kaisa[ray]'"
"""How to get the optional Ray dependency."""
PROBE_SECONDS = 5.0
"""How long the check that a Ray cluster's address answers waits (``ray.init`` itself would wait forever)."""
JOIN_SECONDS = 30.0
"""How long joining a cluster that answered may take before it is given up (``ray.init`` retries for ever when
the head answers but a node's advertised address cannot be reached)."""
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""An HTTP/2 client's first bytes and an empty SETTINGS frame: a gRPC server (a Ray head's GCS, the Ray
Client server) answers with its own SETTINGS frame at once."""
LOOPBACK_HINT = (
    "on one machine, set RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 for the head and for kaisa so that Ray keeps 127.0.0.1"
)


Task = Callable[[GameSpec], Any]
"""What a worker does with a game's spec: a module-level function (it is pickled to the workers)."""


def default_workers() -> int:
    """Parallel games by default: ``min(2, cpu count)``."""
    return max(1, min(2, os.cpu_count() or 1))


class Backend(Protocol):
    """Plays games somewhere. Use as a context manager: entering starts the workers, leaving stops them."""

    name: str

    def __enter__(self) -> Backend: ...

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None: ...

    def play(self, specs: Sequence[GameSpec], task: Task = play_game) -> Iterator[tuple[int, Any]]:
        """Submit every game at once and yield ``(position in specs, task(spec))`` as each finishes (``task``:
        :func:`play_game` for a tournament, a data set's rows for ``kaisa dataset``). Raises
        :class:`TournamentError` when a game fails in a worker."""
        ...


def _failed(spec: GameSpec, where: str, exc: BaseException) -> TournamentError:
    return TournamentError(
        f"game {spec.game + 1} of {spec.names[0]} v {spec.names[1]} failed {where}: {type(exc).__name__}: {exc}"
    )


class LocalBackend:
    """A pool of worker processes on this machine (forked on POSIX: they inherit the loaded physics)."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise TournamentError(f"--workers must be at least 1, not {workers}")
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def play(self, specs: Sequence[GameSpec], task: Task = play_game) -> Iterator[tuple[int, Any]]:
        if not specs:
            return iter(())
        context = get_context("fork" if os.name == "posix" else "spawn")
        self._pool = ProcessPoolExecutor(max_workers=min(self.workers, len(specs)), mp_context=context)
        # every worker is forked here, before the caller starts a progress bar's thread
        futures = {self._pool.submit(task, spec): i for i, spec in enumerate(specs)}
        return self._completed(specs, futures)

    @staticmethod
    def _completed(specs: Sequence[GameSpec], futures: dict[Future[Any], int]) -> Iterator[tuple[int, Any]]:
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=futures.__getitem__):
                i = futures[future]
                try:
                    yield i, future.result()
                except Exception as exc:
                    raise _failed(specs[i], "in a worker process", exc) from exc


def import_ray() -> Any:
    """The ``ray`` module, imported on first use; a clear :class:`TournamentError` when it is not installed."""
    try:
        import ray
    except ImportError as exc:
        raise TournamentError(
            f"the ray backend needs Ray, an optional dependency: {RAY_INSTALL_HINT} (or use --backend local)"
        ) from exc
    return ray


def check_address(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Refuse a Ray cluster address that is malformed or does not answer, quickly: given an address where
    nothing listens, ``ray.init`` retries for ever. ``host:port`` (the head's GCS, port 6379 by default) and
    ``ray://host:port`` (Ray Client, port 10001) are probed with a TCP connection; ``auto`` and ``local`` are
    left to Ray."""
    if address in ("auto", "local"):
        return
    parts = urlsplit(address if "://" in address else f"gcs://{address}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if parts.scheme not in ("gcs", "ray") or not host or port is None:
        raise TournamentError(
            f"--address {address!r}: give the Ray head as host:port (e.g. 10.0.0.5:6379), ray://host:port "
            "(Ray Client) or auto"
        )
    try:
        with socket.create_connection((host, port), timeout=timeout) as connection:
            connection.settimeout(timeout)
            connection.sendall(HTTP2_PREFACE)
            frame = _read(connection, 9)
    except OSError as exc:
        reason = "timed out" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise TournamentError(
            f"cannot reach the Ray cluster at {address}: {reason}; start one with `ray start --head` or check "
            "the address"
        ) from None
    if len(frame) < 9 or frame[3] != 4:  # not an HTTP/2 SETTINGS frame
        raise TournamentError(
            f"something answers at {address} but it is not a Ray cluster (no gRPC answer within {timeout:g} s): "
            "give the head's GCS port (6379 by default) or ray://host:10001"
        )


def _read(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        try:
            chunk = connection.recv(size - len(data))
        except TimeoutError:
            break
        if not chunk:
            break
        data += chunk
    return data


def check_bootstrap(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Probe the address Ray will really dial for ``address``: Ray replaces a loopback host (127.0.0.1,
    localhost) with the machine's outward address, which a firewall may block although the loopback answered."""
    if address in ("auto", "local") or address.startswith("ray://"):
        return
    try:
        from ray._private.services import canonicalize_bootstrap_address

        dialled = canonicalize_bootstrap_address(address)
    except Exception:  # a private helper of Ray's: if it moves, ray.init's own deadline still applies
        return
    if not dialled or dialled == address:
        return
    try:
        check_address(dialled, timeout)
    except TournamentError:
        raise TournamentError(
            f"Ray would join {address} at {dialled} (it replaces 127.0.0.1 with this machine's outward address), "
            f"which does not answer: {LOOPBACK_HINT}"
        ) from None


def init_within(ray: Any, options: Mapping[str, Any], seconds: float, where: str) -> None:
    """``ray.init(**options)``, given up after ``seconds`` with a :class:`TournamentError`: joining a cluster
    whose head answers but whose nodes this machine cannot reach (Ray replaces 127.0.0.1 with the machine's
    outward address, a firewall between the nodes) makes ``ray.init`` retry for ever. The attempt is left
    behind in a daemon thread, which does not keep the process alive."""
    import threading

    failure: list[BaseException] = []

    def join() -> None:
        try:
            ray.init(**options)
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=join, name="kaisa-ray-init", daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TournamentError(
            f"{where} answers but this process could not join it within {seconds:g} s: every node's address must "
            f"be reachable from here ({LOOPBACK_HINT})"
        )
    if failure:
        exc = failure[0]
        raise TournamentError(f"cannot start or join {where}: {type(exc).__name__}: {exc}") from exc


class RayBackend:
    """Ray tasks: on the cluster at ``address`` when given (``ray.init(address=...)``), else on a local Ray
    instance with ``workers`` CPUs. Reuses a Ray already initialised in this process (and leaves it running);
    otherwise shuts down what it started. On a cluster, every node needs the same version of ``kaisa``
    installed; the results come back to this process, which alone writes the database."""

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        init_options: Mapping[str, Any] | None = None,
        join_seconds: float = JOIN_SECONDS,
    ) -> None:
        if workers is not None and workers < 1:
            raise TournamentError(f"--workers must be at least 1, not {workers}")
        self.address = address
        self.workers = workers or default_workers()
        self.init_options = dict(init_options or {})
        self.join_seconds = join_seconds
        self._started = False
        self._ray: Any = None
        self._refs: list[Any] = []

    def __enter__(self) -> RayBackend:
        ray = import_ray()
        if self.address is not None:
            check_address(self.address)
        if not ray.is_initialized():
            import logging

            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.WARNING,
            }
            if self.address is None:
                options["num_cpus"] = self.workers
            else:
                options["address"] = self.address
            options.update(self.init_options)
            if self.address is None:
                try:
                    ray.init(**options)
                except Exception as exc:
                    raise TournamentError(f"cannot start a local Ray instance: {type(exc).__name__}: {exc}") from exc
            else:
                check_bootstrap(self.address)
                init_within(ray, options, self.join_seconds, f"the Ray cluster at {self.address}")
            self._started = True
        self._ray = ray
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        ray, self._ray = self._ray, None
        if ray is None:
            return
        for ref in self._refs if kind is not None else []:
            try:
                ray.cancel(ref, force=True)
            except Exception:  # already finished, or the cluster has gone
                continue
        self._refs = []
        if self._started:
            ray.shutdown()
            self._started = False

    def play(self, specs: Sequence[GameSpec], task: Task = play_game) -> Iterator[tuple[int, Any]]:
        ray = self._ray
        if ray is None:
            raise TournamentError("enter the Ray backend (with ...) before playing games on it")
        remote = ray.remote(num_cpus=1)(task)
        self._refs = [remote.remote(spec) for spec in specs]
        return self._completed(specs)

    def _completed(self, specs: Sequence[GameSpec]) -> Iterator[tuple[int, Any]]:
        ray = self._ray
        position = {ref: i for i, ref in enumerate(self._refs)}
        pending = list(self._refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                i = position[ref]
                try:
                    result = ray.get(ref)
                except Exception as exc:
                    raise _failed(specs[i], "on Ray", exc) from exc
                yield i, result


def make_backend(
    name: str, *, workers: int | None = None, address: str | None = None, ray_options: Mapping[str, Any] | None = None
) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``). ``address`` is for Ray only."""
    if name == "local":
        if address is not None:
            raise TournamentError("--address is the Ray cluster's: use it with --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers, ray_options)
    raise TournamentError(f"unknown backend {name!r}; the backends are {', '.join(BACKENDS)}")
