#!/usr/bin/env bash
# GET /v2.0/eventlog figures (issue 11): NDJSON replay of EVENTS events against a same-run plain-JDBC baseline of
# the same rows, the query service's heap during the stream, and the live tail's latency (EventLogBench.java).
#
# Needs: a running stack (./deploy/run-local.sh) and API_KEY (from .data/bootstrap.env), an organisation admin's key.
# Env: QUERY_URL (http://localhost:8082/new), GATEWAY_URL (http://localhost:8080/new),
#      DB_HOST/DB_PORT/DB_NAME/DB_USERNAME/DB_PASSWORD (the embedded default 127.0.0.1:54329/convo/postgres),
#      EVENTS (1000000), RUNS (3), PAIRS (300), QUERY_PID (found by its port when unset).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${API_KEY:?set API_KEY}"
QUERY_URL=${QUERY_URL:-http://localhost:8082/new}
GATEWAY_URL=${GATEWAY_URL:-http://localhost:8080/new}
JDBC_URL="jdbc:postgresql://${DB_HOST:-127.0.0.1}:${DB_PORT:-54329}/${DB_NAME:-convo}"
PORT=$(echo "$QUERY_URL" | sed -n 's#.*://[^:/]*:\([0-9]*\).*#\1#p')
QUERY_PID=${QUERY_PID:-$(ss -ltnpH "sport = :$PORT" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)}
DRIVER=$(find ~/.m2/repository/org/postgresql/postgresql -name 'postgresql-*.jar' | sort | tail -1)
[ -n "$DRIVER" ] || ./mvnw -B -q dependency:get -Dartifact=org.postgresql:postgresql:42.7.11
DRIVER=${DRIVER:-$(find ~/.m2/repository/org/postgresql/postgresql -name 'postgresql-*.jar' | sort | tail -1)}
exec java -cp "$DRIVER" deploy/bench/EventLogBench.java "$QUERY_URL" "$GATEWAY_URL" "$JDBC_URL" \
  "${DB_USERNAME:-postgres}" "${DB_PASSWORD:-}" "${EVENTS:-1000000}" "${RUNS:-3}" "${PAIRS:-300}" "${QUERY_PID:-}"
