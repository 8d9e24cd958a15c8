#!/usr/bin/env bash
# cmake --install into a temporary prefix, then build against what it put
# there: examples/embed.c with `pkg-config --cflags --libs saturn` alone
# (shared), again statically (Libs.private brings -lm -lpthread), a file
# reader with saturn-io, and a CMake project with find_package(saturn).
# The installed command and its manual page work.
# usage: install.sh BUILD_DIR SOURCE_DIR C_COMPILER [EXTRA_CFLAGS]
set -u
build=$1
src=$2
cc=$3
extra=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL $*"; }

prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { no "cmake --install"; cat "$tmp/install.log"; }
pc=$(dirname "$(find "$prefix" -name saturn.pc | head -1)")
lib=$(dirname "$pc")
for f in bin/saturn include/saturn/saturn.h include/saturn/io.h share/man/man1/saturn.1; do
    [ -e "$prefix/$f" ] && ok || no "$f not installed"
done
for f in libsaturn.a libsaturn.so libsaturn_io.a libsaturn_io.so pkgconfig/saturn.pc pkgconfig/saturn-io.pc \
         cmake/saturn/saturnConfig.cmake cmake/saturn/saturnTargets.cmake; do
    [ -e "$lib/$f" ] && ok || no "$lib/$f not installed"
done

export PKG_CONFIG_PATH="$pc"
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# shared: the flags pkg-config gives, nothing else
# shellcheck disable=SC2046
if $cc $extra -std=c11 -Wall -Werror "$src/examples/embed.c" $(pkg-config --cflags --libs saturn) \
        -o "$tmp/embed" 2>"$tmp/cc.log"; then ok; else no "cc embed.c \$(pkg-config --cflags --libs saturn)"; cat "$tmp/cc.log"; fi
if "$tmp/embed" network.k=4 >"$tmp/out" 2>&1 && grep -q "0.40 " "$tmp/out"; then ok; else no "embed did not run"; cat "$tmp/out"; fi
readelf -d "$tmp/embed" 2>/dev/null | grep -q 'NEEDED.*libsaturn.so.0' && ok || no "embed not linked to libsaturn.so.0"
# static: libsaturn.a and Libs.private (-lm -lpthread)
flags=$(pkg-config --cflags --static --libs saturn | sed 's/-lsaturn\b/-l:libsaturn.a/')
case "$flags" in *-lm*-lpthread*) ok ;; *) no "pkg-config --static --libs saturn lacks -lm -lpthread: $flags" ;; esac
# shellcheck disable=SC2086
if $cc $extra -std=c11 "$src/examples/embed.c" $flags -o "$tmp/embed-static" 2>"$tmp/cc.log"; then ok; else no "static link: $flags"; cat "$tmp/cc.log"; fi
readelf -d "$tmp/embed-static" 2>/dev/null | grep -q 'NEEDED.*libsaturn' && no "embed-static needs libsaturn.so" || ok
"$tmp/embed-static" network.k=4 >/dev/null 2>&1 && ok || no "embed-static did not run"
# saturn-io: an INI file read through the installed library
cat >"$tmp/io.c" <<'C'
#include <stdio.h>
#include <saturn/io.h>
int main(int argc, char **argv)
{
    struct saturn_config *c = saturn_config_new();
    struct saturn_error err;
    if (argc < 2 || saturn_config_load_ini(c, argv[1], &err)) {
        fprintf(stderr, "%s\n", argc < 2 ? "no file" : err.msg);
        return 2;
    }
    printf("k=%lld\n", (long long)saturn_config_int(c, "network.k"));
    saturn_config_free(c);
    return 0;
}
C
printf '[network]\nk = 12\n' >"$tmp/k.ini"
# shellcheck disable=SC2046
if $cc $extra -std=c11 "$tmp/io.c" $(pkg-config --cflags --libs saturn-io) -o "$tmp/io" 2>"$tmp/cc.log" &&
   [ "$("$tmp/io" "$tmp/k.ini")" = "k=12" ]; then ok; else no "saturn-io program"; cat "$tmp/cc.log"; fi
# CMake: find_package(saturn), the shared and the static target
mkdir -p "$tmp/consumer"
cp "$src/examples/embed.c" "$tmp/consumer/"
cat >"$tmp/consumer/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.18)
project(consumer C)
find_package(saturn 0.1 REQUIRED)
add_executable(embed embed.c)
target_link_libraries(embed PRIVATE saturn::saturn)
add_executable(embed_static embed.c)
target_link_libraries(embed_static PRIVATE saturn::saturn_static)
CM
if CFLAGS="$extra" LDFLAGS="$extra" cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$prefix" \
       -DCMAKE_C_COMPILER="$cc" >"$tmp/cmake.log" 2>&1 &&
   cmake --build "$tmp/consumer/build" >>"$tmp/cmake.log" 2>&1 &&
   "$tmp/consumer/build/embed" network.k=4 >/dev/null && "$tmp/consumer/build/embed_static" network.k=4 >/dev/null
then ok; else no "find_package(saturn)"; tail -20 "$tmp/cmake.log"; fi
# the installed command and its manual page
"$prefix/bin/saturn" --version | grep -q "saturn 0.1.0" && ok || no "installed saturn"
grep -q '^\.TH SATURN 1' "$prefix/share/man/man1/saturn.1" && ok || no "man page header"
for k in network.topology router.vcs traffic.pattern steady.warmup; do
    grep -q "^\.B $k\$" "$prefix/share/man/man1/saturn.1" && ok || no "man page lacks $k"
done
if command -v man >/dev/null; then
    MANWIDTH=80 man -l "$prefix/share/man/man1/saturn.1" 2>/dev/null | grep -q "PARAMETERS" && ok || no "man -l"
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
