"""The tune worker's compile processes: variants compiled in parallel, ahead of their turn.

tko sends the variants its plan has queued in one "precompile" request;
the worker hands each to a process of this pool and answers at once. A
compile process is spawned fresh (no CUDA in it) and compiles for the
explicit target it is given, which needs no GPU; it writes the variant's
stage files and Triton's cache (TRITON_CACHE_DIR, the worker's). When the
variant's own bench or compile request comes, the worker waits for that
compile and then compiles the variant itself: a cache hit that only loads
the binary. So the GPU times one variant while the CPUs compile the next.

Size: $TKO_TUNE_JOBS, else the usable CPUs less two, at most 8; 1 or less
means no pool (every request compiles inline, as on a small CI machine).
A pool that breaks (a compile process died) is dropped and requests
compile inline again. Entry point: CompilePool.
"""

import concurrent.futures
import multiprocessing
import os

MAX_JOBS = 8


def default_jobs():
    env = os.environ.get("TKO_TUNE_JOBS")
    if env:
        try:
            return max(1, int(env))
        except ValueError:
            return 1
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:
        cpus = os.cpu_count() or 1
    return max(1, min(MAX_JOBS, cpus - 2))


def _warm():
    """What every compile imports, loaded once per process."""
    import triton  # noqa: F401
    try:
        import torch._inductor.runtime.triton_helpers  # noqa: F401
    except ImportError:
        pass


def _compile(req):
    from tune_compile import compile_reply
    return compile_reply(req)


def _sweep_of(req):
    """A variant's sweep: OUT/variants/NNN -> OUT."""
    return os.path.dirname(os.path.dirname(os.path.abspath(req.get("out_dir") or ".")))


class CompilePool:
    def __init__(self, jobs=None):
        self.jobs = default_jobs() if jobs is None else jobs
        self.pool = None
        self.pending = {}           # out_dir -> Future of a compile reply

    def _executor(self):
        """The pool, created on first use; None when there is none (one job,
        or processes cannot be made here: every compile is then inline)."""
        if self.pool is None and self.jobs > 1:
            try:
                ctx = multiprocessing.get_context("spawn")
                self.pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=self.jobs, mp_context=ctx, initializer=_warm)
            except (OSError, ValueError, ImportError):
                self.jobs = 1
        return self.pool

    def warm(self):
        """Starts the compile processes now (each imports Triton and torch,
        seconds), so the first variants do not wait for them."""
        pool = self._executor()
        try:
            for _ in range(self.jobs if pool is not None else 0):
                pool.submit(_warm)
        except (OSError, RuntimeError):
            self.drop()

    def submit(self, reqs):
        """Queues compile requests; returns how many were queued. Work left
        over from another sweep is cancelled when it has not started."""
        pool = self._executor()
        if pool is None or not reqs:
            return 0
        sweep = _sweep_of(reqs[0])
        for key, fut in list(self.pending.items()):
            if _sweep_of({"out_dir": key}) != sweep and fut.cancel():
                del self.pending[key]
        n = 0
        for req in reqs:
            key = req.get("out_dir")
            if key and key not in self.pending:
                try:
                    self.pending[key] = pool.submit(_compile, req)
                except RuntimeError:       # a broken or shut-down pool
                    self.drop()
                    return n
                n += 1
        return n

    def take(self, req):
        """The compile reply of a queued request (waiting for it), or None
        when it was not queued or its process failed."""
        fut = self.pending.pop(req.get("out_dir"), None)
        if fut is None:
            return None
        try:
            return fut.result()
        except concurrent.futures.process.BrokenProcessPool:
            self.drop()
        except Exception:
            pass
        return None

    def drop(self):
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
        self.pool = None
        self.pending = {}
        self.jobs = 1
