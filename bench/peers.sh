#!/usr/bin/env bash
# saturn against BookSim 2 on matched configurations (issue 21): CPU seconds
# (user + sys of the child alone, so other jobs on the machine cost it less
# than in wall time) per simulated cycle of each, and the ratio.
#
# usage: BOOKSIM=/path/to/booksim bench/peers.sh [SATURN_BINARY]
#   env: W (cycles of warm-up = cycles measured, default 10000: ~20,000 cycles
#        a run), REPS (saturn runs per pair, best taken, default 3),
#        BS_REPS (BookSim runs per pair, best taken, default 1), ONLY (torus|dragonfly)
#
# BookSim 2: github booksim/booksim2 at 28f43299f1706a3160ffac721ca461d74eb6e618,
# built outside this repository with its own Makefile.
#
# The pairs (experiments/booksim-validation matches the two routers
# cycle for cycle: saturn's preset booksim-iq is BookSim's default iq router):
#   torus: 16x16 torus, 4 VCs x 8 flits, 16-flit packets, 1-cycle links, DOR
#          (BookSim dim_order: ring-entry VC classes), uniform (source included),
#          0.13 flits/node/cycle (about half of saturation);
#   dragonfly: BookSim's dragonflynew p = h = 4, a = 8 (33 groups, 1,056 nodes),
#          consecutive global links, 10/100-cycle local/global links, 3 VCs x 256
#          flits, 16-flit packets, minimal routing, uniform, 0.25 flits/node/cycle.
# Not a test: record what it prints in docs/PERFORMANCE.md with the machine,
# the compiler and the load (it prints the load average before and after).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sat=${1:-$here/../build/saturn}
W=${W:-10000}
REPS=${REPS:-3}
BS_REPS=${BS_REPS:-1}
ONLY=${ONLY:-}
[ -n "${BOOKSIM:-}" ] && [ -x "$BOOKSIM" ] || { echo "set BOOKSIM=/path/to/booksim (BookSim 2)" >&2; exit 2; }
[ -x "$sat" ] || { echo "build saturn first (bash scripts/build.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu CMD...: runs CMD (output to $tmp/out); prints its user+sys CPU seconds.
# BookSim exits with status 255 after a successful run (its main returns -1
# when the simulation succeeded), so success is judged by the parser below.
cpu() {
    /usr/bin/time -f "%U %S" -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err" || true
    tail -1 "$tmp/time" | awk '{printf "%.3f\n", $1 + $2}'
}

# the matched pairs' arguments (torus_bs, torus_sat, df_bs, df_sat)
# shellcheck source=bench/pairs.sh
source "$here/pairs.sh"

# best CPU seconds of n runs of a command, and the cycles the last run reports
best() { # n parser cmd...
    local n=$1 parse=$2 b="" c
    shift 2
    for _ in $(seq "$n"); do
        rm -f "$tmp/sat.json"
        c=$(cpu "$@")
        if [ -z "$b" ] || awk "BEGIN{exit !($c < $b)}"; then b=$c; fi
    done
    c=$($parse) || return 1
    echo "$b $c"
}
bs_cycles() {
    grep -oE 'Time taken is [0-9]+ cycles' "$tmp/out" | tail -1 | grep -oE '[0-9]+' ||
        { tail -n 5 "$tmp/out" "$tmp/err" >&2; echo "BookSim failed" >&2; return 1; }
}
sat_cycles() {
    grep -oE '"cycles":[[:space:]]*[0-9]+' "$tmp/sat.json" | grep -oE '[0-9]+$' ||
        { cat "$tmp/err" >&2; echo "saturn failed" >&2; return 1; }
}

pair() { # name bs-array-name sat-array-name
    local name=$1
    local -n bs=$2 sa=$3
    {
        for kv in "${bs[@]}"; do echo "${kv%%=*} = ${kv#*=};"; done
        echo "sim_type = latency; warmup_periods = 1; sample_period = $W; max_samples = 2;"
        echo "latency_thres = 1000000.0;"
    } >"$tmp/$name.cfg"
    local b s
    b=$(best "$BS_REPS" bs_cycles "$BOOKSIM" "$tmp/$name.cfg") || exit 1
    s=$(best "$REPS" sat_cycles "$sat" run "${sa[@]}" steady.warmup="$W" \
        steady.measure="$W" steady.drain_max=100000 --json "$tmp/sat.json" -q) || exit 1
    read -r bcpu bcyc <<<"$b"
    read -r scpu scyc <<<"$s"
    awk -v n="$name" -v bc="$bcpu" -v by="$bcyc" -v sc="$scpu" -v sy="$scyc" 'BEGIN{
        b = bc / by; s = sc / sy
        r = s > 0 ? sprintf("%.1f", b / s) : "n/a (under the timer resolution: raise W)"
        printf "| %s | %d | %.2f | %.3f | %d | %.3f | %.4f | %s |\n", n, by, bc, 1000 * b, sy, sc, 1000 * s, r }'
}

echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "| pair | BookSim cycles | BookSim CPU s | BookSim CPU ms/cycle | saturn cycles | saturn CPU s | saturn CPU ms/cycle | ratio |"
echo "|---|---|---|---|---|---|---|---|"
[ -z "$ONLY" ] || [ "$ONLY" = torus ] && pair torus16_dor_0.13 torus_bs torus_sat
[ -z "$ONLY" ] || [ "$ONLY" = dragonfly ] && pair dragonfly1k_min_0.25 df_bs df_sat
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
