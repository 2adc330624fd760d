#!/usr/bin/env bash
# Projection rebuild figures (issue 12): rebuilds of PROJECTIONS over a log of EVENTS events (seeded when the store
# holds fewer), each against a same-run baseline of reading the whole log with plain JDBC; the query service's heap,
# the switch's pauses and the latency of reads through the gateway during the rebuild (RebuildBench.java).
#
# Needs: a running stack (./deploy/run-local.sh) and API_KEY, a system administrator's key (.data/bootstrap.env).
# Env: GATEWAY_URL (http://localhost:8080/new), QUERY_PORT (8082),
#      DB_HOST/DB_PORT/DB_NAME/DB_USERNAME/DB_PASSWORD (the embedded default 127.0.0.1:54329/convo/postgres),
#      EVENTS (1000000), RUNS (3), PROJECTIONS (tokens,flows), QUERY_PID (found by its port when unset), WARM_UPS (3:
#      the most unmeasured rebuilds of each projection before its runs, until two agree within 5%).
# The projection name `catch-up` measures a lagging replica instead: the query service is stopped (SIGSTOP) while
# CATCHUP_EVENTS (200000) more events are appended, then resumed, and timed until every live processor has passed them.
# The name `eventlog-floor` times PostgreSQL's own floor of an eventlog rebuild instead (RebuildBench.eventLogFloor).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${API_KEY:?set API_KEY}"
GATEWAY_URL=${GATEWAY_URL:-http://localhost:8080/new}
JDBC_URL="jdbc:postgresql://${DB_HOST:-127.0.0.1}:${DB_PORT:-54329}/${DB_NAME:-convo}"
QUERY_PID=${QUERY_PID:-$(ss -ltnpH "sport = :${QUERY_PORT:-8082}" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)}
DRIVER=$(find ~/.m2/repository/org/postgresql/postgresql -name 'postgresql-*.jar' | sort | tail -1)
[ -n "$DRIVER" ] || ./mvnw -B -q dependency:get -Dartifact=org.postgresql:postgresql:42.7.11
DRIVER=${DRIVER:-$(find ~/.m2/repository/org/postgresql/postgresql -name 'postgresql-*.jar' | sort | tail -1)}
exec java -cp "$DRIVER" deploy/bench/RebuildBench.java "$GATEWAY_URL" "$JDBC_URL" "${DB_USERNAME:-postgres}" \
  "${DB_PASSWORD:-}" "${EVENTS:-1000000}" "${RUNS:-3}" "${PROJECTIONS:-tokens,flows}" "${QUERY_PID:-}"
