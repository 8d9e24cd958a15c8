"""Rewriting a saturn sweep spec for the experiments.

once(src, dst, values): every [sweep X] section of src becomes two in dst:
X with traffic.pattern restricted to the patterns in values and sim.seed = 1,
and "X more-seeds" with the section's other patterns and its own seeds. A paper
that ran its deterministic conditions once and its random ones many times
(paper 000, section 5.2) is that; saturn sweep's search and summary take a
set's two sections together (the same parameters, n seeds per pattern).
Sections without traffic.pattern or sim.seed, and the rest of the file, are
copied as they are.

    python3 sweep_spec.py once SRC DST trns,shfl    (the tests' entry)
"""
import sys


def _sections(text):
    """[(header or None, [lines])] in file order."""
    out, head, cur = [], None, []
    for ln in text.split("\n"):
        if ln.startswith("["):
            out.append((head, cur))
            head, cur = ln, []
        else:
            cur.append(ln)
    out.append((head, cur))
    return out


def _key(line):
    return line.split("=", 1)[0].strip() if "=" in line and not line.lstrip().startswith(";") else None


def once(src, dst, values):
    with open(src) as f:
        parts = _sections(f.read())
    out = []
    for head, body in parts:
        if head is not None:
            out.append(head)
        pats = next((ln.split("=", 1)[1] for ln in body if _key(ln) == "traffic.pattern"), None)
        has_seed = any(_key(ln) == "sim.seed" for ln in body)
        if head is None or not head.startswith("[sweep ") or pats is None or not has_seed:
            out += body
            continue
        listed = [p.strip() for p in pats.split(",")]
        first = [p for p in listed if p in values]
        rest = [p for p in listed if p not in values]
        lines = [ln for ln in body if ln.strip()]

        def part(ps, seed):
            r = []
            for ln in lines:
                k = _key(ln)
                r.append("traffic.pattern = " + ", ".join(ps) if k == "traffic.pattern"
                         else f"sim.seed = {seed}" if k == "sim.seed" and seed else ln)
            return r
        if not first or not rest:  # one kind of pattern only: one section
            out += part(listed, "1" if first else None) + [""]
            continue
        out += part(first, "1") + ["", head[:-1] + " more-seeds]"] + part(rest, None) + [""]
    with open(dst, "w") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] != "once":
        sys.exit("usage: sweep_spec.py once SRC DST PATTERN,PATTERN,...")
    once(sys.argv[2], sys.argv[3], set(sys.argv[4].split(",")))
