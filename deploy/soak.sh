#!/usr/bin/env bash
# The operator's soak (SoakIT): 2 gateways (each fronting every replica), 3 command and 3 query replicas, a PostgreSQL
# primary and a streaming standby the query replicas read from, all as processes on this machine. First the
# throughput per replica count (3, 2, 1 of each: lists and commands, 8 clients, THROUGHPUT s each), then SECONDS of
# mixed load while a chaos loop SIGKILLs and restarts a random replica every KILL_MIN..KILL_MAX s. Prints the report
# (lost, duplicated, 5xx, read-your-writes violations, take-over per kill, throughput) and fails on any nonzero.
# CI runs the same test for 75 s without the throughput phase (./mvnw verify -Pe2e).
#
# Env: SECONDS_OF_LOAD (600), KILL_MIN (20), KILL_MAX (40), THROUGHPUT (10), WORKERS (6).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./mvnw -B -q -DskipTests install
./mvnw -B verify -Pe2e -pl deploy/launcher -Dit.test=SoakIT -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsoak.seconds="${SECONDS_OF_LOAD:-600}" -Dsoak.kill-min-seconds="${KILL_MIN:-20}" \
  -Dsoak.kill-max-seconds="${KILL_MAX:-40}" -Dsoak.throughput-seconds="${THROUGHPUT:-10}" \
  -Dsoak.workers="${WORKERS:-6}" | tee deploy/launcher/target/soak.log | grep -v '^\[INFO\] Download'
sed -n '/==== SOAK REPORT ====/,/^=====================$/p' deploy/launcher/target/soak.log
