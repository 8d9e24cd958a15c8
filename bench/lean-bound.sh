#!/usr/bin/env bash
# Issue 21, goal 1: each matched pair of bench/peers.sh three ways, CPU ms a
# simulated cycle: saturn; the pair's model written from scratch for that one
# configuration and for speed alone (bench/lean_torus.c, bench/lean_dragonfly.c:
# a floor for a flit-level engine on this machine; lean_torus.c also with
# -DREGISTERS, arrivals and credits in registers each router absorbs as its
# cycle starts, and -DREGISTERS -DSPLIT_PHASES, those registers taken in a pass
# of their own); and, with BOOKSIM=/path, BookSim 2. Each best of REPS runs
# (default 3; BookSim once). Not a test.
#
# usage: [BOOKSIM=/path/to/booksim] [ONLY=torus|dragonfly] bench/lean-bound.sh [SATURN_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sat=${1:-$here/../build/saturn}
REPS=${REPS:-3}
ONLY=${ONLY:-}
W=10000
[ -x "$sat" ] || { echo "build saturn first (bash scripts/build.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }
# shellcheck source=bench/pairs.sh
source "$here/pairs.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O3 -std=c11 -o "$tmp/lean_torus" "$here/lean_torus.c"
cc -O3 -std=c11 -DREGISTERS -o "$tmp/lean_torus_registers" "$here/lean_torus.c"
cc -O3 -std=c11 -DREGISTERS -DSPLIT_PHASES -o "$tmp/lean_torus_registers_split" "$here/lean_torus.c"
cc -O3 -std=c11 -o "$tmp/lean_dragonfly" "$here/lean_dragonfly.c"

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
row() { # program cycles cpu booksim-ms-a-cycle
    awk -v n="$1" -v y="$2" -v c="$3" -v bm="$4" 'BEGIN{
        printf "| %s | %d | %.3f | %.4f | %s |\n", n, y, c, 1000 * c / y,
            bm != "" ? sprintf("%.1fx", bm / (c / y)) : "(BOOKSIM unset)" }'
}

pair() { # name bs-array sat-array lean-binary lean-load [lean-variant-binary:flags ...]
    local name=$1 load=$5 s scyc l lv b="" bcyc bm="" lbest
    local -n bs=$2 sa=$3
    s=$(best "$REPS" "$sat" run "${sa[@]}" steady.warmup=$W steady.measure=$W \
        steady.drain_max=100000 --json "$tmp/sat.json" -q)
    scyc=$(grep -oE '"cycles":[[:space:]]*[0-9]+' "$tmp/sat.json" | grep -oE '[0-9]+$') ||
        { cat "$tmp/err" >&2; echo "saturn failed" >&2; exit 1; }
    l=$(best "$REPS" "$4" "$load" $((2 * W)))
    grep -q "NOT ALL" "$tmp/out" && { cat "$tmp/out"; echo "$4 did not drain" >&2; exit 1; }
    lbest=$l
    if [ -n "${BOOKSIM:-}" ]; then
        {
            for kv in "${bs[@]}"; do echo "${kv%%=*} = ${kv#*=};"; done
            echo "sim_type = latency; warmup_periods = 1; sample_period = $W; max_samples = 2;"
            echo "latency_thres = 1000000.0;"
        } >"$tmp/bs.cfg"
        b=$(best 1 "$BOOKSIM" "$tmp/bs.cfg")
        bcyc=$(grep -oE 'Time taken is [0-9]+ cycles' "$tmp/out" | tail -1 | grep -oE '[0-9]+') ||
            { echo "BookSim failed" >&2; exit 1; }
        bm=$(awk -v b="$b" -v y="$bcyc" 'BEGIN{printf "%.6f", b / y}')
        row "$name: BookSim 2" "$bcyc" "$b" "$bm"
    fi
    row "$name: saturn" "$scyc" "$s" "$bm"
    row "$name: $(basename "$4").c" $((2 * W)) "$l" "$bm"
    for variant in "${@:6}"; do
        lv=$(best "$REPS" "${variant%%:*}" "$load" $((2 * W)))
        grep -q "NOT ALL" "$tmp/out" && { cat "$tmp/out"; echo "$variant did not drain" >&2; exit 1; }
        row "$name: $(basename "$4").c ${variant#*:}" $((2 * W)) "$lv" "$bm"
        if awk "BEGIN{exit !($lv < $lbest)}"; then lbest=$lv; fi
    done
    awk -v n="$name" -v s="$s" -v sy="$scyc" -v l="$lbest" -v ly=$((2 * W)) 'BEGIN{
        printf "# %s: saturn / the fastest lean program: %.2fx\n", n, (s / sy) / (l / ly) }' \
        >>"$tmp/ratios"
}

echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "| program | cycles | CPU s | CPU ms/cycle | BookSim / it |"
echo "|---|---|---|---|---|"
: >"$tmp/ratios"
[ -z "$ONLY" ] || [ "$ONLY" = torus ] &&
    pair torus16_dor_0.13 torus_bs torus_sat "$tmp/lean_torus" 0.13 \
        "$tmp/lean_torus_registers:-DREGISTERS" \
        "$tmp/lean_torus_registers_split:-DREGISTERS -DSPLIT_PHASES"
[ -z "$ONLY" ] || [ "$ONLY" = dragonfly ] &&
    pair dragonfly1k_min_0.25 df_bs df_sat "$tmp/lean_dragonfly" 0.25
cat "$tmp/ratios"
