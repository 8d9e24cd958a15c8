#!/usr/bin/env bash
# Issue 21, goal 1: the torus pair of bench/peers.sh three ways, CPU ms a
# simulated cycle: saturn, bench/lean_torus.c (the same router model written
# from scratch for that one configuration and for speed alone: a floor for
# a flit-level engine on this machine; and with -DSPLIT_PHASES, arrivals and
# credits taken in a pass of their own, as saturn takes them) and, with
# BOOKSIM=/path, BookSim 2.
# Each best of REPS runs (default 3; BookSim once). Not a test.
#
# usage: [BOOKSIM=/path/to/booksim] bench/lean-bound.sh [SATURN_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sat=${1:-$here/../build/saturn}
REPS=${REPS:-3}
W=10000
[ -x "$sat" ] || { echo "build saturn first (bash scripts/build.sh)" >&2; exit 2; }
# shellcheck source=bench/pairs.sh
source "$here/pairs.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O3 -std=c11 -o "$tmp/lean_torus" "$here/lean_torus.c"
cc -O3 -std=c11 -DSPLIT_PHASES -o "$tmp/lean_torus_split" "$here/lean_torus.c"

cpu() { # CPU seconds (user + sys) of a command
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || true
    tail -1 "$tmp/time" | awk '{printf "%.3f\n", $1 + $2}'
}
best() { # n cmd...
    local n=$1 b="" c
    shift
    for _ in $(seq "$n"); do
        c=$(cpu "$@")
        if [ -z "$b" ] || awk "BEGIN{exit !($c < $b)}"; then b=$c; fi
    done
    echo "$b"
}

s=$(best "$REPS" "$sat" run "${torus_sat[@]}" steady.warmup=$W steady.measure=$W \
    steady.drain_max=100000 --json "$tmp/sat.json" -q)
scyc=$(grep -oE '"cycles":[[:space:]]*[0-9]+' "$tmp/sat.json" | grep -oE '[0-9]+$')
l=$(best "$REPS" "$tmp/lean_torus" 0.13 $((2 * W)))
grep -q "NOT ALL" "$tmp/out" && { cat "$tmp/out"; echo "lean_torus did not drain" >&2; exit 1; }
ls=$(best "$REPS" "$tmp/lean_torus_split" 0.13 $((2 * W)))
lcyc=$((2 * W))
if [ -n "${BOOKSIM:-}" ]; then
    {
        for kv in "${torus_bs[@]}"; do echo "${kv%%=*} = ${kv#*=};"; done
        echo "sim_type = latency; warmup_periods = 1; sample_period = $W; max_samples = 2;"
        echo "latency_thres = 1000000.0;"
    } >"$tmp/bs.cfg"
    b=$(best 1 "$BOOKSIM" "$tmp/bs.cfg")
    bcyc=$(grep -oE 'Time taken is [0-9]+ cycles' "$tmp/out" | tail -1 | grep -oE '[0-9]+') ||
        { echo "BookSim failed" >&2; exit 1; }
fi
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "| program | cycles | CPU s | CPU ms/cycle | BookSim / it |"
echo "|---|---|---|---|---|"
awk -v s="$s" -v sy="$scyc" -v l="$l" -v ls="$ls" -v ly="$lcyc" -v b="${b:-}" -v by="${bcyc:-}" 'BEGIN{
    bm = b != "" ? b / by : 0
    if (b != "") printf "| BookSim 2 | %d | %.2f | %.4f | 1 |\n", by, b, 1000 * bm
    printf "| saturn | %d | %.3f | %.4f | %s |\n", sy, s, 1000 * s / sy,
        b != "" ? sprintf("%.1fx", bm / (s / sy)) : "(BOOKSIM unset)"
    printf "| bench/lean_torus.c | %d | %.3f | %.4f | %s |\n", ly, l, 1000 * l / ly,
        b != "" ? sprintf("%.1fx", bm / (l / ly)) : "(BOOKSIM unset)"
    printf "| bench/lean_torus.c -DSPLIT_PHASES | %d | %.3f | %.4f | %s |\n", ly, ls, 1000 * ls / ly,
        b != "" ? sprintf("%.1fx", bm / (ls / ly)) : "(BOOKSIM unset)"
    printf "# saturn / lean_torus: %.2fx; SPLIT_PHASES / lean_torus: %.2fx\n", (s / sy) / (l / ly), ls / l }'
