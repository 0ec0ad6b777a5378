"""``toolkit app`` as a team leaves it running (issue 52, point 1): many pages, no kernel left behind.

The server runs with a short culling time (``--cull-disconnected``; 60 s by default) so that the
test waits seconds, not minutes.  Five pages open at once and all draw; twenty reloads each draw;
the pages are then closed the way a crashed browser or a closed laptop leaves them (no "unload"
message, which is what ``page.close()`` sends by default), and within the culling time the kernels
and their memory are back to the fresh server's: its pool of one preheated kernel.  Then every way
of stopping ``toolkit app`` (Ctrl-C, SIGTERM, SIGHUP, SIGKILL) leaves no process behind.

Memory is the resident size of the kernels (Voila's server itself grows by about 2.5 MB a page, as
Python's heap does, and is bounded separately).  Every figure is printed with the browser timings.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from browser_support import TIMINGS, free_port, url_in_log

PLOT = ".widget-output img[alt*='games, policies']"  # the run's plots (toolkit.viz.dashboard)
CULL = 12  # s: --cull-disconnected of the server under test
POOL = 1
PAGE_TIMEOUT_MS = 300_000


def _start(command: list[str], log: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen([*command, "app", "valhalla", "--port", str(port), "--no-browser", *extra],
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    return process, url_in_log(log, f"http://127.0.0.1:{port}/?token=", timeout=120)


def _server(app: subprocess.Popen) -> psutil.Process:
    (server,) = [c for c in psutil.Process(app.pid).children() if "toolkit.viz.serve" in " ".join(c.cmdline())]
    return server


def _kernels(server: psutil.Process) -> list[psutil.Process]:
    found = []
    for child in server.children(recursive=True):
        try:
            if "ipykernel_launcher" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def _memory(processes) -> float:
    """Resident MB of ``processes`` (those that are still there)."""
    total = 0
    for p in processes:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total / 2 ** 20


def _until(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.5)
    pytest.fail(f"after {timeout:.0f} s: {what}")


def _settled(server: psutil.Process, what: str, quiet: int = 4) -> None:
    """Until the kernels are idle: for ``quiet`` seconds in a row their CPU time grew by under 0.1 s a
    second and their memory moved by under 2 MB.  (Voila logs "is filled with" when the pool's kernel
    has started, not when it has drawn the page; under load a kernel can stall long enough for one
    quiet second to come in the middle of its imports.)"""
    def reading():
        cpu = 0.0
        for p in _kernels(server):
            try:
                times = p.cpu_times()
                cpu += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return cpu, _memory(_kernels(server))

    calm, (cpu, memory) = 0, reading()
    deadline = time.monotonic() + 180
    while calm < quiet:
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: the kernels never settled (CPU time {cpu:.1f} s, {memory:.0f} MB)")
        time.sleep(1)
        (cpu_now, memory_now), (cpu_then, memory_then) = reading(), (cpu, memory)
        cpu, memory = cpu_now, memory_now
        calm = calm + 1 if cpu_now - cpu_then < 0.1 and abs(memory_now - memory_then) < 2 else 0


def _pool_ready(server: psutil.Process, log: Path) -> None:
    """Until the pool's kernel has drawn the dashboard and is idle."""
    _until(lambda: "is filled with" in log.read_text() and len(_kernels(server)) == POOL, 180,
           f"no preheated kernel:\n{log.read_text()[-2000:]}")
    _settled(server, "the fresh server's pool")


def _drawn(page, log: Path, what: str) -> None:
    """Until ``page`` shows the dashboard's plots; else the failure names the page and the server's log."""
    try:
        page.wait_for_selector(PLOT, timeout=PAGE_TIMEOUT_MS)
    except Exception as error:
        pytest.fail(f"{what}: no plots after {PAGE_TIMEOUT_MS // 1000} s ({type(error).__name__}); the page says "
                    f"{page.inner_text('body')[:500]!r}\nthe server's log:\n{log.read_text()[-4000:]}")


