#!/usr/bin/env bash
# Latency-throughput plot of one or more `saturn curve --csv` files (gnuplot):
# a colour per file, a line through its points in offered-load order,
# stable points filled and saturated ones hollow (the CSV's saturated
# column). One curve alone: `saturn curve ... --plot OUT.png` draws it.
# usage: scripts/plot-curve.sh OUT.png|OUT.svg CURVE.csv [CURVE2.csv ...]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OUT.png|OUT.svg CURVE.csv [CURVE.csv ...]" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "gnuplot is missing: apt-get install gnuplot-nox (or bash scripts/deps.sh)" >&2; exit 2; }
out=$1
shift
case "$out" in
    *.png) term="pngcairo size 1000,700 noenhanced font 'DejaVu Sans,11'" ;;
    *.svg) term="svg size 1000,700 noenhanced font 'DejaVu Sans,11' background '#ffffff'" ;;
    *) echo "$out: give a .png or .svg file" >&2; exit 2 ;;
esac
plots="" i=0
for f in "$@"; do
    [ -r "$f" ] || { echo "cannot read $f" >&2; exit 2; }
    head -1 "$f" | grep -q '^rate,offered,accepted,latency_mean,.*,saturated,' ||
        { echo "$f: not a saturn curve CSV" >&2; exit 2; }
    i=$((i + 1))
    t=$(basename "$f" .csv)
    d="'< tail -n +2 \"$f\" | sort -t, -k2 -g'"  # rows by offered load
    # columns: 3 accepted, 4 mean latency, 11 saturated (0/1)
    plots+="${plots:+, }$d using 3:4 with lines lc $i lw 1.5 notitle"
    plots+=", $d using 3:(\$11 == 0 ? \$4 : 1/0) with points lc $i pt 7 ps 1.3 title '$t'"
    plots+=", $d using 3:(\$11 == 1 ? \$4 : 1/0) with points lc $i pt 6 ps 1.6 lw 1.5 notitle"
done
gnuplot <<GP
set terminal $term
set output '$out'
set datafile separator ','
set key top left box opaque Left reverse spacing 1.2
set xlabel 'accepted load (flits/node/cycle)'
set ylabel 'mean packet latency (cycles)'
set logscale y
set xrange [0:*]
set grid xtics ytics mytics back lc rgb '#dddddd'
plot $plots, NaN with points lc rgb '#303030' pt 6 ps 1.5 title 'hollow: saturated'
GP
echo "wrote $out"
