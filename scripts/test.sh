#!/usr/bin/env bash
# The whole suite: lint, type checks, every test on SQLite, and the database
# tests (tests/web) again on a real PostgreSQL server started here. The browser
# tests drive the same views through the same services and run once, on SQLite.
# Tests run in one worker per CPU (pytest-xdist); each worker has its own database.
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
$BIN/pytest -q -p no:cacheprovider -n auto

if [ -d tests/web ]; then
    echo "== pytest on PostgreSQL"
    # shellcheck source=scripts/pg.sh
    source scripts/pg.sh
    $BIN/pytest -q -p no:cacheprovider -n auto tests/web
fi
