"""``kaisa club`` behind real Caddy (Debian's package) with ``tls internal``, as deploy/caddy/Caddyfile.club-network
sets it up, driven by Chromium over HTTPS: the pages load with the security headers, an entry is accepted (the
Host allow-list and the Origin check at work behind the proxy), forwarded headers are believed from the proxy only;
and the installable pages (manifest, service worker; installable by Chromium's own verdict) open and keep
queueing strokes with the network cut, and a new version is announced, not mixed in."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect

from kaisa.records.storage import open_store
from kaisa.web import create_app, installable
from kaisa.web.security import HostGuard
from tests.browser import REPOSITORY, chromium, chromium_executable
from tests.postgres_server import free_port
from tests.web.club_helpers import KAISA, stop, wait_for
from tests.web.test_web_club_e2e import enter_by_keys, goto, strokes_entered, tap, touch_stroke

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SITE = "kaisa.test"
CADDYFILE = REPOSITORY / "deploy" / "caddy" / "Caddyfile.club-network"
CLIENT = "127.0.0.2"
"""A client on this machine that is not the proxy (Linux answers the whole of 127.0.0.0/8)."""


# --- Caddy and the app -------------------------------------------------------------------------------------------


class Front:
    """Real Caddy on ``https://kaisa.test:{port}`` with the example Caddyfile (imported under test-only global
    options: ports, storage, no admin endpoint, no system trust store) in front of an app on
    ``127.0.0.1:{app_port}``; stopped and started again on the same ports and certificate authority to cut the
    network for real (Playwright's offline mode does not reach a service worker's own requests)."""

    def __init__(self, folder: Path, app_port: int) -> None:
        caddy = shutil.which("caddy")
        if caddy is None:
            pytest.fail(
                "the Caddy tests need Debian's caddy (apt-get install -y caddy; .ci/run installs it)", pytrace=False
            )
        self.executable = caddy
        self.folder = folder
        self.port, self.app_port = free_port(), app_port
        self.root = folder / "data" / "pki" / "authorities" / "local" / "root.crt"
        """Caddy's local root certificate (``tls internal``)."""
        folder.mkdir(parents=True, exist_ok=True)
        self.config = folder / "Caddyfile"
        self.config.write_text(
            "{\n\tadmin off\n\tskip_install_trust\n"
            f"\thttp_port {free_port()}\n\thttps_port {self.port}\n\tstorage file_system {folder / 'data'}\n}}\n"
            f"import {CADDYFILE}\n"
        )
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    @property
    def url(self) -> str:
        return f"https://{SITE}:{self.port}"

    def start(self) -> None:
        """Start Caddy and wait until it answers over HTTPS."""
        env = {
            **os.environ,
            "HOME": str(self.folder),
            "XDG_DATA_HOME": str(self.folder / "xdg"),
            "XDG_CONFIG_HOME": str(self.folder / "xdg"),
            "KAISA_SITE": f"{SITE}:{self.port}",
            "KAISA_APP": f"127.0.0.1:{self.app_port}",
        }
        log = (self.folder / "caddy.log").open("ab")
        self.process = subprocess.Popen(
            [self.executable, "run", "--config", str(self.config), "--adapter", "caddyfile"],
            stdout=log,
            stderr=log,
            env=env,
        )
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, (self.folder / "caddy.log").read_text()
            try:
                if self.root.exists() and self.request("GET", "/healthz")[0] in (200, 502, 503):
                    return
            except (OSError, ssl.SSLError, http.client.HTTPException):
                pass
            assert time.monotonic() < deadline, "Caddy did not answer over HTTPS within 60 s"
            time.sleep(0.2)

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)
        self.process = None

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One request through Caddy, its certificate checked against Caddy's root (SNI and Host kaisa.test)."""
        context = ssl.create_default_context(cafile=str(self.root))
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        with context.wrap_socket(raw, server_hostname=SITE) as tls:
            connection = http.client.HTTPConnection(SITE, self.port, timeout=30)
            connection.sock = tls
            data = None if body is None else json.dumps(body).encode()
            sent = {"Host": f"{SITE}:{self.port}", **({"Content-Type": "application/json"} if data else {})}
            connection.request(method, path, body=data, headers={**sent, **(headers or {})})
            answer = connection.getresponse()
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()


@contextmanager
def network_cut(page: Page, front: Front) -> Iterator[None]:
    """No network for the page: the browser offline and Caddy stopped (nothing answers, not even the service
    worker's own requests); both back at the end."""
    page.context.set_offline(True)
    front.stop()
    try:
        yield
    finally:
        front.start()
        page.context.set_offline(False)


