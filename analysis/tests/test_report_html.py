"""report.html in a real browser: headless Chromium (Debian `chromium`, installed by scripts/install-deps.sh)
opens the page written for a fixture sweep, every figure must have loaded (natural sizes above zero) and the
page must log no console error or exception. A screenshot is kept in build/test-artifacts/.

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on its fd 3,
replies on its fd 4, each a JSON message ending in a NUL byte), with the standard library only: no port, no
websocket, no driver package, and the checks read the page's own state rather than Chromium's log text."""

import base64
import fcntl
import html
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from analysis.report import inline_html, write_report
from analysis.tests.test_report import big_timeline_sweep

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "build" / "test-artifacts"


class Browser:
    """One headless Chromium and the page it opened, spoken to over the DevTools pipe."""

    def __init__(self, profile: Path):
        chromium = shutil.which("chromium")
        assert chromium, "chromium is missing: run scripts/install-deps.sh"
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()

        def pipes_as_3_and_4():
            # Through fds above 4 first, in case a pipe's own fd is 3 or 4; subprocess then keeps 3 and 4 open.
            high_read = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)
            high_write = fcntl.fcntl(replies_write, fcntl.F_DUPFD, 10)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", f"--user-data-dir={profile}",
             "--window-size=1200,1600", "about:blank"],
            pass_fds=(3, 4), preexec_fn=pipes_as_3_and_4,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.next_id = 0
        self.buffer = b""
        self.events = []  # every event received, in order
        self.session = None

    def send(self, method: str, **params):
        """Sends a command (to the page once attached) and returns its result, keeping the events on the way."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                assert "error" not in reply, f"{method}: {reply['error']}"
                return reply["result"]
            self.events.append(reply)

    def receive(self) -> dict:
        while b"\0" not in self.buffer:
            chunk = os.read(self.replies, 1 << 16)
            assert chunk, "chromium closed its DevTools pipe"
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method: str):
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self.receive())

    def open(self, url: str):
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ["Page", "Runtime", "Log"]:
            self.send(f"{domain}.enable")
        self.send("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and browser log errors (a resource that failed) of the page."""
        out = []
        for e in self.events:
            method, params = e.get("method"), e.get("params", {})
            if method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                out.append(f"console.{params['type']}: {params['args']}")
            elif method == "Runtime.exceptionThrown":
                out.append(f"exception: {params['exceptionDetails']}")
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append(f"log: {params['entry']['text']}")
        return out

    def close(self):
        try:
            self.session = None
            self.send("Browser.close")
        finally:
            self.process.wait(timeout=30)
            os.close(self.commands)
            os.close(self.replies)


@pytest.fixture
def browser(tmp_path):
    b = Browser(tmp_path / "profile")
    yield b
    b.close()


def test_report_html_opens_in_chromium_with_every_figure_and_no_error(fixtures, tmp_path, browser):
    written = write_report([fixtures / "numa_agree", fixtures / "numa_disagree"], tmp_path / "report")
    page = tmp_path / "report" / "report.html"
    assert page in written
    pngs = [p for p in written if p.suffix == ".png"]
    assert len(pngs) >= 4, "the fixture study draws a figure per set and quantity"
    text = page.read_text()
    assert "<table>" in text and 'src="data:image/png;base64,' in text
    assert "src=\"http" not in text and "href=\"http" not in text, "self-contained: nothing to fetch"

    browser.open(page.as_uri())
    images = browser.send("Runtime.evaluate", returnByValue=True, expression=(
        "Array.from(document.images).map(i => [i.alt, i.complete, i.naturalWidth, i.naturalHeight])"))["result"]["value"]
    assert len(images) == len(pngs), "one <img> per figure written"
    for alt, complete, width, height in images:
        assert complete and width > 0 and height > 0, f"figure {alt!r} did not load ({width}x{height})"
    tables = browser.send("Runtime.evaluate", returnByValue=True,
                          expression="document.querySelectorAll('table tbody tr').length")["result"]["value"]
    assert tables > 0, "the tables are HTML tables with rows"
    assert browser.errors() == []

    shot = browser.send("Page.captureScreenshot", format="png")["data"]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "report_html.png").write_bytes(base64.b64decode(shot))


def test_a_broken_figure_is_caught(tmp_path, browser):
    # The check above can fail: an <img> whose data is not an image loads with natural size 0.
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><html><body><img alt="x" src="data:image/png;base64,AAAA"></body></html>')
    browser.open(page.as_uri())
    images = browser.send("Runtime.evaluate", returnByValue=True,
                          expression="Array.from(document.images).map(i => i.naturalWidth)")["result"]["value"]
    assert images == [0]


def test_inline_markdown_becomes_escaped_html():
    assert inline_html("`a<b` and **c** [d](e.csv)") == '<code>a&lt;b</code> and <strong>c</strong> <a href="e.csv">d</a>'
    assert html.escape("<") == "&lt;"


def test_a_report_with_long_timelines_renders_within_ten_seconds(fixtures, tmp_path, browser):
    # The case: a sweep whose runs wrote long timelines (once a 56 MB page that took Chromium minutes).
    # The bound is the one the project sets for report.html (docs/analysis.md), generous for a page this small.
    write_report(big_timeline_sweep(fixtures, tmp_path), tmp_path / "report")
    page = tmp_path / "report" / "report.html"
    start = time.monotonic()
    browser.open(page.as_uri())
    elapsed = time.monotonic() - start
    assert elapsed < 10, f"report.html took {elapsed:.1f} s to load"
    images = browser.send("Runtime.evaluate", returnByValue=True,
                          expression="Array.from(document.images).map(i => i.naturalWidth)")["result"]["value"]
    assert images and all(width > 0 for width in images)
    assert browser.errors() == []
