#!/usr/bin/env bash
# The fault matrix (FaultMatrixBench): a gateway, a command and a query service on a PostgreSQL of their own, under
# writes and reads through the gateway; each kind of process is SIGKILLed and restarted, then PostgreSQL is stopped
# for OUTAGE seconds (15) and started again. Prints, per fault, what clients got until writes worked again and how
# long that took, and whether any acknowledged write was lost; fails on a 5xx other than 503 with Retry-After, on a
# request slower than 35 s, or on a lost write.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
./mvnw -B -q -DskipTests install
./mvnw -B verify -Pe2e -pl deploy/launcher -Dit.test=FaultMatrixBench -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false -Dfaults.outage-seconds="${OUTAGE:-15}" \
  | tee deploy/launcher/target/fault-matrix.log | grep -v '^\[INFO\] Download'
sed -n '/==== FAULT MATRIX ====/,/^=====================$/p' deploy/launcher/target/fault-matrix.log