def _der_items(data: bytes, start: int, end: int) -> Iterator[tuple[int, int, int, int]]:
    """The DER elements between ``start`` and ``end``: each one's tag, where it begins, where its content begins
    and where it ends."""
    at = start
    while at < end:
        tag, length, body = data[at], data[at + 1], at + 2
        if length & 0x80:
            size = length & 0x7F
            length, body = int.from_bytes(data[body : body + size], "big"), body + size
        yield tag, at, body, body + length
        at = body + length


def leaf_pin(front: Front) -> str:
    """The SHA-256 of the public key (SPKI) of the certificate Caddy serves, base64: for Chromium's
    ``--ignore-certificate-errors-spki-list``, which trusts that certificate as if a known authority had signed
    it, so the site counts as a secure origin (``--ignore-certificate-errors`` leaves it insecure: not installable)."""
    context = ssl.create_default_context(cafile=str(front.root))
    with context.wrap_socket(socket.create_connection(("127.0.0.1", front.port)), server_hostname=SITE) as tls:
        der = tls.getpeercert(binary_form=True)
    assert der is not None
    _, _, certificate, end = next(_der_items(der, 0, len(der)))
    _, _, tbs, tbs_end = next(_der_items(der, certificate, end))
    fields = list(_der_items(der, tbs, tbs_end))
    if fields[0][0] == 0xA0:  # the explicit version
        fields = fields[1:]
    _, begin, _, end = fields[5]  # serial, signature, issuer, validity, subject, subjectPublicKeyInfo
    return base64.b64encode(hashlib.sha256(der[begin:end]).digest()).decode()


