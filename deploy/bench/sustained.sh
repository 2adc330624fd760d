#!/usr/bin/env bash
# Live projection under a sustained write load (issue 44): PATCHes of 64 locales through the gateway at the command
# path's ceiling (CONNECTIONS connections, as run-all.sh's command figure), while every second the gap between the
# log's head and the slowest projection's token is sampled. Then, under the same load, the query service is stopped
# (SIGSTOP) for STOP_SECONDS and resumed: the time it takes to get back to the head while the load goes on gives the
# projections' rate under load, and its ratio to the command rate is the room to spare.
#
# Needs: a running stack (./deploy/run-local.sh), API_KEY (a system administrator's key, .data/bootstrap.env), wrk
# and psql.
# Env: GATEWAY_URL (http://localhost:8080/new), DB_PORT (54329), QUERY_PORT (8082), CONNECTIONS (32),
#      SECONDS_STEADY (30), STOP_SECONDS (10), QUERY_PID (found by its port when unset).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
: "${API_KEY:?set API_KEY}"
GATEWAY_URL=${GATEWAY_URL:-http://localhost:8080/new}
CONNECTIONS=${CONNECTIONS:-32}
SECONDS_STEADY=${SECONDS_STEADY:-30}
STOP_SECONDS=${STOP_SECONDS:-10}
QUERY_PID=${QUERY_PID:-$(ss -ltnpH "sport = :${QUERY_PORT:-8082}" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)}
[ -n "$QUERY_PID" ] || { echo "no query service found (QUERY_PID)"; exit 1; }
PSQL="psql -h 127.0.0.1 -p ${DB_PORT:-54329} -U postgres -d convo -qAt"
WORK=$(mktemp -d /tmp/convo-sustained.XXXXXX)
trap 'kill -CONT "$QUERY_PID" 2> /dev/null || true; kill $(jobs -p) 2> /dev/null || true; rm -rf "$WORK"' EXIT

# The slowest projection processor's distance from the head, in positions (tokens of the query service's groups).
lag() {
  $PSQL -c "SELECT (SELECT max(global_index) FROM domain_event_entry)
                   - min((convert_from(token, 'UTF8')::jsonb ->> 'index')::bigint)
            FROM token_entry WHERE token IS NOT NULL AND processor_name IN ($PROCESSORS)"
}
head_index() { $PSQL -c "SELECT max(global_index) FROM domain_event_entry"; }

for i in $(seq 1 64); do
  curl -sf -X POST "$GATEWAY_URL/v2.0/projects" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' \
    -d "{\"name\":\"sustained $i\",\"locale\":\"en-US\"}" | sed -n 's/.*"primaryLocaleReference":"\([^"]*\)".*/\1\n/p'
done | grep . > "$WORK/locales.txt"
[ -s "$WORK/locales.txt" ] || { echo "no locale was created"; exit 1; }
BASE=$(echo "$GATEWAY_URL" | sed -n 's#^https\?://[^/]*##p')
HOST=${GATEWAY_URL%"$BASE"}
total=$((SECONDS_STEADY + STOP_SECONDS + 60))
LOCALES="$WORK/locales.txt" BASE_PATH=$BASE wrk -t2 -c"$CONNECTIONS" -d"${total}s" -s deploy/bench/patch.lua "$HOST" \
  > "$WORK/wrk.txt" 2>&1 &
WRK=$!
# the query service's processors: those whose segments it holds
PROCESSORS=$($PSQL -c "SELECT string_agg(DISTINCT quote_literal(processor_name), ',') FROM token_entry
                   WHERE token IS NOT NULL AND owner LIKE '$QUERY_PID@%'")
[ -n "$PROCESSORS" ] || { echo "the query service ($QUERY_PID) holds no segment"; exit 1; }
sleep 5 # the load settles

first=$(head_index); : > "$WORK/steady.txt"
for _ in $(seq 1 "$SECONDS_STEADY"); do lag >> "$WORK/steady.txt"; sleep 1; done
rate=$(( $($PSQL -c "SELECT count(*) FROM domain_event_entry WHERE global_index > $first") / SECONDS_STEADY ))
steady=$(sort -n "$WORK/steady.txt" | awk '{a[NR]=$1} END {printf "p50 %d, p90 %d, max %d", a[int(NR*0.5)+1], a[int(NR*0.9)+1], a[NR]}')
p90=$(sort -n "$WORK/steady.txt" | awk '{a[NR]=$1} END {print a[int(NR*0.9)+1]}')

kill -STOP "$QUERY_PID"; sleep "$STOP_SECONDS"; kill -CONT "$QUERY_PID"
resumed=$(date +%s.%N); backlog=$(lag)
until [ "$(lag)" -le "$p90" ]; do
  kill -0 "$WRK" 2> /dev/null || { echo "the load ended before the projections were back at the head"; exit 1; }
  sleep 0.2
done
back=$(echo "$(date +%s.%N) - $resumed" | bc -l)
kill -INT "$WRK" 2> /dev/null || true; wait "$WRK" 2> /dev/null || true

printf "commands through the gateway: %d events/s appended (%d connections)\n" "$rate" "$CONNECTIONS"
printf "projection lag at that rate, sampled each second for %d s: %s positions\n" "$SECONDS_STEADY" "$steady"
printf "after %d s stopped under the load (backlog %d): back within %d positions of the head in %.1f s\n" \
  "$STOP_SECONDS" "$backlog" "$p90" "$back"
printf "projections under the load: %.0f events/s, %.2fx the command rate\n" \
  "$(echo "($backlog + $rate * $back) / $back" | bc -l)" "$(echo "($backlog + $rate * $back) / $back / $rate" | bc -l)"
grep -E "Requests/sec|Non-2xx" "$WORK/wrk.txt" || true
