#!/usr/bin/env bash
# The whole suite: lint, type checks, every test on SQLite, and the database
# and browser tests again on a real PostgreSQL server started here.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

bash scripts/system-deps.sh

echo "== ruff"
$BIN/ruff check .
$BIN/ruff format --check .
echo "== mypy (core)"
$BIN/mypy

echo "== pytest on SQLite"
unset DATABASE_URL
$BIN/pytest -q -p no:cacheprovider

if [ -d tests/web ]; then
    echo "== pytest on PostgreSQL"
    # shellcheck source=scripts/pg.sh
    source scripts/pg.sh
    $BIN/pytest -q -p no:cacheprovider tests/web tests/browser
fi
