#!/usr/bin/env python3
"""experiments/common/progress.py (issue 19): when lines come, what they
say, the live line wiped before stdout is written, SATURN_PROGRESS; a fake
clock, no sleeping. usage: experiment_progress.py SOURCE_DIR"""
import io
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "experiments", "common"))
import progress  # noqa: E402

fails = 0


def check(name, got, want):
    global fails
    if got != want:
        fails += 1
        print(f"FAIL {name}:\n  got  {got!r}\n  want {want!r}")


t = [0.0]
clock = lambda: t[0]  # noqa: E731

# plain: a line once 5 s have passed (a tenth of the time elapsed, at
# least 5 s), ETA from the mean time a run, a closing line
s = io.StringIO()
p = progress.Progress("exp", stream=s, style="plain", clock=clock)
p.add(10)
for _ in range(10):
    t[0] += 2
    p.done()
p.close()
check("plain", s.getvalue(),
      "exp: 3/10 runs done  elapsed 6s  ETA 14s\n"
      "exp: 6/10 runs done  elapsed 12s  ETA 8s\n"
      "exp: 9/10 runs done  elapsed 18s  ETA 2s\n"
      "exp: 10 runs done in 20s\n")

# plain, a long run: lines a tenth of the elapsed time apart, at most 60 s
t[0] = 0.0
p = progress.Progress("exp", stream=io.StringIO(), style="plain", clock=clock)
check("interval-min", p.interval(10.0), 5.0)
check("interval", p.interval(300.0), 30.0)
check("interval-max", p.interval(3600.0), 60.0)

# a run too short for a line: no closing line either
t[0] = 0.0
s = io.StringIO()
p = progress.Progress("exp", stream=s, style="plain", clock=clock)
p.add(2)
t[0] = 1
p.done()
p.done()
p.close()
check("short", s.getvalue(), "")

# live: redrawn in place, wiped by close
t[0] = 0.0
s = io.StringIO()
p = progress.Progress("exp", stream=s, style="live", clock=clock)
p.add(4)
t[0] = 1
p.done()
t[0] = 1.1  # within 0.25 s of the last: no redraw
p.done()
t[0] = 2
p.done()
p.close()
check("live", s.getvalue(),
      "\r\033[Kexp: 1/4 runs done  elapsed 1s  ETA 3s"
      "\r\033[Kexp: 3/4 runs done  elapsed 2s  ETA 1s\r\033[K")

# stdout on the terminal: the live line is wiped before a REF line
t[0] = 0.0
s = io.StringIO()
p = progress.Progress("exp", stream=s, style="live", clock=clock)
out = progress._ClearFirst(s, p)
p.add(2)
t[0] = 1
p.done()
out.write("REF a paper=1 saturn=1 tol=0 ok\n")
check("clear-first", s.getvalue(),
      "\r\033[Kexp: 1/2 runs done  elapsed 1s  ETA 1s\r\033[KREF a paper=1 saturn=1 tol=0 ok\n")

# off: nothing at all
s = io.StringIO()
p = progress.Progress("exp", stream=s, style="off", clock=clock)
p.add(1)
t[0] = 100
p.done()
p.close()
check("off", s.getvalue(), "")

check("style-pipe", progress.style_for(io.StringIO(), ""), "plain")
for v in ("off", "live", "plain"):
    check("style-env-" + v, progress.style_for(io.StringIO(), v), v)
check("duration", [progress.duration(x) for x in (0, 42, 185, 3720)], ["0s", "42s", "3m05s", "1h02m"])

print("ok" if not fails else f"{fails} failed")
sys.exit(1 if fails else 0)
