"""HTTPS for the club's Wi-Fi: ``kaisa club/play --certfile --keyfile`` with a self-signed certificate made here
by Debian's openssl; a clear line and exit status 2 for a missing, unreadable or mismatched file; TCP_NODELAY on
TLS connections too (the listening socket is the same)."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from kaisa.cli.front import TlsFiles, TlsFilesError, check_tls_files, listen_socket
from kaisa.records.storage import open_store
from kaisa.web import create_app
from tests.web.club_helpers import KAISA, start_kaisa_play, stop

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
OPENSSL = shutil.which("openssl")


def self_signed(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost and its key, as the README says to make them."""
    if OPENSSL is None:
        pytest.skip("openssl is not installed (Debian: apt-get install openssl)")
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(
        [
            *(OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"),
            *("-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=kaisa club"),
            *("-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def test_the_certificate_and_key_are_checked_before_the_server_starts(tmp_path: Path):
    cert, key = self_signed(tmp_path, "club")
    other_cert, other_key = self_signed(tmp_path, "other")
    assert check_tls_files(None, None) is None
    assert check_tls_files(cert, key) == TlsFiles(str(cert), str(key))
    for certfile, keyfile, said in (
        (cert, None, "--certfile needs --keyfile too"),
        (None, key, "--keyfile needs --certfile too"),
        (tmp_path / "missing.crt", key, "does not exist"),
        (tmp_path, key, "is not a file"),
        (key, key, "is not a PEM certificate"),
        (cert, cert, "is not a PEM private key"),
        (cert, other_key, "does not belong to the certificate"),
    ):
        with pytest.raises(TlsFilesError, match=said):
            check_tls_files(certfile, keyfile)
    assert check_tls_files(other_cert, other_key)
    encrypted = tmp_path / "encrypted.key"
    assert OPENSSL is not None
    subprocess.run(
        [OPENSSL, "pkey", "-in", str(key), "-aes256", "-passout", "pass:secret", "-out", str(encrypted)],
        check=True,
        capture_output=True,
    )
    with pytest.raises(TlsFilesError, match="is encrypted"):
        check_tls_files(cert, encrypted)


def test_a_mismatched_key_ends_the_command_with_one_line_and_status_2(tmp_path: Path):
    cert, _key = self_signed(tmp_path, "club")
    _other, other_key = self_signed(tmp_path, "other")
    done = subprocess.run(
        [KAISA, "club", "--no-browser", "--port", "0", "--certfile", str(cert), "--keyfile", str(other_key)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().count("\n") == 0
    assert "does not belong to the certificate" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_kaisa_play_serves_the_club_over_https_with_a_self_signed_certificate(tmp_path: Path):
    cert, key = self_signed(tmp_path, "club")
    db = f"sqlite:///{tmp_path / 'tls.sqlite3'}"
    process, url = start_kaisa_play(db, "--certfile", str(cert), "--keyfile", str(key), scheme="https")
    try:
        assert url.startswith("https://127.0.0.1:")
        trusted = ssl.create_default_context(cafile=str(cert))  # the phone trusts the club's certificate
        with httpx.Client(base_url=url, timeout=30, verify=trusted) as client:
            page = client.get("/club")
            assert page.status_code == 200
            assert "club.js" in page.text
            made = client.post("/api/club/matches", json={"players": ["Aino", "Eero"]})
            assert made.status_code == 201, made.text
            match_id, token = made.json()["match"]["id"], made.json()["token"]
            qr = client.get(f"/api/club/matches/{match_id}/marker-qr", headers={"X-Kaisa-Token": token})
            assert qr.headers["x-marker-url"].startswith("https://")  # the QR link keeps https
        with pytest.raises(httpx.ConnectError):  # without trusting it, a client refuses the certificate
            httpx.get(f"{url}/club", timeout=30)
        with pytest.raises(httpx.TransportError):  # and plain HTTP is not answered on the HTTPS port
            httpx.get(url.replace("https://", "http://") + "/club", timeout=30)
    finally:
        stop(process)


def test_tls_connections_get_tcp_nodelay_too(tmp_path: Path):
    cert, key = self_signed(tmp_path, "club")
    store = open_store(f"sqlite:///{tmp_path / 'nodelay.sqlite3'}")
    sock = listen_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    tls = check_tls_files(cert, key)
    assert tls is not None
    config = uvicorn.Config(create_app(store), log_level="warning", ssl_certfile=tls.certfile, ssl_keyfile=tls.keyfile)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        with httpx.Client(
            base_url=f"https://127.0.0.1:{port}", verify=ssl.create_default_context(cafile=str(cert))
        ) as c:
            assert c.get("/api/club/events/none").status_code == 200  # the connection stays open (keep-alive)
            nodelay = [
                p.transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                for p in server.server_state.connections
            ]
            assert nodelay
            assert all(n != 0 for n in nodelay), nodelay
            assert all(p.transport.get_extra_info("ssl_object") is not None for p in server.server_state.connections)
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()
        store.close()