def direct(port: int, method: str, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    """A request straight to the app from :data:`CLIENT`, not through the proxy."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(CLIENT, 0))
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.sock = raw
    connection.request(method, path, headers=headers)
    answer = connection.getresponse()
    answer.read()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}


@dataclass
class Club:
    front: Front
    log: Path
    process: subprocess.Popen[str]

    def actions(self, match_id: int) -> int:
        """How many actions the server has recorded, asked straight (not through Caddy, which may be stopped)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.front.app_port, timeout=30)
        connection.request("GET", f"/api/matches/{match_id}")
        actions: int = json.loads(connection.getresponse().read())["actions"]
        connection.close()
        return actions


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    """A real ``kaisa club`` on 127.0.0.1, trusting forwarded headers from Caddy only, with its access log; and
    Caddy in front."""
    folder = tmp_path_factory.mktemp("caddy-club")
    app_port = free_port()
    log = folder / "access.log"
    process = subprocess.Popen(
        [
            KAISA,
            "club",
            "--no-browser",
            "--port",
            str(app_port),
            "--db",
            str(folder / "club.sqlite3"),
            "--trusted-proxy",
            "127.0.0.1",
            "--access-log",
            str(log),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "KAISA_ALLOWED_HOSTS": SITE},
    )
    front = Front(folder / "caddy", app_port)
    try:
        wait_for(lambda: front.request("GET", "/healthz")[0] == 200, "kaisa club answering through Caddy", 120)
        yield Club(front, log, process)
    finally:
        front.stop()
        stop(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium([f"--host-resolver-rules=MAP {SITE} 127.0.0.1", "--ignore-certificate-errors"]) as launched:
        yield launched


def new_page(browser: Browser, errors: list[str], touch: bool = False) -> Page:
    context = browser.new_context(
        viewport={"width": 390, "height": 844} if touch else {"width": 1280, "height": 1000},
        locale="en-US",
        has_touch=touch,
        is_mobile=touch,
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def log_lines(log: Path, pattern: str, client: str | None = None) -> list[str]:
    """The access log's lines matching ``pattern``, once one from ``client`` is there (a line is written just
    after its answer has been sent, so the client may read the answer first)."""

    def found() -> list[str]:
        return [line for line in log.read_text().splitlines() if re.search(pattern, line)]

    if client is not None:
        wait_for(lambda: any(line.split()[1] == client for line in found()), f"a log line from {client}", 10)
    return found()


# --- HTTPS in front ------------------------------------------------------------------------------------------


def test_the_marker_page_over_https_through_caddy(club: Club, browser: Browser) -> None:
    front = club.front
    status, headers, _ = front.request("GET", "/club")  # Caddy's certificate checked against its own root
    assert status == 200
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]

    errors: list[str] = []
    marker = new_page(browser, errors)
    answer = marker.goto(f"{front.url}/club")
    assert answer is not None
    assert answer.headers["x-frame-options"] == "DENY"
    marker.wait_for_selector("body[data-ready=true]")
    marker.get_by_test_id("name-input-0").fill("Aino")
    marker.get_by_test_id("name-input-1").fill("Eero")
    marker.get_by_test_id("lag-winner-new-0").check()
    marker.get_by_test_id("takes-W1").check()
    marker.get_by_test_id("create").click()  # a POST: the Origin check passes behind the proxy
    expect(marker.get_by_test_id("created-title")).to_contain_text("Aino – Eero")
    link = marker.get_by_test_id("marker-link").input_value()
    # the link phones open: https, as the proxy said (X-Forwarded-Proto from the trusted proxy)
    found = re.fullmatch(rf"https://{re.escape(SITE)}:{front.port}/club#/match/(\d+)/([\w-]{{16,}})", link)
    assert found, link
    match_id, token = int(found.group(1)), found.group(2)
    marker.get_by_test_id("start-marking").click()
    tap(marker, "w2", (0.71, 2.6))
    marker.get_by_test_id("place-confirm").click()
    expect(marker.get_by_test_id("entry-title")).to_have_text("Stroke 1: Aino (W1)")
    tap(marker, "hand", (0.5, 0.3))
    enter_by_keys(marker, "0 f 4", 1)  # the break, no pot: accepted and ruled
    status, _, body = front.request("GET", f"/api/matches/{match_id}")
    assert status == 200
    assert json.loads(body)["actions"] == 4  # lag, choice, W2 placed, the break
    marker.context.close()
    assert not errors

    # another site's page cannot change anything, through the proxy too
    status, _, body = front.request(
        "POST", "/api/club/matches", {"players": ["X", "Y"]}, {"Origin": "https://evil.example"}
    )
    assert status == 403
    assert json.loads(body)["code"] == "cross-origin"

    # a client's own X-Forwarded-For does not pass Caddy: the log names the client Caddy saw
    front.request("GET", "/healthz?probe=through", headers={"X-Forwarded-For": "203.0.113.9"})
    (through,) = log_lines(club.log, r"/healthz\?probe=…", "127.0.0.1")
    assert " 127.0.0.1 GET " in through

    # straight to the app from a client that is not the proxy: forwarded headers are not believed, and a host
    # name off the allow-list is refused
    forged = {
        "Host": f"{SITE}:{front.app_port}",
        "X-Forwarded-For": "203.0.113.9",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "evil.example",
        "X-Kaisa-Token": token,
    }
    status, headers = direct(front.app_port, "GET", f"/api/club/matches/{match_id}/marker-qr", forged)
    assert status == 200
    assert headers["x-marker-url"].startswith(f"http://{SITE}:{front.app_port}/club#")
    # the page asks for the QR code too, through Caddy (127.0.0.1); the straight request is logged as CLIENT's
    lines = log_lines(club.log, rf"/api/club/matches/{match_id}/marker-qr", CLIENT)
    clients = {line.split()[1] for line in lines}
    assert clients == {"127.0.0.1", CLIENT}
    assert "203.0.113.9" not in club.log.read_text()
    status, _ = direct(front.app_port, "GET", "/healthz", {"Host": "evil.example", "X-Forwarded-For": "127.0.0.1"})
    assert status == 400
    assert token not in club.log.read_text()


# --- the installable web app -----------------------------------------------------------------------------------


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page, then reload (online) so that the page's reads go through
    it and are kept."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def test_manifests_and_the_service_worker_are_served_with_their_types_and_scope(club: Club) -> None:
    front = club.front
    for stem, start in (("club/club", "/club"), ("club/scoreboard", "/scoreboard"), ("table/table", "/")):
        status, headers, body = front.request("GET", f"/static/{stem}.webmanifest")
        assert status == 200
        assert headers["content-type"] == "application/manifest+json"
        manifest = json.loads(body)
        assert manifest["start_url"] == start
        assert manifest["start_url"].startswith(manifest["scope"])
        assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
        for icon in manifest["icons"]:
            status, headers, _ = front.request("GET", icon["src"])
            assert (status, headers["content-type"]) == (200, "image/png")
    status, headers, body = front.request("GET", "/sw.js")
    assert status == 200
    assert headers["content-type"] == "text/javascript; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert headers["service-worker-allowed"] == "/"
    assert f"const VERSION = {json.dumps(installable.asset_version())};" in body.decode()
    for path in installable.shell():
        status, _, _ = front.request("GET", path)
        assert status == 200, path


def test_the_marker_page_opens_and_keeps_queueing_with_no_network(club: Club, browser: Browser) -> None:
    front = club.front
    status, _, body = front.request("POST", "/api/club/matches", {"players": ["Iida", "Juho"]})
    assert status == 201
    made = json.loads(body)
    match_id, token = made["match"]["id"], made["token"]
    status, _, _ = front.request(
        "POST", f"/api/club/matches/{match_id}/place-w2", {"point": [0.71, 2.6]}, {"X-Kaisa-Token": token}
    )
    assert status == 200

    errors: list[str] = []
    page = new_page(browser, errors, touch=True)
    goto(page, f"{front.url}/club#/match/{match_id}/{token}")
    controlled(page)
    expect(page.get_by_test_id("entry-title")).to_have_text("Stroke 1: Iida (W1)")

    # the Wi-Fi goes, and the marker reloads the page: it opens from the phone, with the match as last seen
    with network_cut(page, front):
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        expect(page.get_by_test_id("entry-title")).to_have_text("Stroke 1: Iida (W1)")
        touch_stroke(page, pot_k=True, from_hand=True)  # stroke 1 waits on the phone
        badge = page.get_by_test_id("queue-badge")
        expect(badge).to_have_text("1 waiting to be sent")
        # reloaded again with the network still down: the stroke still waits, and the next one joins it
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        expect(badge).to_have_text("1 waiting to be sent")
        expect(page.get_by_test_id("queue-item").locator(".queue-label")).to_have_text(["stroke 1"])
        page.get_by_test_id("queue-who-W1").tap()
        touch_stroke(page, pot_k=True, from_hand=False)
        expect(badge).to_have_text("2 waiting to be sent")
        assert club.actions(match_id) == 3  # nothing reached the server

    # back on the network: both are sent, in order, and recorded once
    strokes_entered(page, 2)
    expect(page.get_by_test_id("score-0")).to_have_text("12")
    assert club.actions(match_id) == 5
    page.context.close()
    assert not errors


def test_the_three_pages_are_installable(club: Club, browser: Browser) -> None:
    """Chromium's own verdict (DevTools' installability errors: none) for the marker's page, the scoreboard and the
    browser table, in a normal (not incognito) profile trusting Caddy's certificate."""
    args = ["--no-sandbox", f"--host-resolver-rules=MAP {SITE} 127.0.0.1"]
    args.append(f"--ignore-certificate-errors-spki-list={leaf_pin(club.front)}")
    with tempfile.TemporaryDirectory() as profile:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=chromium_executable(), headless=True, args=args
        )
        try:
            page = context.new_page()
            for path in ("/club", "/scoreboard", "/"):
                goto(page, f"{club.front.url}{path}")
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                assert page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.scope)") == (
                    f"{club.front.url}/"
                )
                devtools = context.new_cdp_session(page)
                assert devtools.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}, path
                devtools.detach()
        finally:
            context.close()


