"""Jupyter's kernel manager with a second timeout, for kernels whose page is gone (see :mod:`toolkit.viz.serve`).

A module of its own: it imports Jupyter's server, which ``toolkit app``'s command line must not load."""

from __future__ import annotations

import time

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Integer

from toolkit.viz.serve import CULL_DISCONNECTED

UNCLAIMED = 120  # s: the least a kernel whose page has not connected yet is given (the page may be loading)


class CullingKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager with a second timeout, for kernels whose page is gone."""

    cull_disconnected = Integer(CULL_DISCONNECTED, config=True,
                                help="Seconds a kernel lives after its last page connection closed (busy or not).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._gone_since: dict[str, float] = {}  # kernel -> when its last connection closed
        self._ever_connected: set[str] = set()
        self._unclaimed: dict[str, float] = {}  # kernel -> since when it is idle, out of the pool, never connected

    def initialize_culler(self):
        """Cull with the disconnected timeout even when the idle one is 0 (never)."""
        if self.cull_idle_timeout <= 0:
            self.cull_idle_timeout = 10 ** 9  # the idle rule never fires; the culler still runs
        super().initialize_culler()

    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
        self._ever_connected.add(kernel_id)
        self._gone_since.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id):
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0:
            self._gone_since[kernel_id] = time.monotonic()

    def _pooled(self, kernel_id: str) -> bool:
        """Whether the kernel waits in Voila's pool of preheated kernels (no page has it yet)."""
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None \
                        and task.result().get("kernel_id") == kernel_id:
                    return True
        return False

    async def cull_kernel_if_idle(self, kernel_id):
        kernel = self._kernels.get(kernel_id)
        if kernel is None:
            return
        if self._pooled(kernel_id):
            self._unclaimed.pop(kernel_id, None)
            return
        if self._kernel_connections.get(kernel_id, 0) <= 0:
            if kernel_id in self._ever_connected:
                gone = time.monotonic() - self._gone_since.get(kernel_id, time.monotonic())
            elif getattr(kernel, "execution_state", None) == "busy":
                self._unclaimed.pop(kernel_id, None)  # rendering its page, which has not connected yet
                return
            else:  # out of the pool, idle, its page not connected yet: since the culler first saw it so; a
                # slow browser may take a while to load the page's scripts, so it gets UNCLAIMED at least
                unclaimed = time.monotonic() - self._unclaimed.setdefault(kernel_id, time.monotonic())
                gone = unclaimed if unclaimed > UNCLAIMED else 0.0
            if gone > self.cull_disconnected:
                self.log.warning("Culling kernel %s: its page has been gone for %d s.", kernel_id, gone)
                await self.shutdown_kernel(kernel_id)
            return
        await super().cull_kernel_if_idle(kernel_id)  # an open page: Jupyter's idle rule

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._gone_since.pop(kernel_id, None)
        self._ever_connected.discard(kernel_id)
        self._unclaimed.pop(kernel_id, None)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)
