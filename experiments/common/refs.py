"""Shared by experiments/self-tuned and experiments/vct-unlimited: running
saturn in parallel, and the REF / DEMO / SUMMARY lines.

  REF <id> paper=<v> saturn=<v> tol=<t> ok|differs [cause=<id>] [note]
  DEMO <cause> <what>: as run <x>, switched <y>
  SUMMARY ok=N differs_with_cause=N differs_without_cause=N

A difference counts as explained only when its cause has a paragraph
`### cause: <id>` in the experiment's README and the script printed a DEMO
for that line (the same point with the cause's mechanism switched) that
moves the number toward the paper's."""
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

from progress import Progress


class Saturn:
    """`saturn run` with a fixed prefix (preset or file) and key=value
    overrides; results from the JSON record."""

    def __init__(self, binary, out, prefix, jobs, name=None):
        self.binary, self.out, self.prefix = binary, out, list(prefix)
        # runs done on stderr (the script's folder names the experiment)
        self.progress = Progress(name or os.path.basename(os.path.dirname(os.path.abspath(sys.argv[0]))))
        # threads may wait on each other (a bisection runs its points one
        # by one); the semaphore keeps `jobs` runs going at a time
        self.pool = cf.ThreadPoolExecutor(max_workers=8 * max(1, jobs))
        self.slots = threading.BoundedSemaphore(max(1, jobs))

    def run(self, kv, series=None, interval=None, deadlock_ok=False):
        """deadlock_ok: a run the watchdog stops (exit 3) returns
        {"deadlocked": True, "error": its report} instead of raising."""
        self.progress.add()
        return self._run(kv, series, interval, deadlock_ok)

    def _run(self, kv, series, interval, deadlock_ok):
        fd, path = tempfile.mkstemp(dir=self.out, suffix=".json")
        os.close(fd)
        cmd = [self.binary, "run", *self.prefix, *kv, "--json", path, "-q"]
        if series:
            cmd += ["--series", series]
        if interval:
            cmd += [f"sim.series_interval={interval}"]
        with self.slots:
            p = subprocess.run(cmd, capture_output=True, text=True)
        try:
            if p.returncode == 3 and deadlock_ok:
                return {"deadlocked": True, "error": p.stderr.strip().splitlines()[0]}
            if p.returncode:
                raise RuntimeError(f"{' '.join(cmd)}\n{p.stderr}")
            with open(path) as f:
                return json.load(f)["results"]
        finally:
            os.unlink(path)
            self.progress.done()

    def submit(self, kv, series=None, interval=None, deadlock_ok=False):
        self.progress.add()
        return self.pool.submit(self._run, kv, series, interval, deadlock_ok)

    def runs(self, jobs, deadlock_ok=False):
        """{key: kv list} -> {key: results}, in parallel."""
        fut = {k: self.submit(kv, deadlock_ok=deadlock_ok) for k, kv in jobs.items()}
        return {k: f.result() for k, f in fut.items()}

    def close(self):
        self.pool.shutdown()
        self.progress.close()


def latency(r, kind="packet_latency"):
    v = r.get(kind)
    return v["mean"] if isinstance(v, dict) else 0.0


class Refs:
    def __init__(self, readme):
        with open(readme) as f:
            self.paragraphs = set(re.findall(r"^### cause: (\S+)", f.read(), re.M))
        self.differs = {}  # id -> cause (None when missing)
        self.ok = 0
        self.shown = set()  # differing ids with a DEMO that moved toward the paper

    def ref(self, rid, paper, value, tol, ok, note="", cause=None):
        if ok:
            self.ok += 1
            verdict = "ok"
        else:
            self.differs[rid] = cause
            verdict = "differs" + (f" cause={cause}" if cause else "")
        print(f"REF {rid} paper={paper} saturn={value} tol={tol} {verdict}"
              + (f" {note}" if note else ""), flush=True)
        return ok

    def demo(self, cause, rid, what, default, switched, toward):
        """The line rid rerun with cause's mechanism switched; toward: the
        switched number is nearer the paper's."""
        if toward and self.differs.get(rid) == cause:
            self.shown.add(rid)
        print(f"DEMO {cause} {rid} {what}: as run {default}, switched {switched}"
              + ("" if toward else " (not toward the paper)"), flush=True)

    def summary(self):
        good = [r for r, c in self.differs.items() if c in self.paragraphs and r in self.shown]
        bad = [r for r in self.differs if r not in good]
        for r in bad:
            c = self.differs[r]
            why = ("no cause" if not c else "no README paragraph '### cause: " + c + "'"
                   if c not in self.paragraphs else "no DEMO moving it toward the paper")
            print(f"# {r}: {why}", flush=True)
        print(f"SUMMARY ok={self.ok} differs_with_cause={len(good)} "
              f"differs_without_cause={len(bad)}", flush=True)


def nearer(paper, before, after):
    """after is nearer paper than before (numbers)."""
    return abs(after - paper) < abs(before - paper)
