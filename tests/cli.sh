#!/usr/bin/env bash
# The saturn command line: exit codes, error messages, output files.
# usage: cli.sh SATURN_BINARY SOURCE_DIR
set -u
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() { # name, expected exit code, command...
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
contains() { # name, file, text
    if grep -qF -- "$3" "$2"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $1: '$3' not in output:"; cat "$2"; fi
}

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

# Same seed, same record (but for the run's own time and memory).
"$bin" run $small sim.seed=5 --json "$tmp/a.json" -q
"$bin" run $small sim.seed=5 --json "$tmp/b.json" -q
if diff <(grep -v -e wall_seconds -e peak_rss "$tmp/a.json") <(grep -v -e wall_seconds -e peak_rss "$tmp/b.json") >/dev/null
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL determinism: records differ"; fi

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

# Every shipped example config is valid and runs.
for f in "$src"/examples/*.ini; do
    check "example $(basename "$f")" 0 "$bin" run "$f" steady.warmup=100 steady.measure=300 -q
done
# The resolved configuration loads back.
"$bin" config "$src/examples/default.ini" router.vcs=5 >"$tmp/resolved.ini"
check config-roundtrip 0 "$bin" config "$tmp/resolved.ini"
contains config-roundtrip "$tmp/out" "vcs = 5"

# docs/CONFIG.md is the registry as it is (scripts/gen-config-doc.sh regenerates it).
"$bin" config --list >"$tmp/list"
if diff <(sed -n '/^```$/,/^```$/p' "$src/docs/CONFIG.md" | sed '1d;$d') "$tmp/list" >/dev/null
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: docs/CONFIG.md is stale (run scripts/gen-config-doc.sh)"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