def _stop(app: subprocess.Popen) -> None:
    if app.poll() is None:
        app.send_signal(signal.SIGTERM)
        app.wait(timeout=60)


def test_five_pages_at_once_twenty_reloads_and_the_kernels_culled_back_to_the_pool(browser, toolkit_command,
                                                                                     tmp_path):
    log = tmp_path / "server.log"
    app, url = _start(toolkit_command, log, "--cull-disconnected", str(CULL), "--pool", str(POOL))
    try:
        server = _server(app)
        _pool_ready(server, log)
        fresh_kernels, fresh_server = _memory(_kernels(server)), _memory([server])

        start = time.monotonic()
        pages = [browser.new_page(viewport={"width": 1400, "height": 1000}) for _ in range(5)]
        for page in pages:  # every request sent before any page is waited for
            page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT_MS)
        for k, page in enumerate(pages):
            _drawn(page, log, f"page {k + 1} of 5")
        TIMINGS["5 dashboard pages opened at once: all drawn"] = time.monotonic() - start
        assert len(_kernels(server)) >= 5  # one kernel a page

        start = time.monotonic()
        page = pages[0]
        for k in range(20):
            page.reload(timeout=PAGE_TIMEOUT_MS)
            _drawn(page, log, f"reload {k + 1} of 20")
        TIMINGS["20 reloads of a dashboard page, each drawn"] = time.monotonic() - start
        TIMINGS["kernels alive after the reloads (count)"] = len(_kernels(server))
        # a reload's "unload" message ends the old page's kernel at once (one more may be on its way out)
        assert len(_kernels(server)) <= 5 + POOL + 1 and "403 POST /voila/api/shutdown" not in log.read_text()
        TIMINGS["kernels' memory after the reloads (MB)"] = _memory(_kernels(server))

        for page in pages:
            page.close()  # no "unload" message: the page is simply gone
        closed = time.monotonic()
        assert len(_kernels(server)) > POOL  # the control: nothing but the culling ends them
        _until(lambda: len(_kernels(server)) == POOL, 2 * CULL + 60,
               f"{len(_kernels(server))} kernels alive, {POOL} expected:\n{log.read_text()[-2000:]}")
        TIMINGS["pages closed -> kernels back to the pool"] = time.monotonic() - closed
        _settled(server, "the pool after the load")
        kernels, own = _memory(_kernels(server)), _memory([server])
        TIMINGS["kernels' memory: fresh server (MB)"] = fresh_kernels
        TIMINGS["kernels' memory: after the load and the culling (MB)"] = kernels
        TIMINGS["server's own memory: growth (MB)"] = own - fresh_server
        assert kernels <= 1.10 * fresh_kernels, (fresh_kernels, kernels)
        assert own <= fresh_server + 100, (fresh_server, own)
        assert "Culling kernel" in log.read_text()
    finally:
        _stop(app)


@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL"])
def test_stopping_toolkit_app_any_way_leaves_no_process(toolkit_command, tmp_path, how):
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP: toolkit app stops the server, which ends its kernels; SIGKILL:
    the server sees its parent gone and stops the same way.  Every process of the tree (toolkit app, the
    server, the preheated kernel) is gone within 30 s, and toolkit app's folder is removed."""
    log = tmp_path / "server.log"
    app, _ = _start(toolkit_command, log)
    try:
        server = _server(app)
        _until(lambda: _kernels(server), 120, f"no kernel started:\n{log.read_text()[-2000:]}")
        tree = [psutil.Process(app.pid), server, *_kernels(server)]
        folder = Path(next(a for a in server.cmdline() if a.endswith(".ipynb"))).parent
        assert folder.is_dir()
        os.kill(app.pid, getattr(signal, how))
        _until(lambda: not [p for p in tree if p.is_running() and p.status() != psutil.STATUS_ZOMBIE], 30,
               f"still alive after {how}: {[p.pid for p in tree if p.is_running()]}\n{log.read_text()[-2000:]}")
        app.wait(timeout=5)
        assert not folder.exists()
    finally:
        _stop(app)
