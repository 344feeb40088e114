#!/usr/bin/env bash
# Every benchmark under bench/ (bench/bench_*.py), one after the other, with the
# project's virtualenv; stops at the first one that fails.
set -euo pipefail
cd "$(dirname "$0")/.."

shopt -s nullglob
benches=(bench/bench_*.py)
if [ ${#benches[@]} -eq 0 ]; then
    echo "no benchmarks under bench/" >&2
    exit 1
fi
# Byte-compile the package first, as an installed package is: with
# PYTHONDONTWRITEBYTECODE set, every command would compile it again.
.venv/bin/python -m compileall -q mafiatab >/dev/null
for bench in "${benches[@]}"; do
    echo "== $bench"
    .venv/bin/python "$bench"
done
