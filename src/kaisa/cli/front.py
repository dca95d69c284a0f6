"""What stands between ``kaisa play``/``kaisa club`` and the network: HTTPS files, the listening socket, the proxy
whose forwarded headers are believed, and the access log. Shared by one server process (:mod:`kaisa.cli.serve`)
and several (:mod:`kaisa.cli.workers`)."""

from __future__ import annotations

import os
import socket
import ssl
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kaisa.cli.common import fail

CERT_HELP = "Serve HTTPS with this PEM certificate (with --keyfile), e.g. a self-signed one for the club's Wi-Fi."
KEY_HELP = "The PEM private key of --certfile (not encrypted)."
ACCESS_LOG_HELP = (
    "Write one line per request (time, client, method, path, status, duration; no tokens) to this file, "
    "or - for stderr (systemd's journal)."
)
TRUSTED_PROXY_HELP = (
    "The address of the HTTPS proxy in front (e.g. 127.0.0.1 for Caddy on this machine): its X-Forwarded-For and "
    "X-Forwarded-Proto are believed, nobody else's. Repeat for several."
)


class TlsFilesError(Exception):
    """The certificate or key given for HTTPS cannot be used: the one-line reason."""


@dataclass(frozen=True)
class TlsFiles:
    """A PEM certificate and its private key, checked, for uvicorn's HTTPS."""

    certfile: str
    keyfile: str


def tls_files(certfile: Path | None, keyfile: Path | None) -> TlsFiles | None:
    """The HTTPS files of ``--certfile``/``--keyfile`` (None: plain HTTP), checked before the server
    starts: both given, both readable files, and a PEM certificate with its own unencrypted private key. A
    problem ends the command with one line and exit status 2."""
    try:
        return check_tls_files(certfile, keyfile)
    except TlsFilesError as error:
        fail(str(error))


def check_tls_files(certfile: Path | None, keyfile: Path | None) -> TlsFiles | None:
    """:func:`tls_files`, raising :class:`TlsFilesError` with the reason."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        given, missing = ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        raise TlsFilesError(f"{given} needs {missing} too: HTTPS takes a certificate and its private key")
    texts = {}
    for what, path in (("certificate", certfile), ("private key", keyfile)):
        if not path.exists():
            raise TlsFilesError(f"the {what} file {path} does not exist")
        if not path.is_file():
            raise TlsFilesError(f"the {what} file {path} is not a file")
        try:
            texts[what] = path.read_bytes()
        except OSError as error:
            raise TlsFilesError(f"cannot read the {what} file {path}: {error.strerror or error}") from None
    if b"-----BEGIN CERTIFICATE-----" not in texts["certificate"]:
        raise TlsFilesError(f"the certificate file {certfile} is not a PEM certificate (no BEGIN CERTIFICATE block)")
    if b"PRIVATE KEY-----" not in texts["private key"]:
        raise TlsFilesError(f"the private key file {keyfile} is not a PEM private key (no BEGIN PRIVATE KEY block)")
    if b"ENCRYPTED" in texts["private key"]:
        raise TlsFilesError(f"the private key file {keyfile} is encrypted: give an unencrypted key (openssl -nodes)")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=lambda: b"")
    except (ssl.SSLError, OSError) as error:
        reason = getattr(error, "reason", None)
        if reason == "KEY_VALUES_MISMATCH":
            raise TlsFilesError(f"the private key {keyfile} does not belong to the certificate {certfile}") from None
        raise TlsFilesError(
            f"{certfile} and {keyfile} are not a usable PEM certificate and private key ({reason or error}); the "
            "README's club section shows how to make a pair with openssl"
        ) from None
    return TlsFiles(str(certfile), str(keyfile))


@dataclass(frozen=True)
class Front:
    """What stands in front of the app: the proxies whose forwarded headers are trusted (none: the headers are
    ignored) and the access log's stream (None: no log)."""

    trusted_proxies: tuple[str, ...] = ()
    access_log: Any = None

    def wrap(self, app: Any) -> Any:
        from kaisa.web.access import AccessLog

        return app if self.access_log is None else AccessLog(app, self.access_log)

    def uvicorn_options(self) -> dict[str, Any]:
        """uvicorn's proxy-header settings: X-Forwarded-* read only from the trusted proxies."""
        if not self.trusted_proxies:
            return {"proxy_headers": False}
        return {"proxy_headers": True, "forwarded_allow_ips": list(self.trusted_proxies)}


def front_of(access_log: str | None, trusted_proxies: list[str]) -> Front:
    """The checked ``--access-log`` and ``--trusted-proxy``: an address or network each, a log file that can be
    appended to; else one line and exit status 2."""
    import ipaddress

    for proxy in trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            fail(
                f"--trusted-proxy takes the proxy's IP address or network (e.g. 127.0.0.1 or 10.0.0.0/24), not "
                f"{proxy!r} / --trusted-proxy on välityspalvelimen IP-osoite tai verkko, esim. 127.0.0.1"
            )
    stream: Any = None
    if access_log == "-":
        stream = sys.stderr
    elif access_log is not None:
        try:
            stream = open(access_log, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (open while serving)
        except OSError as error:
            fail(
                f"cannot write the access log {access_log}: {error.strerror or error} / "
                f"pääsylokia {access_log} ei voi kirjoittaa: {error.strerror or error}"
            )
    return Front(tuple(trusted_proxies), stream)


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket whose ``proto`` is IPPROTO_TCP.

    asyncio sets TCP_NODELAY on an accepted connection only when the listening socket's ``proto`` is
    IPPROTO_TCP; ``socket.create_server`` leaves it 0, and then every small answer on a kept-alive connection
    waits about 40 ms (Nagle's algorithm meeting the browser's delayed ACK)."""
    infos = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
    )
    family, kind, _, _, address = infos[0]
    sock = socket.socket(family, kind, socket.IPPROTO_TCP)
    try:
        if os.name == "posix":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen()
    except OSError:
        sock.close()
        raise
    return sock
