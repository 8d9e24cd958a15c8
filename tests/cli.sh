#!/usr/bin/env bash
# The saturn command line: exit codes, error messages, output files.
# usage: cli.sh SATURN_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
. "$src/tests/cli_lib.sh"

small="network.k=4 steady.warmup=200 steady.measure=500"

check version 0 "$bin" --version
contains version "$tmp/out" "saturn 0.1.0"
check help 0 "$bin" --help
contains help "$tmp/out" "usage: saturn COMMAND"
check run-help 0 "$bin" run --help
contains run-help "$tmp/out" "--json PATH"
check curve-help 0 "$bin" curve --help
check no-command 2 "$bin"
check bad-command 2 "$bin" frobnicate
contains bad-command "$tmp/err" "unknown command 'frobnicate'"

check list 0 "$bin" config --list
contains list "$tmp/out" "router.vcs"
contains list "$tmp/out" "allowed: an integer in [1, 64]"
contains list "$tmp/out" "traffic.pattern"

# A run prints a readable summary and records the resolved configuration.
check run 0 "$bin" run $small --json "$tmp/r.json"
contains run "$tmp/out" "accepted load"
contains run "$tmp/out" "packet latency"
contains run "$tmp/out" "configuration (resolved)"
contains run "$tmp/out" "switching=wormhole"
contains run-json "$tmp/r.json" '"router.vcs":'
contains run-json "$tmp/r.json" '"accepted":'
contains run-json "$tmp/r.json" '"saturn":'
check quiet 0 "$bin" run $small -q
[ -s "$tmp/out" ] && { fail=$((fail + 1)); echo "FAIL quiet: printed output"; } || pass=$((pass + 1))

# Output paths are checked before the run: a directory, a missing folder or
# two outputs on one file are exit 2 at once, and nothing is written.
check out-dir 2 "$bin" run $small steady.measure=100000000 --json "$tmp"
contains out-dir "$tmp/err" "is a directory"
check out-missing 2 "$bin" run $small steady.measure=100000000 --series "$tmp/no/such.csv" --json "$tmp/ok.json"
contains out-missing "$tmp/err" "cannot write in '$tmp/no'"
[ -e "$tmp/ok.json" ] && { fail=$((fail + 1)); echo "FAIL out-missing: wrote ok.json"; } || pass=$((pass + 1))
check out-twice 2 "$bin" run $small --json "$tmp/x.json" --by-generation "$tmp/x.json"
contains out-twice "$tmp/err" "both write"

# Same seed, same record (but for the run's own time and memory).
"$bin" run $small sim.seed=5 --json "$tmp/a.json" -q
"$bin" run $small sim.seed=5 --json "$tmp/b.json" -q
if diff <(grep -v -e wall_seconds -e peak_rss "$tmp/a.json") <(grep -v -e wall_seconds -e peak_rss "$tmp/b.json") >/dev/null
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL determinism: records differ"; fi

# One network on several threads (sim.threads): the same record as on one.
thr="network.k=16 traffic.flit_rate=0.2 steady.warmup=300 steady.measure=300"
"$bin" run $thr sim.threads=1 --json "$tmp/t1.json" -q
check threads-run 0 "$bin" run $thr sim.threads=2 --json "$tmp/t2.json"
contains threads-run "$tmp/out" ", 2 threads"
if diff <(grep -v -e wall_seconds -e peak_rss -e '"threads"' -e sim.threads "$tmp/t1.json") \
        <(grep -v -e wall_seconds -e peak_rss -e '"threads"' -e sim.threads "$tmp/t2.json") >/dev/null
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL threads: 1 and 2 threads differ"; fi
check threads-range 2 "$bin" run sim.threads=0
contains threads-range "$tmp/err" "sim.threads = 0"

