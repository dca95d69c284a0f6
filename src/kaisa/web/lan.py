"""The server's address on the club's network, for the links a phone opens (the marker's QR code, the startup
line of ``kaisa club``). Small and without the app, so that the command can print it before the app loads."""

from __future__ import annotations

import ipaddress
import socket

WILDCARD_HOSTS = ("0.0.0.0", "", "::")
"""``--host`` values that listen on every network of the machine."""


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a ``--host`` or a page's host name) is this machine only (a phone cannot reach it)."""
    if host is None or host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's IPv4 address on its network (the interface its outgoing traffic takes), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if is_loopback(address) else address


def reachable_host(bind_host: str | None) -> str | None:
    """The address a phone on the club's network reaches a server listening on ``bind_host`` at (None: the
    server listens on this machine only, or its address cannot be found)."""
    if bind_host is None or is_loopback(bind_host):
        return None
    if bind_host in WILDCARD_HOSTS:
        return lan_address()
    return bind_host


def base_url(scheme: str, host: str, port: int | None) -> str:
    """``scheme://host:port`` (the port left out when it is the scheme's own)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{host}" if port in (None, default) else f"{scheme}://{host}:{port}"


__all__ = ["WILDCARD_HOSTS", "base_url", "is_loopback", "lan_address", "reachable_host"]
