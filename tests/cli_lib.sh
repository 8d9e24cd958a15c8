# Shared by the command-line test scripts (cli.sh, cli_ux.sh): a scratch
# folder $tmp removed at exit, the pass/fail counts and the checks.
# Sourced after bin and src are set.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

check() { # name, expected exit code, command...: its output in $tmp/out and $tmp/err
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" = "$want" ]; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $name: exit $got, expected $want"; cat "$tmp/err"; fi
}
contains() { # name, file, text
    if grep -qF -- "$3" "$2"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $1: '$3' not in:"; cat "$2"; fi
}
lacks() { # name, file, text
    if grep -qF -- "$3" "$2"; then fail=$((fail + 1)); echo "FAIL $1: '$3' in:"; cat "$2"; else
        pass=$((pass + 1)); fi
}
same() { # name, file, file
    if cmp -s "$2" "$3"; then pass=$((pass + 1)); else
        fail=$((fail + 1)); echo "FAIL $1: $2 and $3 differ"; diff "$2" "$3" | head; fi
}
