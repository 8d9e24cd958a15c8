#!/usr/bin/env bash
# Two saturn binaries (or any two commands taking the same arguments) timed
# side by side: A and B run at the same time, one a core (taskset), the
# cores swapped each round, so that both meet the same host (the shared
# caches, the memory bus, a neighbour's load) and the comparison survives a
# noisy machine where alternated runs of one binary spread by 20 %. Each
# round prints A's and B's user seconds; the end, B's mean change against A
# and how many rounds B won. Results: both binaries write JSON (--json), and
# the script reports whether the last round's two differ in any field but
# wall_seconds and peak_rss_kb.
#
# usage: bench/ab.sh A B ROUNDS ARGS...
#   e.g. bench/ab.sh /tmp/old/saturn build/saturn 6 run bench/dragonfly16k_base_un_0.30.ini
# Needs two cores (nproc >= 2), taskset and GNU time. Not a test.
set -euo pipefail
[ $# -ge 4 ] || { sed -n 2,14p "$0" >&2; exit 2; }
A=$1 B=$2 N=$3
shift 3
[ "$(nproc)" -ge 2 ] || { echo "ab.sh: needs two cores" >&2; exit 2; }
command -v taskset >/dev/null && [ -x /usr/bin/time ] || { echo "ab.sh: needs taskset and /usr/bin/time" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in $(seq "$N"); do
    ca=$((i % 2)) cb=$(((i + 1) % 2))
    /usr/bin/time -f "%U" -o "$tmp/ta" taskset -c "$ca" "$A" "$@" --json "$tmp/a.json" -q >/dev/null &
    /usr/bin/time -f "%U" -o "$tmp/tb" taskset -c "$cb" "$B" "$@" --json "$tmp/b.json" -q >/dev/null &
    wait
    echo "$(tail -1 "$tmp/ta") $(tail -1 "$tmp/tb")"
done | awk '{ print "A " $1 " s  B " $2 " s"; d += ($2 - $1) / $1; w += $2 < $1; n++ }
            END { printf "B against A: %+.1f %% (mean of %d rounds), B faster in %d\n", 100 * d / n, n, w }'
if diff <(grep -v '"wall_seconds"\|"peak_rss_kb"' "$tmp/a.json") \
        <(grep -v '"wall_seconds"\|"peak_rss_kb"' "$tmp/b.json") >/dev/null; then
    echo "results: the same in every field (but wall_seconds, peak_rss_kb)"
else
    echo "results: DIFFER"
fi
