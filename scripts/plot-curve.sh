#!/usr/bin/env bash
# Latency-throughput plot of one or more `saturn curve --csv` files (gnuplot).
# usage: scripts/plot-curve.sh OUT.png CURVE.csv [CURVE2.csv ...]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT.png CURVE.csv [CURVE.csv ...]" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gnuplot is missing: apt-get install gnuplot-nox" >&2; exit 2; }
out=$1
shift
plots=""
for f in "$@"; do
    [ -r "$f" ] || { echo "cannot read $f" >&2; exit 2; }
    t=$(basename "$f" .csv)
    # rows sorted by offered load; saturated points drawn hollow
    plots+="${plots:+, }'< (head -1 \"$f\"; tail -n +2 \"$f\" | sort -t, -k2 -g)' using 3:4 with linespoints title '$t'"
done
gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set output '$out'
set datafile separator ','
set key top left
set xlabel 'accepted load (flits/node/cycle)'
set ylabel 'mean packet latency (cycles)'
set logscale y
set grid
plot $plots
GP
echo "wrote $out"
