#!/usr/bin/env bash
# experiments/common/checkpoint.py: a long search's resume files carried as xz
# chunks; each chunk only the new complete lines, the rebuilt files byte for
# byte, and a file from another run refused (exit 2, nothing written).
# usage: experiment_checkpoint.sh SOURCE_DIR
set -u
tool=(python3 "$1/experiments/common/checkpoint.py")
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fails=0
check() { if [ "$2" != "$3" ]; then echo "FAIL $1: got [$2] want [$3]"; fails=$((fails + 1)); fi; }

mkdir -p "$d/src"
printf 'point,duration\n0,10\n1,11\n2,1' > "$d/src/s.csv.partial.csv"   # last line being written
printf 'point,duration_at_least\n' > "$d/src/s.csv.cut.csv"
"${tool[@]}" save "$d/src" "$d/store" s.csv.partial.csv s.csv.cut.csv >/dev/null
check "first chunk" "$(ls "$d/store" | tr '\n' ' ')" "s.csv.cut.csv.000.xz s.csv.partial.csv.000.xz "
check "first chunk: complete lines only" \
  "$(python3 -c 'import lzma,sys;sys.stdout.write(lzma.open(sys.argv[1]).read().decode())' "$d/store/s.csv.partial.csv.000.xz")" \
  "$(printf 'point,duration\n0,10\n1,11')"
printf '2\n3,13\n' >> "$d/src/s.csv.partial.csv"
out=$("${tool[@]}" save "$d/src" "$d/store" s.csv.partial.csv s.csv.cut.csv)
check "second save" "$(echo "$out" | grep -c 'nothing new')" "1"
check "second chunk" "$(ls "$d/store" | grep -c partial)" "2"
"${tool[@]}" restore "$d/store" "$d/out" >/dev/null
check "restored byte for byte" "$(cmp "$d/src/s.csv.partial.csv" "$d/out/s.csv.partial.csv" && echo same)" "same"
check "restored cut file" "$(cat "$d/out/s.csv.cut.csv")" "point,duration_at_least"
# only the files named
"${tool[@]}" restore "$d/store" "$d/only" s.csv.cut.csv >/dev/null
check "only the named file" "$(ls "$d/only" | tr '\n' ' ')" "s.csv.cut.csv "
# a longer file that starts with the stored lines is kept as it is
printf '4,14\n' >> "$d/out/s.csv.partial.csv"
"${tool[@]}" restore "$d/store" "$d/out" >/dev/null
check "longer file kept" "$(tail -n 1 "$d/out/s.csv.partial.csv")" "4,14"
# another run's file: refused, exit 2, no chunk written
printf 'point,duration\n0,99\n' > "$d/src/s.csv.partial.csv"
"${tool[@]}" save "$d/src" "$d/store" s.csv.partial.csv 2>"$d/err" >/dev/null
check "other run refused" "$?" "2"
check "its message" "$(grep -c 'does not start with the 5 lines' "$d/err")" "1"
check "no chunk written" "$(ls "$d/store" | grep -c partial)" "2"
printf 'point,duration\n0,99\n' > "$d/out/s.csv.partial.csv"
"${tool[@]}" restore "$d/store" "$d/out" 2>/dev/null >/dev/null
check "restore over another run refused" "$?" "2"
check "that file untouched" "$(tail -n 1 "$d/out/s.csv.partial.csv")" "0,99"
[ "$fails" -eq 0 ] && echo "experiment_checkpoint: all checks passed"
exit $((fails > 0))
