#!/usr/bin/env bash
# saturn sweep over MPI: at 2 and 3 ranks the CSV is the one a single process
# writes (but for wall_seconds); a partial file, a killed job and a killed
# worker rank are completed by rerunning the same command; a bad spec exits 2
# with one message and no CSV. Registered only when CMake found MPI.
# usage: mpi_sweep.sh SATURN_BINARY SOURCE_DIR [MPIEXEC]
set -u
bin=$1
mpiexec=${3:-mpirun}
# Open MPI refuses root without these (CI runs as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Under the sanitizers, MPI ranks skip leak checks: Open MPI's allocations
# (in components unloaded at MPI_Finalize, so no suppression can name them)
# are not saturn's. -q: no mpirun banner on a non-zero exit.
mpirun=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" "$mpiexec" -q --oversubscribe)
# Open MPI's launcher has been seen to hang on a loaded machine after every
# rank had exited (the ranks left as zombies). Each job therefore runs under a
# timeout; a job stopped by it counts as finished, with a note, and the checks
# that follow (the CSV's rows and contents, the messages) decide.
guarded() {
    timeout -k 10 300 "${mpirun[@]}" "$@"
    local rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then
        echo "NOTE: mpirun stopped by the test's timeout (Open MPI launcher hang); checking its output" >&2
        rc=0
    fi
    return $rc
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $*"; }
contains() { # name, file, text
    if grep -qF -- "$3" "$2"; then ok; else no "$1: '$3' not in output:"; cat "$2"; fi
}
rows() { echo $(($(wc -l <"$1") - 1)); } # whole rows (a partial last line has no newline)
nowall() { sed 's/,[^,]*$//' "$1"; }      # a CSV without its wall_seconds column
same() { # name, reference CSV, CSV: equal but for wall_seconds
    if diff <(nowall "$2") <(nowall "$3") >"$tmp/diff"; then ok; else
        no "$1: differs from the single-process CSV:"; head -n 20 "$tmp/diff"; fi
}

# 10 steady runs on an 8x8 torus, two grids (so, empty key cells); 0.5-1.5 s
# each (Release) as they are, for the kills (long enough that a job is still
# running when the test kills it: at 20,000 cycles the faster engine of
# 2026-11-23 finished the whole job first, and at 100,000 (0.2-0.4 s a run
# on 2026-11-28's host) a loaded machine's scan for rank 1 sometimes came
# after the last point), and a two-hundredth of that with $short, for the rest. A binary far slower than Release (the sanitizers'
# debug build, which also audits every cycle: 1 s for a short run, 70 times
# Release) gets long runs of 5,000 cycles instead, still seconds each: at
# 100,000 its kill tests alone took 15 minutes of CI.
cat >"$tmp/sw.ini" <<'EOF'
[network]
k = 8
[steady]
warmup = 1000
measure = 400000
[sweep]
traffic.flit_rate = 0.1, 0.2
traffic.pattern = uniform, transpose
sim.seed = 1:2
[sweep vcs]
router.vcs = 3, 4
traffic.flit_rate = 0.15
EOF
"$bin" sweep --help | grep -qF "This saturn has MPI." && ok || no "the binary was built without MPI"
sweep=("$bin" sweep "$tmp/sw.ini")
short=steady.measure=2000

long=()
for s in short long; do
    [ $s = short ] && o=$short || o=${long[*]}
    # its CPU time, not the wall clock's: on a loaded machine a Release build's
    # short sweep took over 3 s of wall clock, ran the kill tests' jobs at 5,000
    # cycles, and they ended before the test could find rank 1
    { TIMEFORMAT=%U; time "${sweep[@]}" $o --csv "$tmp/serial-$s.csv" -j 1 -q ||
        no "single-process sweep: exit $?"; } 2>"$tmp/cpu"
    [ "$(rows "$tmp/serial-$s.csv")" = 10 ] && ok || no "single-process sweep: not 10 rows"
    # the short sweep over 1 CPU-second (Release: 0.1-0.2 s; the sanitizers'
    # build about 3 s since its audit is optimised, 2026-12-03, so that a
    # threshold of 3 took it for Release and ran 400,000-cycle kills for
    # 16 minutes): a slow build
    [ $s = short ] && awk 'END { exit !($NF > 1) }' "$tmp/cpu" && long=(steady.measure=5000)
done
sweep_long=("${sweep[@]}" "${long[@]}")

for n in 2 3; do
    guarded -n $n "${sweep[@]}" $short --csv "$tmp/mpi$n.csv" >"$tmp/out" 2>"$tmp/err" ||
        { no "mpirun -n $n: exit $?"; cat "$tmp/err"; }
    contains "mpirun -n $n" "$tmp/out" "($((n - 1)) MPI worker"
    [ "$(grep -c 'points run' "$tmp/out")" = 1 ] && ok || no "mpirun -n $n: rank 0 alone reports"
    same "mpirun -n $n" "$tmp/serial-short.csv" "$tmp/mpi$n.csv"
done

# Resume a file as a killed job leaves it: rows out of order, a last one cut short.
ref=$tmp/serial-short.csv
{ sed -n '1p;3p;2p;8p;5p' "$ref"; sed -n 10p "$ref" | head -c 9; } >"$tmp/part.csv"
guarded -n 3 "${sweep[@]}" $short --csv "$tmp/part.csv" >"$tmp/out" 2>"$tmp/err" ||
    { no "resume: exit $?"; cat "$tmp/err"; }
contains resume "$tmp/out" "sweep: 6 points run, 4 skipped"
same resume "$ref" "$tmp/part.csv"

# Kill the job once a row is in, then rerun: nothing lost, nothing twice.
killed() { # name, what to kill: job (mpirun) or worker (rank 1, SIGKILL)
    local csv=$tmp/$1.csv
    # a SIGKILLed worker: under a timeout, since Open MPI's launcher has been
    # seen to hang, its ranks all exited (zombies), on a loaded machine; the
    # job is stopped either way, and what is checked is the CSV and the rerun.
    # (Not for the TERM case: the signal must reach mpirun itself.)
    local guard=()
    [ "$2" = worker ] && guard=(timeout -k 5 180)
    "${guard[@]}" "${mpirun[@]}" -n 3 "${sweep_long[@]}" --csv "$csv" -q >/dev/null 2>&1 &
    local job=$! i p victim=""
    for i in $(seq 3000); do
        [ -f "$csv" ] && [ "$(rows "$csv")" -ge 1 ] && break
        sleep 0.01
    done
    if [ "$2" = job ]; then
        kill -TERM $job
    else
        for p in /proc/[0-9]*; do # the rank-1 process of this job
            tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF -- "$csv" || continue
            tr '\0' '\n' <"$p/environ" 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1 &&
                victim=${p#/proc/}
        done
        [ -n "$victim" ] && kill -KILL "$victim" || no "$1: no rank 1 process found"
    fi
    # mpirun itself gets the TERM (it must forward it); should its launcher
    # hang afterwards, it is killed after 60 s, its ranks with it
    for i in $(seq 600); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
    if kill -0 $job 2>/dev/null; then
        echo "NOTE: $1: mpirun still running 60 s after the signal; killed" >&2
        pkill -KILL -f -- "$csv" 2>/dev/null
        kill -KILL $job 2>/dev/null
    fi
    wait $job && no "$1: the job was not stopped"
    local had dup
    had=$(rows "$csv")
    dup=$(head -n $((had + 1)) "$csv" | tail -n +2 | cut -d, -f1 | sort | uniq -d)
    [ -z "$dup" ] && ok || no "$1: point(s) $dup written twice"
    guarded -n 3 "${sweep_long[@]}" --csv "$csv" >"$tmp/out" 2>"$tmp/err" ||
        { no "$1 rerun: exit $?"; cat "$tmp/err"; }
    contains "$1 rerun" "$tmp/out" "sweep: $((10 - had)) points run, $had skipped"
    same "$1 rerun" "$tmp/serial-long.csv" "$csv"
}
killed job-killed job
killed worker-killed worker

# Bad input under MPI: exit 2, the message once (rank 0), no CSV.
printf '[network]\nk = 4\n[sweep]\nrouter.vcs = 1:2\n' >"$tmp/bad.ini"
guarded -n 3 "$bin" sweep "$tmp/bad.ini" --csv "$tmp/bad.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && ok || no "bad spec: exit $rc, expected 2"
[ "$(grep -c 'saturn: error' "$tmp/err")" = 1 ] && ok || { no "bad spec: not one message:"; cat "$tmp/err"; }
contains "bad spec" "$tmp/err" "bad.ini:4: router.vcs = 1: too few VCs"
[ -e "$tmp/bad.csv" ] && no "bad spec: a CSV was written" || ok

# One rank under mpirun: the single-process path.
guarded -n 1 "${sweep[@]}" $short --csv "$tmp/one.csv" -j 2 >"$tmp/out" 2>"$tmp/err" ||
    { no "mpirun -n 1: exit $?"; cat "$tmp/err"; }
grep -qF "MPI worker" "$tmp/out" && no "mpirun -n 1: used workers" || ok
same "mpirun -n 1" "$ref" "$tmp/one.csv"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