# Bad input: one clear message, exit 2, no output file.
check unknown-key 2 "$bin" run router.vsc=2 --json "$tmp/x.json"
contains unknown-key "$tmp/err" "did you mean 'router.vcs'"
check wrong-type 2 "$bin" run router.vcs=three --json "$tmp/x.json"
contains wrong-type "$tmp/err" "router.vcs = three: not an integer"
check out-of-range 2 "$bin" run router.vcs=0 --json "$tmp/x.json"
contains out-of-range "$tmp/err" "allowed: an integer in [1, 64]"
check bad-enum 2 "$bin" run traffic.pattern=zigzag
contains bad-enum "$tmp/err" "one of uniform|transpose"
check too-few-vcs 2 "$bin" run router.vcs=1 --json "$tmp/x.json"
contains too-few-vcs "$tmp/err" "deadlock-free"
check bit-pattern 2 "$bin" run network.k=6 traffic.pattern=bitrev
contains bit-pattern "$tmp/err" "power-of-two"
check both-rates 2 "$bin" run traffic.packet_rate=0.01 traffic.flit_rate=0.1
# Dragonfly: a routing without the VCs it needs, a torus routing, no output
df="--preset fuentes2015 dragonfly.p=2 dragonfly.a=4 dragonfly.h=2"
check df-vcs 2 "$bin" run $df routing.algorithm=val dragonfly.local_vcs=3 --json "$tmp/x.json"
contains df-vcs "$tmp/err" "dragonfly.local_vcs = 3"
contains df-vcs "$tmp/err" "at least 4 VCs on local ports"
[ -e "$tmp/x.json" ] && { fail=$((fail + 1)); echo "FAIL df-vcs: partial output"; }
check df-example 0 "$bin" run "$src/examples/dragonfly_ectn.ini" steady.warmup=500 steady.measure=500
contains df-example "$tmp/out" "ectn routing"
contains df-example "$tmp/out" "misrouted"
check df-run 0 "$bin" run $df steady.warmup=300 steady.measure=300
contains df-run "$tmp/out" "dragonfly p=2 a=4 h=2 (72 nodes, palmtree), min routing"
check df-dor 2 "$bin" run $df routing.algorithm=dor
contains df-dor "$tmp/err" "min, val, ugal, pb, olm, base, hybrid, ectn"
# ... and a transient (UN then ADV+1) by generation cycle
check df-transient 0 "$bin" run $df routing.algorithm=ectn sim.workload=phases \
    phases.list=600:0.03:uniform,400:0.03:adv phases.warmup=600 sim.generation_bin=100 \
    --by-generation "$tmp/gen.csv" -q
contains df-transient "$tmp/gen.csv" "generated,packets,latency,misrouted_global,misrouted_local"
contains df-transient "$tmp/gen.csv" "900,"
check not-kv 2 "$bin" run a.ini b.ini
check missing-file 2 "$bin" run "$tmp/nope.ini" --json "$tmp/x.json"
contains missing-file "$tmp/err" "cannot read"
printf '[router]\nvcs = 2\nbuf_flits = lots\n' >"$tmp/bad.ini"
check ini-error 2 "$bin" run "$tmp/bad.ini" --json "$tmp/x.json"
contains ini-error "$tmp/err" "bad.ini:3: router.buf_flits = lots"
printf '[router]\nvcs = 1\n' >"$tmp/combo.ini"
check ini-combination 2 "$bin" run "$tmp/combo.ini"
contains ini-combination "$tmp/err" "combo.ini:2: router.vcs = 1"
check bad-json-dir 2 "$bin" run $small --json "$tmp/no/such/dir/r.json"
[ -e "$tmp/x.json" ] && { fail=$((fail + 1)); echo "FAIL: an output file was left after bad input"; } || pass=$((pass + 1))
ls "$tmp" | grep -q tmp. && { fail=$((fail + 1)); echo "FAIL: temporary file left"; } || pass=$((pass + 1))

# Deadlock: exit 3 with the wait-for report.
check deadlock 3 "$bin" run network.k=8 network.n=1 router.vcs=1 routing.dateline=none \
    debug.allow_deadlock=true traffic.flit_rate=0.9 router.buf_flits=2 sim.watchdog=200 --json "$tmp/x.json"
contains deadlock "$tmp/err" "wait-for cycle"
[ -e "$tmp/x.json" ] && { fail=$((fail + 1)); echo "FAIL: deadlocked run wrote a record"; } || pass=$((pass + 1))

