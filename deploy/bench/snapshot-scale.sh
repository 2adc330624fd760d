#!/usr/bin/env bash
# Wall times of the createSnapshot and restoreSnapshot task work on a project with one flow of 10,000 intents and
# 100,000 sentences, on an embedded PostgreSQL (no running stack needed). Seeds the events directly through Axon's
# event store (the HTTP seeder takes ~9 min), then runs create + restore RUNS times and prints the median.
# Usage: deploy/bench/snapshot-scale.sh      Env: INTENTS (10000), SENTENCES per intent (10), RUNS (3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
./mvnw -B -q -pl command-service -am test -Dsurefire.failIfNoSpecifiedTests=false -Dtest=SnapshotScaleBench \
  -Dsnapshot.bench=true -Dsnapshot.bench.intents="${INTENTS:-10000}" -Dsnapshot.bench.sentences="${SENTENCES:-10}" \
  -Dsnapshot.bench.runs="${RUNS:-3}" 2>&1 | grep -E "BENCH|Tests run|FAIL" || true
