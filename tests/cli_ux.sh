#!/usr/bin/env bash
# A new user's first hour on the command line (issue 19): progress on
# stderr only, a summary that fits a screen, warnings for repeated keys,
# help and error texts that name everything, output paths checked first.
# usage: cli_ux.sh SATURN_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/tests/cli_lib.sh"

# 16 routers: a progress report every 16,384 cycles
small="network.k=4 steady.warmup=20000 steady.measure=20000"

# Progress: forced plain lines on stderr, the same stdout (but the timing
# line) and the same JSON as without; -q and --no-progress print none.
check progress 0 "$bin" run $small --progress=plain --json "$tmp/p.json"
contains progress "$tmp/err" "saturn: steady warm-up"
contains progress "$tmp/err" "/40,000 cycles"
contains progress "$tmp/err" "steady: done in"
grep -v -e '^simulator:' "$tmp/out" >"$tmp/with"
lacks progress-stdout "$tmp/out" "ETA"
check no-progress 0 "$bin" run $small --json "$tmp/q.json"
grep -v -e '^simulator:' "$tmp/out" >"$tmp/without"
# a run shorter than the first plain line's 5 s prints nothing on stderr
# (the run above may take longer on a loaded machine, under the sanitizers)
check short-run 0 "$bin" run network.k=4 steady.warmup=500 steady.measure=500
[ -s "$tmp/err" ] && { fail=$((fail + 1)); echo "FAIL short-run: stderr not empty"; cat "$tmp/err"; } || pass=$((pass + 1))
same progress-same-stdout "$tmp/with" "$tmp/without"
same progress-same-json <(grep -v -e wall_seconds -e peak_rss "$tmp/p.json") \
                        <(grep -v -e wall_seconds -e peak_rss "$tmp/q.json")
check progress-quiet 0 "$bin" run $small --no-progress
[ -s "$tmp/err" ] && { fail=$((fail + 1)); echo "FAIL --no-progress printed"; } || pass=$((pass + 1))
check progress-q 0 "$bin" run $small -q
[ -s "$tmp/err$tmp/out" ] && { fail=$((fail + 1)); echo "FAIL -q printed"; } || pass=$((pass + 1))
check progress-live 0 "$bin" run $small --progress=live
contains progress-live "$tmp/err" $'\r'
lacks progress-live "$tmp/err" "done in"
check progress-collective 0 "$bin" run network.k=4 sim.workload=collective collective.packets=3000 --progress=plain
contains progress-collective "$tmp/err" "collective  "
contains progress-collective "$tmp/err" "/48,000 packets"
check progress-curve 0 "$bin" curve network.k=4 steady.warmup=16500 steady.measure=100 curve.from=0.1 curve.to=0.2 curve.step=0.1 --progress=plain
contains progress-curve "$tmp/err" "curve point 1 of at most 5, load 0.1: steady warm-up"
contains progress-curve "$tmp/err" "curve: done in"
check progress-ga 0 "$bin" ga network.k=4 sim.workload=collective collective.packets=1 ga.generations=3 ga.genes=4 --schedule "$tmp/s.csv" --progress=plain -j 1
contains progress-ga "$tmp/err" "generations"
contains progress-ga "$tmp/err" "ga: done in"
check progress-sweep 0 "$bin" sweep "$src/examples/sweep_vcs.ini" network.k=4 collective.packets=1 --csv "$tmp/sw.csv" --progress=plain -j 1
contains progress-sweep "$tmp/err" "sweep: done in"

# The shell experiments' steps and the option they give saturn
# (experiments/common/progress.sh); SATURN_PROGRESS=off silences both.
(. "$src/experiments/common/progress.sh"; step exp 2 "first"; step exp 2 "second"; echo "$prog") >"$tmp/out" 2>"$tmp/err"
contains exp-step "$tmp/err" "exp: step 2 of 2: second (elapsed 0m0"
contains exp-prog "$tmp/out" "--progress"
(SATURN_PROGRESS=off; . "$src/experiments/common/progress.sh"; step exp 1 "x"; echo "$prog") >"$tmp/out" 2>"$tmp/err"
contains exp-prog-off "$tmp/out" "--no-progress"
[ -s "$tmp/err" ] && { fail=$((fail + 1)); echo "FAIL exp-step-off printed"; } || pass=$((pass + 1))

