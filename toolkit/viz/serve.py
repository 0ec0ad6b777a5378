"""The dashboard's server: Voila with every page's kernel ended when the page is gone.

``toolkit app`` starts ``python -m toolkit.viz.serve`` (Voila's own command line, with the settings
below) in a process group of its own, and stops it with SIGTERM.  Three things keep a server a team
leaves running from filling the machine with kernels:

- **A page closed, its kernel ended.**  The page's own "unload" message now reaches the server
  (:func:`_unload_message_accepted`).
- **A page gone, its kernel culled.**  :class:`toolkit.viz.culling.CullingKernelManager` ends a kernel
  ``cull_disconnected`` seconds after its last page connection closed (a closed tab, a crashed
  browser, a laptop put to sleep: Voila's own "shut down on unload" message is not sent then), busy
  or not, since nobody can see what it computes.  A kernel whose page has not connected yet is left
  alone while it renders the page, then given at least two minutes (a slow browser loads the page's
  scripts first) and ``cull_disconnected`` seconds.  A page still open but idle for
  ``cull_idle_timeout`` seconds (0: never) is culled too.
- **Preheated kernels.**  ``default_pool_size`` kernels have run the dashboard before a page asks,
  so a page is ready at once; a kernel in the pool is never culled.
- **The parent watched.**  When ``toolkit app`` is gone, even by SIGKILL, the server stops (it polls
  its parent process every second), and Voila's stop ends every kernel; SIGHUP stops it as SIGTERM
  does.  (A kernel also ends by itself when the server dies: ipykernel polls its parent.)  The folder
  named by ``TOOLKIT_APP_FOLDER`` (toolkit app's notebook) is removed when the server stops.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import threading
import time

CULL_DISCONNECTED = 60  # s: a page's kernel lives this long after the page is gone
CULL_IDLE = 3600  # s: an open page's kernel, idle this long, is ended (0: never)
POOL = 1  # preheated kernels
IOPUB_WAIT = 120  # s: how long the server waits for a cell's outputs after its reply (only as long as they take)
FOLDER_VARIABLE = "TOOLKIT_APP_FOLDER"  # a folder the server removes when it stops


def cull_interval(disconnected: int) -> int:
    """How often the culler looks (s): a quarter of the disconnected time, 1..10 s."""
    return max(1, min(10, disconnected // 4))


def voila_options(*, disconnected: int, idle: int, pool: int) -> list[str]:
    """Voila's command-line settings for the culling and the pool."""
    manager = "toolkit.viz.culling.CullingKernelManager"
    # IOPub_WAIT: nbclient waits 4 s for a cell's outputs after its reply; on a loaded machine the page's widget
    # came later, was dropped ("Timeout waiting for IOPub output"), and the page stayed empty for good
    options = [f"--VoilaExecutor.iopub_timeout={IOPUB_WAIT}",
               f"--VoilaConfiguration.multi_kernel_manager_class={manager}",
               f"--CullingKernelManager.cull_disconnected={disconnected}",
               f"--CullingKernelManager.cull_idle_timeout={idle}",
               f"--CullingKernelManager.cull_interval={cull_interval(disconnected)}"]
    if pool > 0:
        options += ["--preheat_kernel=True", f"--VoilaConfiguration.default_pool_size={pool}"]
    return options


def _watch_parent(parent: int) -> None:
    """SIGTERM to this process once its parent is gone (reparented: the parent's pid no longer ours)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os.kill(os.getpid(), signal.SIGTERM)


def _unload_message_accepted() -> None:
    """Let a page's "unload" message end its kernel at once.

    Voila's page sends it without the ``_xsrf`` value (it reads a cookie the server never set), so the
    server refused it (403) and every closed or reloaded page's kernel lived on until culled.  The
    message names the kernel by its id, a random UUID that only the page holding the kernel has been
    given, and still needs the page's login (the token); the xsrf check adds nothing to that here."""
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    VoilaShutdownKernelHandler.check_xsrf_cookie = lambda self: None


def main(argv: list[str] | None = None) -> None:
    """Voila's command line, stopped cleanly by SIGTERM, SIGHUP, or its parent's end."""
    from voila.app import Voila

    _unload_message_accepted()
    parent = os.getppid()
    app = Voila.instance()
    app.initialize(sys.argv[1:] if argv is None else argv)  # Voila's handler for SIGTERM is set here
    signal.signal(signal.SIGHUP, signal.getsignal(signal.SIGTERM))
    if parent > 1:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="watch-parent").start()
    try:
        app.start()
    finally:  # toolkit app's folder (the notebook, the kernel spec), which a killed toolkit app cannot remove
        if os.environ.get(FOLDER_VARIABLE):
            shutil.rmtree(os.environ[FOLDER_VARIABLE], ignore_errors=True)


if __name__ == "__main__":
    main()
