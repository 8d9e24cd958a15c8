#!/usr/bin/env bash
# Fuzzes saturn's input parsers with libFuzzer (docs/RELIABILITY.md).
#
#   scripts/fuzz.sh [--update] [SECONDS] [TARGET ...]
#
# Targets (tests/fuzz/fuzz_TARGET.c): ini, override, sweep, schedule,
# sweep_csv; default all, SECONDS (default 60) each, one at a time, under
# nice -n 19. Builds build-fuzz/ with clang (-DSATURN_FUZZ=ON: libFuzzer,
# ASan, UBSan), a dictionary of every key, section, short name and enum
# value from the parameter registry (build-fuzz/saturn.dict), and seeds from
# examples/, experiments/ and bench/. The growing corpus stays in
# build-fuzz/corpus/TARGET; a crash or a broken promise leaves its input in
# build-fuzz/artifacts/TARGET/ and stops that target. --update replaces
# tests/fuzz/corpus/TARGET (the small corpus the test suite replays with any
# compiler) by the fewest inputs that cover what the old corpus, the new
# one and the seeds cover. Needs clang and
# libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
secs=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-ini override sweep schedule sweep_csv}
out=build-fuzz

command -v clang >/dev/null || { echo "fuzz.sh: needs clang (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
CC=clang cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DSATURN_FUZZ=ON -DSATURN_TESTS=OFF >/dev/null
cmake --build "$out" -j "$(nproc)" >/dev/null
[ -x build/saturn ] || bash scripts/build.sh
saturn=build/saturn

# The dictionary: the registry's names and values, and the syntax.
{
    "$saturn" config --list | awk '
        /^[a-z]/ { split($1, p, "."); print "\"" $1 "\""; print "\"" p[2] "\""; print "\"[" p[1] "]\"" }
        /allowed: one of/ { n = split($NF, v, "|"); for (i = 1; i <= n; i++) print "\"" v[i] "\"" }'
    printf '"%s"\n' "[sweep]" "[sweep " "[summary]" "baseline" "metric" "=" ";" "#" "," ":" \
        "\\x0d" "\\x0a" "\\x0d\\x0a" "\\xef\\xbb\\xbf" "node,offset" "true" "false" "0:10:2" \
        "\\x22" "point," "wall_seconds" "duration" "accepted"
} | sort -u >"$out/saturn.dict"

# Seeds: the shipped configurations and specs, overrides made from them,
# schedules and a sweep CSV.
seeds=$out/seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{ini,override,sweep,schedule,sweep_csv}
for f in examples/*.ini experiments/*/*.ini bench/*.ini; do
    [ -f "$f" ] || continue
    case $(basename "$f") in
    sweep_*) cp "$f" "$seeds/sweep/" ;;
    *) cp "$f" "$seeds/ini/"
       "$saturn" config "$f" 2>/dev/null | awk '/^\[/ { s = substr($1, 2, length($1) - 2); next }
           / = / { print (s ? s "." : "") $1 "=" $3 }' | head -n 40 >"$seeds/override/$(basename "$f" .ini)" || true ;;
    esac
done
printf 'node,offset\n0,5\n3,10\n15,0\n' >"$seeds/schedule/plain.csv"
printf '\xef\xbb\xbf# starts\nnode,offset\r\n1,2\r\n\r\n2,4\r\n' >"$seeds/schedule/bom-crlf.csv"
spec=$(mktemp)
printf '[network]\nk = 4\n[steady]\nwarmup = 50\nmeasure = 50\n[sweep]\nrouter.vcs = 2, 3\ntraffic.pattern = uniform, transpose\nsim.seed = 1:2\n' >"$spec"
"$saturn" sweep "$spec" --csv "$seeds/sweep_csv/results.csv" -j 1 -q
rm -f "$spec"

echo "fuzz.sh: ${secs} s per target: $targets"
for t in $targets; do
    mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
    nice -n 19 "$out/tests/fuzz/fuzz_$t" "$out/corpus/$t" "$seeds/$t" tests/fuzz/corpus/$t \
        -dict="$out/saturn.dict" -max_total_time="$secs" -max_len=4096 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/" \
        >"$out/$t.log" 2>&1 || echo "fuzz.sh: $t stopped: see $out/$t.log and $out/artifacts/$t/"
    printf '%-10s %s executions, %s corpus inputs, %s findings\n' "$t" \
        "$(grep -o 'number_of_executed_units: [0-9]*' "$out/$t.log" | tail -n 1 | grep -o '[0-9]*$' || echo '?')" \
        "$(ls "$out/corpus/$t" | wc -l)" "$(ls "$out/artifacts/$t" | wc -l)"
    if [ "$update" = 1 ]; then # the fewest inputs that cover what all of them cover
        merged=$(mktemp -d)
        nice -n 19 "$out/tests/fuzz/fuzz_$t" -merge=1 -set_cover_merge=1 "$merged" tests/fuzz/corpus/$t \
            "$out/corpus/$t" "$seeds/$t" -max_len=4096 >"$out/$t.merge.log" 2>&1
        rm -f tests/fuzz/corpus/$t/*
        mv "$merged"/* tests/fuzz/corpus/$t/
        rmdir "$merged"
        echo "           tests/fuzz/corpus/$t: $(ls tests/fuzz/corpus/$t | wc -l) inputs"
    fi
done