# The summary fits a screen: a torus under DOR shows no Dragonfly, ECtN,
# entropy-throttling or other workloads' keys; --verbose shows them all.
check summary 0 "$bin" run network.k=4 steady.warmup=200 steady.measure=300
contains summary "$tmp/out" "[steady] warmup=200"
lacks summary "$tmp/out" "[dragonfly]"
lacks summary "$tmp/out" "[ectn]"
lacks summary "$tmp/out" "[collective]"
lacks summary "$tmp/out" "rth="
contains summary "$tmp/out" "not shown: --verbose or saturn config"
lines=$(sed -n '/^configuration (resolved)/,$p' "$tmp/out" | wc -l)
[ "$lines" -le 16 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL summary: $lines lines of configuration"; }
check summary-verbose 0 "$bin" run network.k=4 steady.warmup=200 steady.measure=300 --verbose
contains summary-verbose "$tmp/out" "[ectn]"
[ "$(grep -c '^  \[dragonfly\]' "$tmp/out")" = 1 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL verbose: [dragonfly] not once"; }
check summary-unused 0 "$bin" run network.k=4 steady.warmup=200 steady.measure=300 dragonfly.a=3
contains summary-unused "$tmp/out" "[dragonfly] a=3 (unused)"

# A key given twice: a warning naming both and the winner.
printf '[network]\nk = 4\nk = 6\n[steady]\nwarmup = 100\nmeasure = 200\n' >"$tmp/dup.ini"
check dup-file 0 "$bin" run "$tmp/dup.ini"
contains dup-file "$tmp/err" "saturn: warning: $tmp/dup.ini:3: network.k is given again (first at line 2, = 4); the later line wins: network.k = 6"
check dup-arg 0 "$bin" run "$tmp/dup.ini" router.vcs=4 router.vcs=3
contains dup-arg "$tmp/err" "command line: router.vcs is given twice (router.vcs=4, then router.vcs=3); the last wins: router.vcs = 3"

# Help and errors name everything.
check presets 0 "$bin" config --presets
lacks presets "$tmp/out" "(null)"
contains presets "$tmp/out" "levitin2019"
grep '^levitin2019' "$tmp/out" | grep -q 'Levitin' && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL presets: levitin2019's line is not its help"; cat "$tmp/out"; }
check run-help 0 "$bin" run --help
for w in steady collective ramp phases; do contains run-help-$w "$tmp/out" "$w ("; done
check bad-command 2 "$bin" frobnicate
for c in run curve sweep model ga cupstack selftest config; do contains bad-command-$c "$tmp/err" " $c"; done
check did-you-mean 2 "$bin" run foo.bar=1
lacks did-you-mean "$tmp/err" "did you mean"
check did-you-mean-near 2 "$bin" run router.vc=1
contains did-you-mean-near "$tmp/err" "did you mean 'router.vcs'?"

# mpirun's needs on this machine, before it refuses (as root: a flag; more
# ranks than cores: another).
check sweep-help 0 "$bin" sweep --help
if grep -q "This saturn has MPI" "$tmp/out"; then
    contains mpi-hint "$tmp/out" "--oversubscribe -n $(($(nproc) + 1)) saturn sweep"
    if [ "$(id -u)" = 0 ]; then contains mpi-root "$tmp/out" "mpirun --allow-run-as-root"
    else lacks mpi-root "$tmp/out" "--allow-run-as-root"; fi
fi

# A drain of 0 cycles: the verdict says why, without "0 cycles after".
check drain0 0 "$bin" run network.k=4 steady.warmup=200 steady.measure=300 steady.drain_max=0
contains drain0 "$tmp/out" "steady.drain_max = 0 waits for none"
lacks drain0 "$tmp/out" "0 cycles after"

# Output paths and what they need, checked before the run (a run of
# 10^8 cycles would not end within the test): a folder that is missing, a
# format unknown, gnuplot missing, an output the command does not write.
long="network.k=4 steady.measure=100000000"
check curve-plot-dir 2 "$bin" curve $long --plot "$tmp/no/such/c.png" --csv "$tmp/c.csv"
contains curve-plot-dir "$tmp/err" "--plot '$tmp/no/such/c.png': cannot write in"
[ -e "$tmp/c.csv" ] && { fail=$((fail + 1)); echo "FAIL curve-plot-dir wrote the CSV"; } || pass=$((pass + 1))
check curve-plot-ext 2 "$bin" curve $long --plot "$tmp/c.gif"
contains curve-plot-ext "$tmp/err" "give a .png, .svg or .pdf file"
check curve-no-gnuplot 2 env PATH=/nonexistent "$bin" curve $long --plot "$tmp/c.png"
contains curve-no-gnuplot "$tmp/err" "gnuplot is not installed"
contains curve-no-gnuplot "$tmp/err" "gnuplot-nox"
check sweep-csv-dir 2 "$bin" sweep "$src/examples/sweep_vcs.ini" --csv "$tmp/no/such/s.csv"
contains sweep-csv-dir "$tmp/err" "--csv '$tmp/no/such/s.csv': cannot write in"
mkdir "$tmp/sum.summary.csv"
check sweep-summary-dir 2 "$bin" sweep "$src/examples/sweep_vcs.ini" --csv "$tmp/sum.csv" --summary
contains sweep-summary-dir "$tmp/err" "is a directory"
[ -e "$tmp/sum.csv" ] && { fail=$((fail + 1)); echo "FAIL sweep-summary-dir ran"; } || pass=$((pass + 1))
check sweep-plot-ext 2 "$bin" sweep "$src/examples/sweep_vcs.ini" --csv "$tmp/sp.csv" --plot "$tmp/sp.txt"
check run-plot-alone 2 "$bin" run $long --plot "$tmp/r.png"
contains run-plot-alone "$tmp/err" "give --series PATH too"
check run-chart-steady 2 "$bin" run $long --chart "$tmp/r.png"
contains run-chart-steady "$tmp/err" "--chart records a collective's links"
check run-chart-ext 2 "$bin" run $long sim.workload=collective --chart "$tmp/r.gif"
contains run-chart-ext "$tmp/err" "give a .png or .svg file"
check model-json 2 "$bin" model --json "$tmp/m.json"
contains model-json "$tmp/err" "--json: saturn model writes no such file"
check cupstack-json 2 "$bin" cupstack --json "$tmp/m.json"
check ga-series 2 "$bin" ga --series "$tmp/m.csv" --schedule "$tmp/g.csv"
check curve-chart 2 "$bin" curve --chart "$tmp/c.png"
check ga-schedule-dir 2 "$bin" ga network.k=4 sim.workload=collective collective.packets=1 ga.generations=100000 --schedule "$tmp/no/such/s.csv"
contains ga-schedule-dir "$tmp/err" "--schedule '$tmp/no/such/s.csv': cannot write in"
mkdir -p "$tmp/a=b"
check value-with-equals 0 "$bin" run network.k=4 steady.warmup=100 steady.measure=100 --by-generation "$tmp/a=b/g.csv" -q
[ -s "$tmp/a=b/g.csv" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: --by-generation PATH with '='"; }

# Figures: a curve, a sweep and a series with gnuplot, link charts with
# cairo (PNG and SVG); each a file of its format.
png() { # name, file: a PNG image
    if [ "$(head -c 8 "$2" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
        pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1: $2 is not a PNG"; fi
}
if command -v gnuplot >/dev/null; then
    check curve-plot 0 "$bin" curve network.k=4 steady.warmup=300 steady.measure=600 curve.step=0.1 --plot "$tmp/curve.png" --csv "$tmp/curve.csv" -q
    png curve-plot "$tmp/curve.png"
    check curve-plot-svg 0 "$bin" curve network.k=4 steady.warmup=300 steady.measure=600 curve.step=0.2 --plot "$tmp/curve.svg" -q
    contains curve-plot-svg "$tmp/curve.svg" "<svg"
    check sweep-plot 0 "$bin" sweep "$src/examples/sweep_vcs.ini" network.k=4 collective.packets=1 --csv "$tmp/sw2.csv" --plot "$tmp/sweep.png" -q -j 2
    png sweep-plot "$tmp/sweep.png"
    check series-plot 0 "$bin" run network.k=4 steady.warmup=300 steady.measure=600 sim.series_interval=50 --series "$tmp/series.csv" --plot "$tmp/series.png" -q
    png series-plot "$tmp/series.png"
    check plot-curve-sh 0 bash "$src/scripts/plot-curve.sh" "$tmp/curves.png" "$tmp/curve.csv"
    png plot-curve-sh "$tmp/curves.png"
    ls "$tmp" | grep -q '\.tmp\.' && { fail=$((fail + 1)); echo "FAIL: a temporary figure left"; } || pass=$((pass + 1))
else
    echo "gnuplot missing: figure tests skipped"
fi
# gnuplot failing: neither the figure nor the outputs staged with it
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\ncat >/dev/null\necho "fake gnuplot: refused" >&2\nexit 1\n' >"$tmp/fakebin/gnuplot"
chmod +x "$tmp/fakebin/gnuplot"
check plot-fails-curve 1 env PATH="$tmp/fakebin:$PATH" "$bin" curve network.k=4 steady.warmup=300 steady.measure=600 curve.step=0.2 --plot "$tmp/f.png" --csv "$tmp/f.csv" -q
contains plot-fails-curve "$tmp/err" "gnuplot failed"
check plot-fails-run 1 env PATH="$tmp/fakebin:$PATH" "$bin" run network.k=4 steady.warmup=300 steady.measure=600 --series "$tmp/fs.csv" --plot "$tmp/fs.png" --json "$tmp/fs.json" -q
for f in f.png f.csv fs.csv fs.png fs.json; do
    [ -e "$tmp/$f" ] && { fail=$((fail + 1)); echo "FAIL plot-fails: $f written"; } || pass=$((pass + 1))
done
ls "$tmp" | grep -q '\.tmp\.' && { fail=$((fail + 1)); echo "FAIL plot-fails: a temporary file left"; } || pass=$((pass + 1))
tiny="network.k=4 router.buf_flits=4 routing.dateline=cumulative sim.workload=collective collective.packets=1 traffic.pattern=brev"
check chart-png 0 "$bin" run $tiny collective.payload=8 collective.slices=2 collective.interval=10 --chart "$tmp/chart.png" -q
png chart-png "$tmp/chart.png"
check chart-svg 0 "$bin" run $tiny collective.payload=8 collective.slices=2 collective.interval=10 --chart "$tmp/chart.svg" -q
contains chart-svg "$tmp/chart.svg" "<svg"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
