#!/usr/bin/env bash
# experiments/cup-stacking/run keeps each GA's result in out/ga-cache/, keyed by the
# binary's SHA-256 and the GA's arguments: a second run reads it back (the same lines),
# a kept result is what is printed (a doctored one shows), another binary runs afresh.
# usage: experiment_ga_cache.sh SATURN SOURCE_DIR
set -euo pipefail
saturn=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$saturn" "$tmp/s1"
run() { python3 "$src/experiments/cup-stacking/run" --quick --only readings --ga-generations 1 -j 1 \
          --no-demos --saturn "$1" --out "$tmp/out" 2>/dev/null | grep '^READING'; }
fail() { echo "FAIL: $*"; exit 1; }

run "$tmp/s1" > "$tmp/first"
[ "$(wc -l < "$tmp/first")" -eq 4 ] || fail "four READING lines expected"
[ "$(ls "$tmp/out/ga-cache" | wc -l)" -eq 8 ] || fail "four GAs kept (json + csv each)"
run "$tmp/s1" > "$tmp/second"
cmp -s "$tmp/first" "$tmp/second" || fail "second run differs from the first"

# doctor the kept results: the run must print them
python3 - "$tmp/out/ga-cache" <<'PY'
import json, os, sys
for f in os.listdir(sys.argv[1]):
    if f.endswith(".json"):
        p = os.path.join(sys.argv[1], f)
        r = json.load(open(p))
        r["optimised"]["fitness"] = 999
        json.dump(r, open(p, "w"))
PY
run "$tmp/s1" > "$tmp/doctored"
[ "$(grep -c ': 999 after 1 generations' "$tmp/doctored")" -eq 4 ] || fail "kept results not read back"

# another binary (one byte more): its own results, not the doctored ones
cp "$tmp/s1" "$tmp/s2" && printf '\n' >> "$tmp/s2"
run "$tmp/s2" > "$tmp/other"
cmp -s "$tmp/first" "$tmp/other" || fail "another binary's run differs from the first"
[ "$(ls "$tmp/out/ga-cache" | wc -l)" -eq 16 ] || fail "another binary's GAs kept apart"
echo "experiment_ga_cache: ok"
