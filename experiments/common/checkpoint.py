#!/usr/bin/env python3
"""Carry a long search's resume files from one machine to the next.

A `saturn sweep --search` resumes from PATH.partial.csv (every run) and
PATH.cut.csv (cut-off runs). A sweep that needs more hours than one machine
stays up keeps its progress only if those files travel: this stores their
complete lines as xz chunks in a directory (committed with the experiment),
each chunk holding only the lines added since the previous one, and rebuilds
the files from the chunks on the next machine.

  checkpoint.py save SRC_DIR STORE_DIR FILE...   new complete lines of each
        SRC_DIR/FILE as STORE_DIR/FILE.NNN.xz (nothing written if none is new;
        refuses if SRC_DIR/FILE does not start with the stored lines)
  checkpoint.py restore STORE_DIR OUT_DIR [FILE...]  OUT_DIR/FILE from its
        chunks, for each FILE named (default: every FILE stored), unless OUT_DIR/FILE already holds at least as
        many lines (then it is checked to start with them)
  checkpoint.py status STORE_DIR                 lines and chunks per file

Exit 2 on bad input or a mismatch, with one line on stderr. Standard library only."""
import hashlib
import lzma
import os
import re
import sys

CHUNK = re.compile(r"^(?P<file>.+)\.(?P<n>\d{3})\.xz$")


def die(msg):
    print(f"checkpoint: {msg}", file=sys.stderr)
    sys.exit(2)


def chunks(store):
    """{file: [chunk paths in order]}"""
    out = {}
    if not os.path.isdir(store):
        return out
    for name in sorted(os.listdir(store)):
        m = CHUNK.match(name)
        if m:
            out.setdefault(m["file"], []).append(os.path.join(store, name))
    return out


def stored(paths):
    """The stored lines' bytes (every chunk, in order)."""
    return b"".join(lzma.decompress(open(p, "rb").read()) for p in paths)


def nl(data):
    return data.count(b"\n")


def complete_prefix(path):
    """A file's bytes up to its last newline (a line being written is left out)."""
    with open(path, "rb") as f:
        data = f.read()
    return data[: data.rfind(b"\n") + 1]


def save(src, store, files):
    os.makedirs(store, exist_ok=True)
    have = chunks(store)
    for name in files:
        if "/" in name:
            die(f"{name}: a file name in SRC_DIR, not a path")
        path = os.path.join(src, name)
        if not os.path.exists(path):
            die(f"{path}: no such file")
        old = stored(have.get(name, []))
        data = complete_prefix(path)
        if not data.startswith(old):
            die(f"{path}: does not start with the {nl(old)} lines stored in {store} "
                f"(a different run?); not saved")
        new = data[len(old):]
        if not new:
            print(f"{name}: nothing new ({nl(old)} lines stored)")
            continue
        n = len(have.get(name, []))
        if n >= 1000:
            die(f"{name}: 1000 chunks already")
        out = os.path.join(store, f"{name}.{n:03d}.xz")
        tmp = out + ".tmp"
        with open(tmp, "wb") as f:
            f.write(lzma.compress(new, preset=9))
        os.replace(tmp, out)
        print(f"{name}: +{nl(new)} lines -> {out} "
              f"({nl(old) + nl(new)} stored, sha1 {hashlib.sha1(data).hexdigest()[:12]})")


def restore(store, out_dir, files):
    have = chunks(store)
    if not have:
        die(f"{store}: no chunks")
    os.makedirs(out_dir, exist_ok=True)
    for name, paths in have.items():
        if files and name not in files:
            continue
        data = stored(paths)
        path = os.path.join(out_dir, name)
        if os.path.exists(path):
            cur = complete_prefix(path)
            if len(cur) >= len(data):
                if not cur.startswith(data):
                    die(f"{path}: does not start with the stored lines (a different run?)")
                print(f"{name}: kept ({nl(cur)} lines, {nl(data)} stored)")
                continue
            if not data.startswith(cur):
                die(f"{path}: differs from the stored lines (a different run?)")
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
        print(f"{name}: restored {nl(data)} lines from {len(paths)} chunk(s)")


def status(store):
    for name, paths in chunks(store).items():
        print(f"{name}: {nl(stored(paths))} lines in {len(paths)} chunk(s)")


def main(argv):
    if len(argv) >= 4 and argv[1] == "save":
        save(argv[2], argv[3], argv[4:] or die("save: name at least one FILE"))
    elif len(argv) >= 4 and argv[1] == "restore":
        restore(argv[2], argv[3], argv[4:])
    elif len(argv) == 3 and argv[1] == "status":
        status(argv[2])
    else:
        die("usage: checkpoint.py save SRC_DIR STORE_DIR FILE... | restore STORE_DIR OUT_DIR [FILE...] | "
            "status STORE_DIR")


if __name__ == "__main__":
    main(sys.argv)
