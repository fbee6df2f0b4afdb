"""Where candidates run: this process, or one worker process per GPU.

With --gpus N each worker is a fresh (spawned) process that sees one GPU
(CUDA_VISIBLE_DEVICES, or HIP_VISIBLE_DEVICES on ROCm, set before torch is
imported) and keeps it for the whole run, so candidates time in parallel
without sharing a device. Under --interpret the workers are CPU processes
running Triton's interpreter (TRITON_INTERPRET=1): the same code path,
which is how CI proves it without a GPU.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from generator.tune.measure import Job, run_job


def _init_worker(slots, interpret: bool) -> None:
    slot = slots.get()
    if interpret:
        os.environ["TRITON_INTERPRET"] = "1"
    else:
        os.environ["CUDA_VISIBLE_DEVICES"] = str(slot)
        os.environ["HIP_VISIBLE_DEVICES"] = str(slot)


def run_jobs(jobs: Iterable[Job], workers: int, interpret: bool,
             deadline: float | None, job_fn: Callable[[Job], dict] = run_job
             ) -> Iterator[tuple[Job, dict]]:
    """(job, outcome) as each job finishes. No job starts after `deadline`
    (time.monotonic()); jobs already running finish. workers == 1 runs them
    here, in order."""
    jobs = iter(jobs)
    if workers <= 1:
        for job in jobs:
            if deadline is not None and time.monotonic() > deadline:
                return
            yield job, job_fn(job)
        return
    ctx = multiprocessing.get_context("spawn")
    slots = ctx.Queue()
    for i in range(workers):
        slots.put(i)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init_worker,
                               initargs=(slots, interpret))
    running: dict[Future, Job] = {}
    try:
        while True:
            while len(running) < workers and (deadline is None or time.monotonic() <= deadline):
                job = next(jobs, None)
                if job is None:
                    break
                running[pool.submit(job_fn, job)] = job
            if not running:
                return
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield running.pop(future), future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