@pytest.mark.parametrize(("path", "title"), [("/scoreboard", "Kaisa · scoreboard"), ("/", "Kaisa")])
def test_the_scoreboard_and_the_browser_table_open_with_no_network(
    club: Club, browser: Browser, path: str, title: str
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    goto(page, f"{club.front.url}{path}")
    controlled(page)
    with network_cut(page, club.front):
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert page.title().startswith(title)
        assert page.evaluate("() => location.protocol") == "https:"
    page.context.close()


# --- a new version: announced, not mixed in ----------------------------------------------------------------------


@pytest.fixture
def updatable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Front, list[str]]]:
    """The app in this process (so that the test can give its pages a new version) behind its own Caddy; yields
    the front and the version list whose last entry the server's service worker carries."""
    versions = ["one"]
    monkeypatch.setattr(installable, "asset_version", lambda: versions[-1])
    store = open_store(f"sqlite:///{tmp_path / 'club.sqlite3'}")
    sock = socket.create_server(("127.0.0.1", 0))
    app = HostGuard(create_app(store, close_store=True), [SITE])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_for(lambda: server.started, "the app serving", 60)
    front = Front(tmp_path / "caddy", sock.getsockname()[1])
    try:
        yield front, versions
    finally:
        front.stop()
        server.should_exit = True
        thread.join(timeout=20)


def test_a_new_version_is_announced_and_taken_only_when_the_person_reloads(
    updatable: tuple[Front, list[str]], browser: Browser
) -> None:
    front, versions = updatable
    errors: list[str] = []
    page = new_page(browser, errors)
    goto(page, f"{front.url}/scoreboard")
    controlled(page)
    running = "() => new Promise((done) => { const c = new MessageChannel(); c.port1.onmessage = (e) => done(e.data);"
    running += " navigator.serviceWorker.controller.postMessage({type: 'kaisa-version'}, [c.port2]); })"
    assert page.evaluate(running) == "one"
    expect(page.get_by_test_id("update-available")).to_have_count(0)

    versions.append("two")  # the server is upgraded
    page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
    announced = page.get_by_test_id("update-available")
    expect(announced).to_contain_text("A new version of Kaisa is available.")
    assert page.evaluate(running) == "one"  # still the old version until the person says so
    page.reload()  # a plain reload keeps the version the page runs
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate(running) == "one"
    expect(page.get_by_test_id("update-available")).to_be_visible()
    with page.expect_navigation():
        page.get_by_test_id("update-reload").click()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    assert page.evaluate(running) == "two"
    expect(page.get_by_test_id("update-available")).to_have_count(0)
    page.context.close()
    assert not errors
