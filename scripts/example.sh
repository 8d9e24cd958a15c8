#!/usr/bin/env bash
# Installs what is missing, builds, and runs the built-in default example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/saturn run "$@"
