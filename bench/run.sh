#!/usr/bin/env bash
# Fixed benchmark configurations: simulated flit-hops/s and router-cycles/s.
# usage: bench/run.sh [SATURN_BINARY] [REPEATS] [THREADS] [FILE.ini ...]
#   best of REPEATS (default 3), each on THREADS threads (sim.threads, default 1),
#   over the given files (default bench/*.ini; bench/large/ holds the
#   million-node torus, run by name).
# Prints a Markdown table for docs/PERFORMANCE.md. Not a test: run it on a
# quiet machine and record the numbers with the machine and compiler.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build/saturn}
reps=${2:-3}
threads=${3:-1}
shift $(( $# < 3 ? $# : 3 ))
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$here"/*.ini)
[ -x "$bin" ] || { echo "build saturn first (bash scripts/build.sh)" >&2; exit 2; }
echo "| benchmark | cycles | wall s | M flit-hops/s | M router-cycles/s | peak MiB |"
echo "|---|---|---|---|---|---|"
for ini in "${files[@]}"; do
    name=$(basename "$ini" .ini)
    best=""
    for _ in $(seq "$reps"); do
        out=$("$bin" run "$ini" sim.threads="$threads")
        line=$(grep '^simulator:' <<<"$out")
        cycles=$(grep -oE '[0-9]+ cycles in all|duration +[0-9]+' <<<"$out" | grep -oE '[0-9]+' | head -1)
        wall=$(sed -E 's/simulator: ([0-9.]+) s.*/\1/' <<<"$line")
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then
            best=$wall
            fh=$(sed -E 's/.* ([0-9.]+) M flit-hops.*/\1/' <<<"$line")
            rc=$(sed -E 's/.* ([0-9.]+) M router-cycles.*/\1/' <<<"$line")
            mem=$(sed -E 's/.*peak memory ([0-9]+) MiB.*/\1/' <<<"$line")
            cyc=$cycles
        fi
    done
    echo "| $name | $cyc | $best | $fh | $rc | $mem |"
done
