# An experiment's progress on stderr, for the shell scripts (issue 19;
# progress.py is the Python scripts'). Sourced; sets
#   prog   the option that gives saturn's own progress lines beside -q
#          (--progress: a live line on a terminal, a line every few
#          seconds in a log); SATURN_PROGRESS=off|live|plain overrides
#   step   NAME N LABEL: "NAME: step I of N: LABEL (elapsed T)" on stderr,
#          one line a step, between the saturn commands
# stdout (the REF lines) is untouched.
case ${SATURN_PROGRESS:-} in
off) prog=--no-progress ;;
live | plain) prog=--progress=$SATURN_PROGRESS ;;
*) prog=--progress ;;
esac
progress_t0=$(date +%s)
progress_i=0
step() {
    progress_i=$((progress_i + 1))
    [ "$prog" = --no-progress ] && return 0
    local el=$(($(date +%s) - progress_t0))
    printf '%s: step %d of %d: %s (elapsed %dm%02ds)\n' "$1" "$progress_i" "$2" "$3" $((el / 60)) $((el % 60)) >&2
}
