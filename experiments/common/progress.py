"""An experiment's progress on stderr (issue 19), as the saturn command
shows its own: on a terminal one line redrawn in place, otherwise a plain
line every tenth of the time elapsed (5 s to 60 s apart); never on stdout,
so REF lines stay as they are. SATURN_PROGRESS=off|live|plain overrides the
choice. Counts runs: a script adds the runs it queues and marks each one
finished; the ETA is for the runs queued so far (scripts queue in batches).

    prog = Progress("self-tuned")
    prog.add(len(jobs)); ... prog.done()   # from any thread
    prog.close()                          # the closing line
"""
import os
import sys
import threading
import time

LIVE_INTERVAL = 0.25
PLAIN_MIN, PLAIN_MAX = 5.0, 60.0


def duration(s):
    """'42s', '3m05s', '1h02m' (as saturn's progress lines)."""
    t = int(s + 0.5)
    if t < 60:
        return f"{t}s"
    if t < 3600:
        return f"{t // 60}m{t % 60:02d}s"
    return f"{t // 3600}h{t % 3600 // 60:02d}m"


def style_for(stream, env=None):
    """'live' on a terminal, 'plain' otherwise; SATURN_PROGRESS overrides."""
    want = (env if env is not None else os.environ.get("SATURN_PROGRESS", "")).strip()
    if want in ("off", "live", "plain"):
        return want
    try:
        return "live" if stream.isatty() else "plain"
    except (AttributeError, ValueError):
        return "plain"


class _ClearFirst:
    """stdout on the same terminal: the live line is wiped before a write,
    so a REF line never lands on the end of it."""

    def __init__(self, stream, prog):
        self._stream, self._prog = stream, prog

    def write(self, s):
        with self._prog.lock:
            self._prog.clear()
            return self._stream.write(s)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class Progress:
    def __init__(self, name, stream=None, style=None, clock=time.monotonic):
        self.name, self.clock = name, clock
        self.stream = stream if stream is not None else sys.stderr
        self.style = style or style_for(self.stream)
        self.t0 = clock()
        self.last = self.t0
        self.total = self.finished = 0
        self.shown = False  # a live line is on the screen
        self.lines = 0
        self.lock = threading.RLock()
        if self.style == "live" and stream is None and sys.stdout.isatty():
            sys.stdout = _ClearFirst(sys.stdout, self)

    def interval(self, now):
        if self.style == "live":
            return LIVE_INTERVAL
        return min(PLAIN_MAX, max(PLAIN_MIN, (now - self.t0) / 10.0))

    def line(self, now):
        el = now - self.t0
        text = f"{self.name}: {self.finished}/{self.total} runs done  elapsed {duration(el)}"
        if 0 < self.finished < self.total:
            text += f"  ETA {duration(el / self.finished * (self.total - self.finished))}"
        return text

    def _emit(self, text):
        if self.style == "live":
            self.stream.write("\r\033[K" + text)
            self.shown = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()
        self.lines += 1

    def add(self, n=1):
        with self.lock:
            self.total += n

    def done(self, n=1):
        with self.lock:
            self.finished += n
            now = self.clock()
            if self.style != "off" and now - self.last >= self.interval(now):
                self.last = now
                self._emit(self.line(now))

    def clear(self):
        with self.lock:
            if not self.shown:
                return
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False

    def close(self):
        """Wipes the live line; a plain log gets a closing line."""
        with self.lock:
            self.clear()
            if self.style == "plain" and self.lines:
                self.stream.write(f"{self.name}: {self.finished} runs done in "
                                  f"{duration(self.clock() - self.t0)}\n")
                self.stream.flush()
            if isinstance(sys.stdout, _ClearFirst) and sys.stdout._prog is self:
                sys.stdout = sys.stdout._stream