# Curve: a table, a CSV, the saturation throughput.
check curve 0 "$bin" curve network.k=4 steady.warmup=300 steady.measure=1500 curve.step=0.2 curve.refine=1 --csv "$tmp/c.csv"
contains curve "$tmp/out" "saturation throughput"
contains curve-csv "$tmp/c.csv" "rate,offered,accepted"
[ "$(wc -l <"$tmp/c.csv")" -ge 3 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL curve rows"; }

# Sweeps: parallel, resumable, the same file at any -j; bad specs write nothing.
cat >"$tmp/sw.ini" <<'EOF'
[network]
k = 4
[sim]
workload = collective
[collective]
packets = 3
[sweep]
router.vcs = 2:3
traffic.pattern = uniform, transpose
sim.seed = 1:2
[sweep buffers]
router.vcs = 3
router.buf_flits = 2, 4
traffic.pattern = uniform, transpose
[summary]
baseline = router.vcs=2
EOF
nowall() { sed 's/,[^,]*$//' "$1"; } # a CSV without its wall_seconds column
check sweep-help 0 "$bin" sweep --help
contains sweep-help "$tmp/out" "[sweep NAME]"
check sweep 0 "$bin" sweep "$tmp/sw.ini" --csv "$tmp/sw.csv" -j 2 --summary
contains sweep "$tmp/out" "sweep: 12 points run, 0 skipped"
contains sweep "$tmp/out" "average best"
contains sweep-csv "$tmp/sw.csv" "point,router.vcs,traffic.pattern,sim.seed,router.buf_flits,duration,"
contains sweep-summary "$tmp/sw.summary.csv" "group,kind,pattern,router.vcs,router.buf_flits,n,mean,std,speedup"
[ "$(wc -l <"$tmp/sw.csv")" = 13 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL sweep rows"; }
cp "$tmp/sw.csv" "$tmp/full.csv"
# Resume: the last 2 rows gone and a row cut short, as a kill leaves them.
head -n -2 "$tmp/full.csv" >"$tmp/sw.csv"
printf '%s' "$(tail -n 1 "$tmp/full.csv" | cut -c1-6)" >>"$tmp/sw.csv"
check sweep-resume 0 "$bin" sweep "$tmp/sw.ini" --csv "$tmp/sw.csv" -j 2
contains sweep-resume "$tmp/out" "sweep: 2 points run, 10 skipped"
diff <(nowall "$tmp/full.csv") <(nowall "$tmp/sw.csv") >/dev/null && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-resume: the resumed file differs"; }
check sweep-serial 0 "$bin" sweep "$tmp/sw.ini" --csv "$tmp/serial.csv" -j 1 -q
diff <(nowall "$tmp/full.csv") <(nowall "$tmp/serial.csv") >/dev/null && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-serial: -j 1 and -j 2 files differ"; }
check sweep-summarize 0 "$bin" sweep --summarize "$tmp/serial.csv" --baseline router.vcs=2
contains sweep-summarize "$tmp/out" "individual best"
printf '[sweep]\nrouter.vcs = 2\n' >"$tmp/other.ini"
check sweep-different 2 "$bin" sweep "$tmp/other.ini" --csv "$tmp/sw.csv"
contains sweep-different "$tmp/err" "written by a different sweep"
printf '[network]\nk = 4\n[sweep]\nrouter.vcs = 2, 3\ntraffic.pattern = uniform, zigzag\n' >"$tmp/swbad.ini"
check sweep-bad-value 2 "$bin" sweep "$tmp/swbad.ini" --csv "$tmp/y.csv"
contains sweep-bad-value "$tmp/err" "swbad.ini:5: traffic.pattern = zigzag"
printf '[network]\nk = 4\n[sweep]\nrouter.vcs = 1:2\n' >"$tmp/swcombo.ini"
check sweep-bad-combination 2 "$bin" sweep "$tmp/swcombo.ini" --csv "$tmp/y.csv"
contains sweep-bad-combination "$tmp/err" "swcombo.ini:4: router.vcs = 1: too few VCs"
[ -e "$tmp/y.csv" ] && { fail=$((fail + 1)); echo "FAIL: a bad sweep spec wrote a CSV"; } || pass=$((pass + 1))
check sweep-no-csv 2 "$bin" sweep "$tmp/sw.ini"
contains sweep-no-csv "$tmp/err" "--csv PATH is required"
# Copies started by a launcher without MPI would each run the whole sweep into
# one CSV: refused, one message (from rank 0), no file.
check sweep-copies 2 env SLURM_PROCID=0 SLURM_STEP_NUM_TASKS=2 "$bin" sweep "$tmp/sw.ini" --csv "$tmp/z.csv"
contains sweep-copies "$tmp/err" "several saturn sweep processes were started"
check sweep-copy-1 2 env SLURM_PROCID=1 SLURM_STEP_NUM_TASKS=2 "$bin" sweep "$tmp/sw.ini" --csv "$tmp/z.csv"
[ -s "$tmp/err" ] && { fail=$((fail + 1)); echo "FAIL sweep-copy-1: rank 1 printed"; } || pass=$((pass + 1))
[ -e "$tmp/z.csv" ] && { fail=$((fail + 1)); echo "FAIL: a refused sweep copy wrote a CSV"; } || pass=$((pass + 1))

# Shared runs (entropy thresholds) give the rows each point gives alone; the
# search keeps what the summary needs and its summary picks the same sets.
# paper 000's circuit on an 8x8 torus: noth, base and hyst grids on shfl and torn, seeds 1-4
cp "$src/tests/specs/collective-entropy-8x8.ini" "$tmp/ent.ini"
check sweep-shared 0 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/ent.csv" -j 2 --summary
contains sweep-shared "$tmp/out" "points shared another's run"
check sweep-no-share 0 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/ent1.csv" -j 2 --no-share -q
diff <(nowall "$tmp/ent.csv") <(nowall "$tmp/ent1.csv") >/dev/null && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-no-share: shared and lone runs differ"; }
# One unit of shared runs (one pattern and seed): with -j 2 the thread running
# it hands the followers that leave to the idle one (saturn_run_shared_split),
# and every row is still the point's own.
sed -e 's/^traffic.pattern = shfl, torn/traffic.pattern = shfl/' -e 's/^sim.seed = 1:4/sim.seed = 2/' \
    -e '/^\[sweep base\]/,/^sim.seed/d' -e '/^\[sweep noth\]/,/^sim.seed/d' \
    -e '/^\[summary\]/,$d' "$tmp/ent.ini" >"$tmp/unit.ini"
check sweep-unit-split 0 "$bin" sweep "$tmp/unit.ini" --csv "$tmp/unit2.csv" -j 2
contains sweep-unit-split "$tmp/out" "18 points run, 0 skipped (already in CSV)"
contains sweep-unit-split "$tmp/out" "2 workers"
check sweep-unit-serial 0 "$bin" sweep "$tmp/unit.ini" --csv "$tmp/unit1.csv" -j 1 -q
diff <(nowall "$tmp/unit1.csv") <(nowall "$tmp/unit2.csv") >/dev/null && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-unit-split: -j 1 and -j 2 rows differ"; }
check sweep-search 0 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/ents.csv" -j 2 --summary --search
contains sweep-search "$tmp/out" "search: "
diff "$tmp/ent.summary.csv" "$tmp/ents.summary.csv" >/dev/null && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-search: its summary differs from the whole sweep's"; }
[ "$(wc -l <"$tmp/ents.csv")" -lt "$(wc -l <"$tmp/ent.csv")" ] && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-search: kept every row"; }
# runs were cut off, and each reported bound (the cycle, or what its links still had to
# carry) is at most the run's duration in the whole sweep
grep -Eq "[1-9][0-9]* cut off" "$tmp/out" && awk -F, '
    NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) if ($i == "duration") c = i; next }
                d[$1] = $c; next }
    FNR > 1 { n++; if (!($1 in d) || $2 + 0 > d[$1] + 0) bad++ }
    END { exit !(n > 0 && !bad) }' "$tmp/ent.csv" "$tmp/ents.csv.cut.csv" && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-search: no cut-off, or a cut-off's bound above the duration"; }
