#!/usr/bin/env bash
# experiments/common/sweep_spec.py once: a grid whose deterministic patterns run
# once (seed 1) and the others over their seeds, as paper 000 ran Fig. 6
# (entropy-throttling run --runs paper). The rewritten spec has each sweep's
# two halves; saturn sweep takes a set's two sections together (n = 1 and 4
# seeds per pattern), and its search picks what the whole sweep picks.
# usage: experiment_sweep_spec.sh SATURN SOURCE_DIR
set -u
bin=$1
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fails=0
check() { if [ "$2" != "$3" ]; then echo "FAIL $1: got [$2] want [$3]"; fails=$((fails + 1)); fi; }

# the suite's small grid (also tests/cli.sh's), a comment that names a key in a sweep
sed '/^\[sweep base\]$/a ; a comment with traffic.pattern = x stays' \
    "$2/tests/specs/collective-entropy-8x8.ini" >"$d/grid.ini"
python3 "$2/experiments/common/sweep_spec.py" once "$d/grid.ini" "$d/once.ini" shfl
check "sections" "$(grep '^\[sweep' "$d/once.ini" | tr '\n' ' ')" \
  "[sweep noth] [sweep noth more-seeds] [sweep base] [sweep base more-seeds] [sweep hyst] [sweep hyst more-seeds] "
check "shfl on seed 1" "$(grep -A1 '^traffic.pattern = shfl$' "$d/once.ini" | grep -c '^sim.seed = 1$')" "3"
check "torn over the seeds" "$(grep -A1 '^traffic.pattern = torn$' "$d/once.ini" | grep -c '^sim.seed = 1:4$')" "3"
check "comment kept" "$(grep -c '^; a comment with traffic.pattern = x stays$' "$d/once.ini")" "2"

"$bin" sweep "$d/once.ini" --csv "$d/all.csv" -j 2 --summary -q || fails=$((fails + 1))
"$bin" sweep "$d/once.ini" --csv "$d/search.csv" -j 2 --summary --search both -q || fails=$((fails + 1))
# every set once on shfl and four times on torn: 37 sets x 5 runs
check "points" "$(($(wc -l <"$d/all.csv") - 1))" "185"
# n per pattern in the summary (the column after the parameters)
n_of() { awk -F, -v p="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "n") c = i; next }
                            $3 == p && $2 == "baseline" { print $c }' "$d/all.summary.csv"; }
check "noth n on shfl" "$(n_of shfl)" "1"
check "noth n on torn" "$(n_of torn)" "4"
check "a set's two sections taken together" "$(grep -c '^base,average_geomean' "$d/all.summary.csv")" "1"
check "search's summary = the whole sweep's" "$(cmp "$d/all.summary.csv" "$d/search.summary.csv" && echo same)" "same"

[ "$fails" = 0 ] && echo "experiment_sweep_spec: all passed" || exit 1
