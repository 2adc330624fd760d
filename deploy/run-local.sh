#!/usr/bin/env bash
# Builds everything and runs the whole platform locally (embedded PostgreSQL unless DB_HOST is set).
# With arguments, runs a launcher command instead, e.g. `rebuild all --require-identical` on a stopped system.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# the jars only: the images (on by default in a build, see the README) are not what runs here
./mvnw -B -q -DskipTests package
exec java -Dconvo.home="$PWD" -jar deploy/launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar "$@"