check sweep-search-resume 0 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/ents.csv" -j 2 --summary --search
contains sweep-search-resume "$tmp/out" "0 cut off"
diff "$tmp/ent.summary.csv" "$tmp/ents.summary.csv" >/dev/null && pass=$((pass + 1)) ||
    { fail=$((fail + 1)); echo "FAIL sweep-search-resume: its summary differs"; }
check sweep-search-individual 0 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/enti.csv" -j 1 --search individual -q
check sweep-search-race-eq 0 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/entr.csv" -j 1 --search individual --race 2:3:0.05
contains sweep-search-race-eq "$tmp/out" "as the leader's equal (within 0.05 of its mean)"
check sweep-search-race-bad 2 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/x.csv" --search --race 4:10:1.5
contains sweep-search-race-bad "$tmp/err" "EQ in [0, 1)"
check sweep-search-bad 2 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/x.csv" --search best
contains sweep-search-bad "$tmp/err" "allowed: individual, average or both"
check sweep-search-metric 2 "$bin" sweep "$tmp/ent.ini" --csv "$tmp/x.csv" --search --metric accepted
contains sweep-search-metric "$tmp/err" "metric = duration"

# Every shipped example config is valid and runs (a sweep spec: every point is checked).
# Every shipped example config is valid and runs (a sweep spec: every point is checked),
# from the repository's root, which their graph and trace paths are relative to.
cd "$src" || exit 1
for f in "$src"/examples/*.ini; do
    case $(basename "$f") in
    sweep_*) check "example $(basename "$f")" 0 "$bin" sweep "$f" --dry-run -q ;;
    *) check "example $(basename "$f")" 0 "$bin" run "$f" steady.warmup=100 steady.measure=300 -q ;;
    esac
done
cd - >/dev/null || exit 1
# The resolved configuration loads back.
"$bin" config "$src/examples/default.ini" router.vcs=5 >"$tmp/resolved.ini"
check config-roundtrip 0 "$bin" config "$tmp/resolved.ini"
contains config-roundtrip "$tmp/out" "vcs = 5"

# Presets, analytic model, GA and cup-stacking from the command line.
check presets 0 "$bin" config --presets
contains presets "$tmp/out" "levitin2019"
# each name with its own help (the help pointer was read before the call set it)
contains presets "$tmp/out" "fuentes2015     paper 004"
contains presets "$tmp/out" "levitin2019     paper 002"
check bad-preset 2 "$bin" run --preset nope
contains bad-preset "$tmp/err" "unknown preset 'nope'"
check model 0 "$bin" model --preset levitin2019 traffic.distance=3
contains model "$tmp/out" "bound by the injection and ejection channels"
contains model "$tmp/out" "lambda_cr = 4/(l m) = 0.13333"
tiny="network.k=4 router.buf_flits=4 sim.workload=collective collective.packets=1 traffic.pattern=bitrev"
check ga-needs-schedule 2 "$bin" ga $tiny
check ga 0 "$bin" ga $tiny collective.payload=7 ga.generations=5 ga.genes=4 -j 2 --schedule "$tmp/s.csv"
contains ga "$tmp/out" "optimised"
[ "$(wc -l <"$tmp/s.csv")" = 17 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL ga schedule lines"; }
check cupstack 0 "$bin" cupstack $tiny collective.payload=14 collective.slices=2 collective.schedule="$tmp/s.csv" --csv "$tmp/cs.csv"
contains cupstack "$tmp/out" "T_e (s - 1) + t_d"
contains cupstack-csv "$tmp/cs.csv" "interval,duration,thickness"
check chart 0 "$bin" run $tiny collective.payload=14 collective.slices=2 --chart "$tmp/c.png" --links "$tmp/l.csv" -q
[ -s "$tmp/c.png" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL chart file"; }
contains links "$tmp/l.csv" "router,port,first,last,busy,occupation"
check chart-steady 2 "$bin" run network.k=4 steady.warmup=100 steady.measure=200 --chart "$tmp/no.png"
[ -e "$tmp/no.png" ] && { fail=$((fail + 1)); echo "FAIL: chart file left after an error"; } || pass=$((pass + 1))

# Combinations refused after review: packet order without unbounded output
# buffers (it can deadlock), slices without payload, cupstack on many packets.
check packet-order 2 "$bin" run router.output_order=packet
contains packet-order "$tmp/err" "needs router.out_buf_unlimited = true"
check empty-slices 2 "$bin" run $tiny collective.payload=3 collective.slices=4
contains empty-slices "$tmp/err" "collective.slices = 4"
check cupstack-packets 2 "$bin" cupstack $tiny collective.packets=2 collective.payload=8 collective.slices=2
check bad-jobs 2 "$bin" ga $tiny -j abc --schedule "$tmp/s2.csv"
# an undefined packet entropy is null in JSON, n/a in the summary
check entropy-null 0 "$bin" run --preset levitin2019 network.k=4 traffic.packet_rate=0.02 steady.warmup=200 --json "$tmp/e.json"
contains entropy-null "$tmp/out" "packet entropy E n/a"
grep -qE '"entropy_mean":[[:space:]]*null' "$tmp/e.json" && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL entropy null in JSON"; }

# docs/CONFIG.md is the registry as it is (scripts/gen-config-doc.sh regenerates it).
"$bin" config --list >"$tmp/list"
if diff <(sed -n '/^```$/,/^```$/p' "$src/docs/CONFIG.md" | sed '1d;$d') "$tmp/list" >/dev/null
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: docs/CONFIG.md is stale (run scripts/gen-config-doc.sh)"; fi

# README's promises about files. 1. Every output path is checked before the
# simulation starts (a run that long would time out here): exit 2 at once.
long="network.k=4 steady.measure=100000000"
coll="network.k=4 sim.workload=collective collective.packets=1 collective.max_cycles=100000000"
for o in --json --series --by-generation; do
    check "path-first run $o" 2 timeout 20 "$bin" run $long $o "$tmp/none/x"
done
for o in --links --chart; do
    check "path-first run $o" 2 timeout 20 "$bin" run $coll $o "$tmp/none/x"
done
check "path-first curve" 2 timeout 20 "$bin" curve $long --csv "$tmp/none/x"
check "path-first cupstack" 2 timeout 20 "$bin" cupstack $coll collective.payload=8 collective.slices=2 --csv "$tmp/none/x"
check "path-first ga --schedule" 2 timeout 20 "$bin" ga $coll --schedule "$tmp/none/x"
check "path-first ga --json" 2 timeout 20 "$bin" ga $coll --schedule "$tmp/s3.csv" --json "$tmp/none/x"
check "path-first ga same" 2 timeout 20 "$bin" ga $coll --schedule "$tmp/s3.csv" --json "$tmp/s3.csv"
check "path-first sweep" 2 timeout 20 "$bin" sweep "$tmp/sw.ini" --csv "$tmp/none/x"
# an output path may hold '=' (it is not an override)
check path-equals 0 "$bin" run $small --by-generation "$tmp/g=1.csv" --series "$tmp/s=1.csv" -q
[ -s "$tmp/g=1.csv" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL path-equals"; }
check "links-steady" 2 "$bin" run $small --links "$tmp/l2.csv"
contains links-steady "$tmp/err" "--links records a collective's links"
# 2. A run that fails after the simulation writes none of its outputs: the
# chart is too wide (1,024 links x 64 pixels) once the rest is ready.
rm -rf "$tmp/fail" && mkdir "$tmp/fail"
check fail-none 2 "$bin" run network.k=16 sim.workload=collective collective.packets=1 --chart-scale 64 \
    --chart "$tmp/fail/c.png" --links "$tmp/fail/l.csv" --series "$tmp/fail/s.csv" \
    --by-generation "$tmp/fail/g.csv" --json "$tmp/fail/r.json"
contains fail-none "$tmp/err" "$tmp/fail/c.png: chart would be 65536 pixels wide"
[ -z "$(ls -A "$tmp/fail")" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL fail-none: left $(ls "$tmp/fail")"; }
check fail-deadlock 3 "$bin" run network.k=8 network.n=1 router.vcs=1 routing.dateline=none \
    debug.allow_deadlock=true traffic.flit_rate=0.9 router.buf_flits=2 sim.watchdog=200 \
    --series "$tmp/fail/s.csv" --by-generation "$tmp/fail/g.csv" --json "$tmp/fail/r.json"
check fail-ga 2 "$bin" ga $tiny collective.max_cycles=5 --schedule "$tmp/fail/s.csv" --json "$tmp/fail/r.json"
check fail-curve 3 "$bin" curve network.k=8 network.n=1 router.vcs=1 routing.dateline=none \
    debug.allow_deadlock=true router.buf_flits=2 sim.watchdog=200 curve.from=0.9 --csv "$tmp/fail/c.csv"
[ -z "$(ls -A "$tmp/fail")" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL fail-none: left $(ls "$tmp/fail")"; }
# 3. Every file saturn writes honours the umask (mkstemp alone makes 0600).
for m in 022:644 027:640 002:664; do
    rm -rf "$tmp/um" && mkdir "$tmp/um"
    (
        umask "${m%%:*}"
        "$bin" run $tiny collective.payload=14 collective.slices=2 --chart "$tmp/um/c.png" \
            --links "$tmp/um/l.csv" --series "$tmp/um/s.csv" --by-generation "$tmp/um/g.csv" \
            --json "$tmp/um/r.json" -q
        "$bin" curve network.k=4 steady.warmup=100 steady.measure=300 curve.step=0.5 --csv "$tmp/um/curve.csv" -q
        "$bin" ga $tiny collective.payload=7 ga.generations=2 ga.genes=4 -j 1 --schedule "$tmp/um/ga.csv" \
            --json "$tmp/um/ga.json" -q
        "$bin" cupstack $tiny collective.payload=4 collective.slices=2 cupstack.max_interval=2 -j 1 \
            --csv "$tmp/um/cup.csv" -q
        "$bin" sweep "$tmp/sw.ini" --csv "$tmp/um/sw.csv" -j 2 -q --summary
    ) >/dev/null 2>&1
    modes=$(stat -c '%n %a' "$tmp"/um/* | sed "s|$tmp/um/||" | sort | tr '\n' ' ')
    want=$(for f in c.png cup.csv curve.csv g.csv ga.csv ga.json l.csv r.json s.csv sw.csv sw.summary.csv; do
        printf '%s %s ' "$f" "${m##*:}"; done)
    [ "$modes" = "$want" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL umask ${m%%:*}: $modes"; }
done
# 4. A line saturn cannot read is an error naming the file and the line;
# a NUL byte is one too; lines end with \n, \r\n or a lone \r.
for t in 'bare:[router]\nvcs 3\n:bad.ini:2' 'section:[router\nvcs = 3\n:bad.ini:1' \
         'cr:[router]\rvcs = 2\rbuf_flits = lots\r:bad.ini:3' 'nul:[router]\nvcs = 2\000\n:bad.ini:2'; do
    IFS=: read -r name text where <<<"$t"
    printf "$text" >"$tmp/bad.ini"
    check "ini-$name" 2 "$bin" run "$tmp/bad.ini"
    contains "ini-$name" "$tmp/err" "$where: "
done
printf '[network]\nk = 4\n[sweep]\nrouter.vcs = 2,\0003\n' >"$tmp/swnul.ini"
check sweep-nul 2 "$bin" sweep "$tmp/swnul.ini" --dry-run
contains sweep-nul "$tmp/err" "swnul.ini:4: syntax error: a NUL byte"
for t in 'cr:0,5\r1,7\r2,x\r:s.csv:3' 'nul:0,5\n1,\0007\n:s.csv:2' \
         "long:0,5$(printf ' %.0s' {1..300})\n9,x\n:s.csv:2"; do
    IFS=: read -r name text a b <<<"$t"
    printf "$text" >"$tmp/s.csv"
    check "schedule-$name" 2 "$bin" run $tiny collective.schedule="$tmp/s.csv"
    contains "schedule-$name" "$tmp/err" "$a:$b: "
done
printf '# %0400d\r0,5\r1,7\r' 0 >"$tmp/s.csv" # a long comment, lone carriage returns: fine
check schedule-ok 0 "$bin" run $tiny collective.schedule="$tmp/s.csv" -q
# 5. A configuration beyond the machine's memory is refused up front, with
# its estimate, unless sim.memory_check = false (ulimit -v: the limit).
# (Not under AddressSanitizer: its shadow memory needs more than the limit.)
if ! ldd "$bin" 2>/dev/null | grep -q libasan; then
    check memory-refused 2 bash -c "ulimit -v 300000; exec \"$bin\" run network.k=256 router.buf_flits=4096 --json \"$tmp/m.json\""
    contains memory-refused "$tmp/err" "error: memory: this configuration's estimate is 64 GiB (buffers 30 GiB"
    contains memory-refused "$tmp/err" "ulimit -v"
    [ -e "$tmp/m.json" ] && { fail=$((fail + 1)); echo "FAIL memory-refused wrote a record"; } || pass=$((pass + 1))
    # the estimate counts full source queues; a light load never fills them
    q="network.k=4 traffic.source_queue=1000000 steady.warmup=10 steady.measure=10"
    check memory-queues 2 bash -c "ulimit -v 300000; exec \"$bin\" run $q"
    check memory-forced 0 bash -c "ulimit -v 300000; exec \"$bin\" run $q sim.memory_check=false -q"
    printf '[network]\nk = 4\n[traffic]\nsource_queue = 1000000\n[sweep]\nrouter.vcs = 2, 3\n' >"$tmp/swmem.ini"
    check memory-sweep 2 bash -c "ulimit -v 300000; exec \"$bin\" sweep \"$tmp/swmem.ini\" --csv \"$tmp/swmem.csv\" -j 1"
    contains memory-sweep "$tmp/err" "sweep point 0 (router.vcs=2): memory: "
fi
# a 2^30-router torus: refused on any machine, before anything is built
check memory-huge 2 "$bin" run network.k=1024 network.n=3 --json "$tmp/m.json"
contains memory-huge "$tmp/err" "error: memory: this configuration's estimate is"
check memory-model 0 "$bin" model network.k=4
contains memory-model "$tmp/out" "memory estimate: "

# saturn selftest classifies what its children do: fake saturns that crash,
# hang, deadlock, fail an audit, refuse cleanly or not, or differ by thread count.
fake() { # name, shell body (sees $json and $series, the output paths)
    printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in --json) json=$2;; --series) series=$2;; --by-generation) gen=$2;; esac; shift; done\n%s\n' "$2" >"$tmp/$1"
    chmod +x "$tmp/$1"
}
fake crash 'kill -SEGV $$'
fake hang 'sleep 20'
fake deadlock 'echo "saturn: error: cycle 9: wait-for cycle" >&2; exit 3'
fake audit 'echo "saturn: error: internal error at cycle 3: credits" >&2; exit 1'
fake refuse 'echo "saturn: error: command line: router.vcs = 1: too few" >&2; exit 2'
fake messy 'echo "saturn: error: one" >&2; echo "two" >&2; exit 2'
fake partial 'echo "{}" >"$json"; echo "saturn: error: late" >&2; exit 2'
fake asan 'echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >&2; exit 1'
fake differ 'echo "{\"pid\": $$}" >"$json"; : >"$series"; : >"$gen"'
fake good 'echo "{}" >"$json"; : >"$series"; : >"$gen"'
fake nogen 'echo "{}" >"$json"; : >"$series"'
for f in crash:crash hang:hang deadlock:watchdog audit:invariant messy:error partial:error asan:crash nogen:error; do
    check "selftest-${f%%:*}" 1 "$bin" selftest --random 2 --seed 1 --timeout 1 --exec "$tmp/${f%%:*}"
    contains "selftest-${f%%:*}" "$tmp/out" "selftest: case 0 ${f##*:}"
    contains "selftest-${f%%:*}" "$tmp/out" "selftest: 2 failures"
done
check selftest-refuse 0 "$bin" selftest --random 2 --exec "$tmp/refuse"
contains selftest-refuse "$tmp/out" "ok 0, rejected 2,"
check selftest-good 0 "$bin" selftest --random 20 --exec "$tmp/good"
contains selftest-good "$tmp/out" "ok 20, rejected 0,"
check selftest-differ 1 "$bin" selftest --random 20 --exec "$tmp/differ"
grep -qE "outcomes: ok [0-9]+, rejected 0, watchdog 0, crash 0, hang 0, invariant 0, mismatch [1-9]" "$tmp/out" &&
    pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL selftest-differ: no mismatch counted"; cat "$tmp/out"; }
check selftest-no-n 2 "$bin" selftest --seed 1
contains selftest-no-n "$tmp/err" "selftest needs --random N"
mkdir "$tmp/scratch"
TMPDIR="$tmp/scratch" "$bin" selftest --random 3 --exec "$tmp/good" >/dev/null
[ -z "$(ls -A "$tmp/scratch")" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL selftest left files"; }

# Found by saturn selftest (regressions): metapackets with unlimited buffers
# for controllers that do not count full buffers (gather.full was demanded,
# and refused as not theirs); VCT buffers sized for a sliced collective's
# packets, not traffic.packet_length (too-long packets never moved: the run
# spun to collective.max_cycles).
for m in noth alo hyst; do
    check "meta-unlimited-$m" 0 "$bin" run network.k=4 router.switching=unlimited router.buf_flits=0 \
        gather.mode=metapacket control.model=$m steady.warmup=100 steady.measure=200 -q
done
check meta-unlimited-static 2 "$bin" run network.k=4 router.switching=unlimited router.buf_flits=0 \
    gather.mode=metapacket control.model=static
contains meta-unlimited-static "$tmp/err" "use gather.full = nonempty"
check vct-slices-long 2 "$bin" run network.k=4 router.switching=vct router.buf_flits=8 \
    sim.workload=collective collective.packets=1 collective.payload=30
contains vct-slices-long "$tmp/err" "at least floor(collective.payload / collective.slices) + 1 = 31 flits"
check vct-slices-short 0 "$bin" run network.k=4 router.switching=vct router.buf_flits=6 \
    sim.workload=collective collective.packets=1 collective.payload=2 -q
# a preset's value is named without a line number ("preset NAME:0" before)
check preset-origin 2 "$bin" run $df sim.workload=collective collective.payload=20 collective.slices=2
contains preset-origin "$tmp/err" "error: preset fuentes2015: traffic.packet_length = 8: is set by"
check vct-slices-df-global 2 "$bin" run $df router.switching=vct router.buf_flits=16 dragonfly.global_buf_flits=8 \
    sim.workload=collective collective.payload=20 collective.slices=2
contains vct-slices-df-global "$tmp/err" "dragonfly.global_buf_flits = 8"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
