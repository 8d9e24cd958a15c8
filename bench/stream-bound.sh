#!/usr/bin/env bash
# How much of the matched pairs' work (bench/peers.sh) a packet-level engine
# could skip at most (issue 21, goal 1): builds saturn with the probe of
# bench/stream-bound.patch (never merged: it counts in the hot path) in a
# temporary git worktree of HEAD, runs the pairs and two variations, and
# prints for each
#   streamed: the crossings that continue a stream (the same input VC sent
#             the same packet's previous flit in the previous cycle): those a
#             packet-level engine could move as part of a whole packet;
#   steady:   the router-cycles with crossings whose crossings are all
#             streamed and those of the router's previous cycle: those it
#             could skip;
# and each as a bound on the speedup, 1 / (1 - fraction), which holds even if
# the skipped work cost nothing. Not a test.
#
# usage: bench/stream-bound.sh        env: W (warm-up = measured cycles, 10000)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
W=${W:-10000}
# shellcheck source=bench/pairs.sh
source "$here/pairs.sh"
tmp=$(mktemp -d)
cleanup() { git -C "$repo" worktree remove --force "$tmp/src" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
git -C "$repo" worktree add --detach "$tmp/src" HEAD >/dev/null 2>&1
git -C "$tmp/src" apply "$here/stream-bound.patch" ||
    { echo "bench/stream-bound.patch no longer applies to src/net/router.c: update it" >&2; exit 1; }
cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/build" -j "$(nproc)" --target saturn_cli >/dev/null
sat=$tmp/build/saturn

probe() { # name args...
    local name=$1 line
    shift
    line=$("$sat" run "$@" steady.warmup="$W" steady.measure="$W" steady.drain_max=100000 \
        -q 2>&1 >/dev/null | grep '^stream-bound:') ||
        { echo "$name: the probe printed nothing (not BookSim's router at speedup 1?)" >&2; exit 1; }
    awk -v n="$name" '{
        for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
        printf "| %s | %d | %.1f %% | %.2fx | %d | %.1f %% | %.2fx |\n", n, v["crossings"],
            100 * v["streamed"], 1 / (1 - v["streamed"]), v["with-crossings"],
            100 * v["steady"], 1 / (1 - v["steady"]) }' <<<"$line"
}

echo "| run | crossings | streamed | bound | router-cycles with crossings | steady | bound |"
echo "|---|---|---|---|---|---|---|"
probe torus16_dor_0.13 "${torus_sat[@]}"
probe "torus16_dor_0.13, 32-flit buffers (VCT)" "${torus_sat[@]}" router.buf_flits=32
probe torus16_dor_0.03 "${torus_sat[@]}" traffic.flit_rate=0.03
probe dragonfly1k_min_0.25 "${df_sat[@]}"
