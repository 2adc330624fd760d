#!/usr/bin/env bash
# Every benchmark with its same-run baseline, one table at the end (the README's figures come from it).
#
# Starts its own stack from the built jars (./mvnw -B install -DskipTests) on a fresh data directory and an embedded
# PostgreSQL, a bare WebFlux endpoint (deploy/baseline) as the HTTP baseline, and pgbench's Axon-shaped append as the
# database's ceiling. Then, interleaved RUNS times after a warm-up, medians reported:
#   commands      PATCH of 64 locales (64 projects) through the gateway, CONNECTIONS connections, vs the append ceiling
#   history       PATCH latency, 1 connection, on a project aggregate of HISTORY events vs a fresh one; also on a
#                 second command service with the aggregate cache off (APP_AGGREGATES_CACHED=0: snapshots alone)
#   uncached list the token list (36 tokens, limit=25) on the query service, vs the bare endpoint
#   cached list   the intent list (INTENTS intents, limit=25) on the query service, vs the bare endpoint
#   floor         the bare endpoint behind a Spring Security chain that checks an API key (baseline.secured=true)
#   floors of the lists, the same chain with the least each list must do: a fixed answer of the intent page's size
#                 (under the cached list), and one page of the same 25 tokens read over R2DBC and rendered with
#                 Jackson, rows and total in one statement (under the uncached list; baseline.page-database)
# and the existing benchmarks: read-after-write lag (ReadAfterWriteLag.java), the call counter
# (CallCounterBench.java, CALL_RECORDS records), rebuilds of tokens, eventlog and all projections and a query service's
# catch-up after missing REBUILD_EVENTS events (rebuild.sh), live projection under a sustained write load
# (sustained.sh), and snapshot scale (snapshot-scale.sh; SNAPSHOT_SCALE=0
# skips it).
#
# Needs: wrk and pgbench/psql (apt-get install wrk postgresql-client), the built jars.
# Env: RUNS (3), WARMUP (30 s; then until steady, at most WARMUP_MAX, 300 s), DURATION (10 s), CONNECTIONS (32), HISTORY (100000), INTENTS (2000),
#      CALL_RECORDS (200000), REBUILD_EVENTS (200000), SNAPSHOT_SCALE (1), BENCH_DIR (a fresh temporary directory), PROFILE (0; 1 records a
#      JFR profile of the command and query services during one more command run and token-list run, not measured).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$(pwd)
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-30}
WARMUP_MAX=${WARMUP_MAX:-300}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
HISTORY=${HISTORY:-100000}
INTENTS=${INTENTS:-2000}
CALL_RECORDS=${CALL_RECORDS:-200000}
REBUILD_EVENTS=${REBUILD_EVENTS:-200000}
SNAPSHOT_SCALE=${SNAPSHOT_SCALE:-1}
PROFILE=${PROFILE:-0}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/convo-bench.XXXXXX)}; mkdir -p "$BENCH_DIR"
PORT=18080; COMMAND_PORT=18081; QUERY_PORT=18082; DB_PORT=18432; BASELINE_PORT=18090; FLOOR_PORT=18091; NOCACHE_PORT=18093; BYTES_FLOOR_PORT=18094; PAGE_FLOOR_PORT=18095
GATEWAY="http://localhost:$PORT/new"; COMMAND="http://localhost:$COMMAND_PORT/new"; QUERY="http://localhost:$QUERY_PORT/new"
RESULTS="$BENCH_DIR/results.txt"
: > "$RESULTS"
for tool in wrk pgbench psql; do command -v $tool > /dev/null || { echo "needs $tool (apt-get install wrk postgresql-client)"; exit 1; }; done
LAUNCHER=deploy/launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar
BASELINE_JAR=deploy/baseline/target/baseline-0.1.0-SNAPSHOT-exec.jar
COMMAND_JAR=command-service/target/command-service-0.1.0-SNAPSHOT-exec.jar
[ -f "$LAUNCHER" ] && [ -f "$BASELINE_JAR" ] || ./mvnw -B -q install -DskipTests

PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done; wait 2> /dev/null || true; }
trap cleanup EXIT
log() { echo "[$(date +%T)] $*" >&2; }
result() { echo "$*" | tee -a "$RESULTS" >&2; }

log "stack in $BENCH_DIR"
DATA_DIR="$BENCH_DIR/data" PORT=$PORT COMMAND_PORT=$COMMAND_PORT QUERY_PORT=$QUERY_PORT EMBEDDED_DB_PORT=$DB_PORT \
  java -jar "$LAUNCHER" > "$BENCH_DIR/stack.log" 2>&1 &
PIDS+=($!)
until grep -q "is up" "$BENCH_DIR/stack.log"; do
  grep -q "Stopped\|failed" "$BENCH_DIR/stack.log" && { cat "$BENCH_DIR/stack.log"; exit 1; }; sleep 1
done
# shellcheck disable=SC1091
source "$BENCH_DIR/data/bootstrap.env"
export API_KEY=$BOOTSTRAP_API_KEY
PSQL="psql -h 127.0.0.1 -p $DB_PORT -U postgres -d convo -qAt"
SERVER_PORT=$BASELINE_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 -jar "$BASELINE_JAR" \
  > "$BENCH_DIR/baseline.log" 2>&1 &
PIDS+=($!)
# The floor: the same answer behind a Spring Security chain that checks an API key against a constant (what any
# authenticated route of this stack costs before any work of ours: identity store, read-your-writes, rendering).
API_KEY=$API_KEY SERVER_PORT=$FLOOR_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 \
  -Dbaseline.secured=true -jar "$BASELINE_JAR" > "$BENCH_DIR/floor.log" 2>&1 &
PIDS+=($!)
until curl -sf "http://localhost:$BASELINE_PORT/fixed" > /dev/null; do sleep 0.5; done
until curl -sf -H "X-API-Key: $API_KEY" "http://localhost:$FLOOR_PORT/fixed" > /dev/null; do sleep 0.5; done

post() { curl -sf -X POST "$GATEWAY$1" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' -d "$2"; echo; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }

log "seeding: 64 projects, a token list, a flow of $INTENTS intents, a project of $HISTORY events"
: > "$BENCH_DIR/locales.txt"
for i in $(seq 1 64); do
  post /v2.0/projects "{\"name\":\"commands $i\",\"locale\":\"en-US\"}" | field primaryLocaleReference >> "$BENCH_DIR/locales.txt"
done
TOKENS=$(post /v2.0/projects '{"name":"token list","locale":"en-US"}' | field _id)
for i in $(seq 1 36); do
  post "/v2.0/projects/$TOKENS/snippets" "{\"label\":\"token $i\",\"type\":\"custom\",\"script\":\"value $i\"}" > /dev/null
done
FLOW=$(API_KEY=$API_KEY java deploy/bench/SeedFlow.java "$GATEWAY" "$INTENTS" 10 16 2> /dev/null | tail -1)
# The floors of the two lists (see the header), once their data exists.
INTENT_BYTES=$(curl -sf -H "X-API-Key: $API_KEY" "$QUERY/v2.0/flows/$FLOW/intents?limit=25" | wc -c)
API_KEY=$API_KEY SERVER_PORT=$BYTES_FLOOR_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 \
  -Dbaseline.secured=true -Dbaseline.body-bytes="$INTENT_BYTES" -jar "$BASELINE_JAR" > "$BENCH_DIR/floor-bytes.log" 2>&1 &
PIDS+=($!)
API_KEY=$API_KEY SERVER_PORT=$PAGE_FLOOR_PORT java -XX:+UseSerialGC -Xmx256m -Dreactor.netty.ioWorkerCount=2 \
  -Dbaseline.secured=true -Dbaseline.page-database="127.0.0.1:$DB_PORT/convo/postgres" -jar "$BASELINE_JAR" \
  > "$BENCH_DIR/floor-page.log" 2>&1 &
PIDS+=($!)
FLOOR_BYTES="http://localhost:$BYTES_FLOOR_PORT/fixed"
FLOOR_PAGE="http://localhost:$PAGE_FLOOR_PORT/page?org=$($PSQL -c "SELECT organisation_id FROM project_view WHERE id = '$TOKENS'")&project=$TOKENS"
until curl -sf -H "X-API-Key: $API_KEY" "$FLOOR_BYTES" > /dev/null; do sleep 0.5; done
until curl -sf -H "X-API-Key: $API_KEY" "$FLOOR_PAGE" > /dev/null; do sleep 0.5; done
SMALL=$(post /v2.0/projects '{"name":"small history","locale":"en-US"}')
SMALL_PROJECT=$(echo "$SMALL" | field _id); echo "$SMALL" | field primaryLocaleReference > "$BENCH_DIR/small.txt"
BIG=$(post /v2.0/projects '{"name":"long history","locale":"en-US"}')
BIG_PROJECT=$(echo "$BIG" | field _id); echo "$BIG" | field primaryLocaleReference > "$BENCH_DIR/big.txt"
curl -sf -o /dev/null -X PATCH "$GATEWAY/v2.0/locales/$(cat "$BENCH_DIR/big.txt")" -H "X-API-Key: $API_KEY" \
  -H 'Content-Type: application/json' -d '{"name":"long history 0"}'
# The long history: copies of the project's own last event (a locale rename), as a year of edits would leave it.
$PSQL -c "INSERT INTO domain_event_entry (event_identifier, aggregate_identifier, sequence_number, type, time_stamp,
  payload_type, payload_revision, payload, meta_data)
  SELECT gen_random_uuid()::text, e.aggregate_identifier, e.sequence_number + g, e.type, e.time_stamp, e.payload_type,
         e.payload_revision, e.payload, e.meta_data
  FROM (SELECT * FROM domain_event_entry WHERE aggregate_identifier = '$BIG_PROJECT'
        ORDER BY sequence_number DESC LIMIT 1) e, generate_series(1, $HISTORY - (SELECT count(*)
        FROM domain_event_entry WHERE aggregate_identifier = '$BIG_PROJECT')) g"
events_of() { $PSQL -c "SELECT count(*) FROM domain_event_entry WHERE aggregate_identifier = '$1'"; }
caught_up() { # until every processor has read past the newest event (a principal's reads wait for its writes)
  local last; last=$($PSQL -c "SELECT max(global_index) FROM domain_event_entry")
  until [ "$($PSQL -c "SELECT count(*) FROM token_entry t WHERE t.token IS NOT NULL AND
            (convert_from(t.token, 'UTF8')::jsonb ->> 'index')::bigint < $last")" = "0" ]; do sleep 1; done
}
log "long history: $(events_of "$BIG_PROJECT") events; waiting for the projections to catch up"
caught_up

# A second command service on the same database, with the aggregate cache off: loads come from snapshots alone.
APP_AGGREGATES_CACHED=0 SERVER_PORT=$NOCACHE_PORT DB_HOST=127.0.0.1 DB_PORT=$DB_PORT DB_NAME=convo DB_USERNAME=postgres \
  AXONIQ_UPDATE_CHECKER_DISABLED=true java -XX:+UseSerialGC -Xmx512m -Dreactor.netty.ioWorkerCount=2 \
  -jar "$COMMAND_JAR" > "$BENCH_DIR/command-nocache.log" 2>&1 &
NOCACHE_PID=$!
PIDS+=($!)
until curl -s -o /dev/null "http://localhost:$NOCACHE_PORT/new/v2.0/projects"; do sleep 0.5; done

# wrk url seconds connections [script] -> "rps p50ms p99ms non2xx"
run() {
  local out
  out=$(wrk -t"$(( $3 < 2 ? 1 : 2 ))" -c"$3" -d"$2"s --latency ${4:+-s "$4"} -H "X-API-Key: $API_KEY" -H "Accept: application/json" "$1")
  echo "$out" | awk '
    function ms(v) { if (v ~ /ms$/) { sub("ms", "", v); return v } if (v ~ /us$/) { sub("us", "", v); return v / 1000 }
                     if (v ~ /s$/) { sub("s", "", v); return v * 1000 } return v }
    /Requests\/sec/ { rps = $2 } / 50%/ { p50 = ms($2) } / 99%/ { p99 = ms($2) } /Non-2xx/ { bad = $5 }
    END { printf "%.0f %.1f %.1f %d\n", rps, p50, p99, bad }'
}
pg_append() { # clients seconds -> tps
  pgbench -h 127.0.0.1 -p "$DB_PORT" -U postgres -n -c "$1" -j 2 -T "$2" -f "$BENCH_DIR/append.sql" convo 2> /dev/null |
    awk '/^tps/ { printf "%.0f\n", $3 }'
}
# The ceiling: an Axon-shaped append (read the aggregate's last sequence number, insert a ~600-byte event, commit)
# into a scratch copy of the event table (its own sequence, none of our triggers); each client its own aggregate.
$PSQL -c "CREATE SEQUENCE bench_append_seq; CREATE TABLE bench_event_entry (LIKE domain_event_entry INCLUDING
  CONSTRAINTS INCLUDING INDEXES); ALTER TABLE bench_event_entry ALTER COLUMN global_index SET DEFAULT nextval('bench_append_seq')"
cat > "$BENCH_DIR/append.sql" << 'EOF'
BEGIN;
SELECT max(sequence_number) FROM bench_event_entry WHERE aggregate_identifier = 'agg' || :client_id;
INSERT INTO bench_event_entry (event_identifier, aggregate_identifier, sequence_number, type, time_stamp, payload_type,
  payload_revision, payload, meta_data)
VALUES (gen_random_uuid()::text, 'agg' || :client_id, (SELECT coalesce(max(sequence_number), -1) + 1 FROM bench_event_entry
  WHERE aggregate_identifier = 'agg' || :client_id), 'ProjectAggregate', '2026-11-25T00:00:00Z',
  'ai.convo.contract.locale.LocaleUpdatedEvent', NULL, convert_to(repeat('x', 600), 'UTF8'), convert_to('{}', 'UTF8'));
COMMIT;
EOF

BASE="http://localhost:$BASELINE_PORT/fixed"
FLOOR="http://localhost:$FLOOR_PORT/fixed"
TOKEN_LIST="$QUERY/v2.0/projects/$TOKENS/snippets?limit=25"
INTENT_LIST="$QUERY/v2.0/flows/$FLOW/intents?limit=25"
export BASE_PATH=/new
# Warm-up until steady: at least WARMUP s, then 10 s runs until two in a row are within 5% of each other (at most
# WARMUP_MAX s). On two cores shared by five JVMs and PostgreSQL, C2 keeps compiling the command path for minutes:
# a fixed 60 s left the command figures of earlier passes a third below the same build's steady state.
warm() { # name url [script]
  local spent=0 last=0 now
  run "$2" "$WARMUP" "$CONNECTIONS" ${3:+"$3"} > /dev/null; spent=$WARMUP
  while [ "$spent" -lt "$WARMUP_MAX" ]; do
    now=$(run "$2" 10 "$CONNECTIONS" ${3:+"$3"} | cut -d' ' -f1); spent=$((spent + 10))
    echo "$1 ${spent}s $now req/s" >> "$BENCH_DIR/warmup.log"
    awk -v a="$last" -v b="$now" 'BEGIN {exit !(a > 0 && (b - a) / a < 0.05 && (a - b) / a < 0.05)}' && break
    last=$now
  done
  echo "$1 $spent" >> "$BENCH_DIR/warmed"
}
log "warm-up: ${WARMUP}s each, then until steady (at most ${WARMUP_MAX}s)"
warm base "$BASE"
warm floor "$FLOOR"
warm floor-bytes "$FLOOR_BYTES"
warm floor-page "$FLOOR_PAGE"
LOCALES="$BENCH_DIR/locales.txt" warm commands "http://localhost:$PORT" deploy/bench/patch.lua
LOCALES="$BENCH_DIR/locales.txt" warm commands-direct "http://localhost:$COMMAND_PORT" deploy/bench/patch.lua
warm tokens "$TOKEN_LIST"
warm intents "$INTENT_LIST"
for target in "http://localhost:$COMMAND_PORT" "http://localhost:$NOCACHE_PORT"; do
  for history in small big; do LOCALES="$BENCH_DIR/$history.txt" run "$target" 10 1 deploy/bench/patch.lua > /dev/null; done
done
pg_append "$CONNECTIONS" 10 > /dev/null

profile() { # start|stop name
  [ "$PROFILE" = 1 ] || return 0
  for service in command-service query-service; do
    local pid; pid=$(pgrep -f "$service-0.1.0-SNAPSHOT-exec.jar" | grep -vx "$NOCACHE_PID" | head -1)
    if [ "$1" = start ]; then jcmd "$pid" JFR.start name=bench settings=profile \
      filename="$BENCH_DIR/$2-$service.jfr" > /dev/null; else jcmd "$pid" JFR.stop name=bench > /dev/null; fi
  done
}

# Each run: the reads first (on a caught-up system), then the writes, then catching up again.
for i in $(seq 1 "$RUNS"); do
  log "run $i of $RUNS"
  caught_up
  echo "base $(run "$BASE" "$DURATION" "$CONNECTIONS")" >> "$BENCH_DIR/runs.$i"
  echo "floor $(run "$FLOOR" "$DURATION" "$CONNECTIONS")" >> "$BENCH_DIR/runs.$i"
  echo "floor-bytes $(run "$FLOOR_BYTES" "$DURATION" "$CONNECTIONS")" >> "$BENCH_DIR/runs.$i"
  echo "floor-page $(run "$FLOOR_PAGE" "$DURATION" "$CONNECTIONS")" >> "$BENCH_DIR/runs.$i"
  echo "tokens $(run "$TOKEN_LIST" "$DURATION" "$CONNECTIONS")" >> "$BENCH_DIR/runs.$i"
  echo "intents $(run "$INTENT_LIST" "$DURATION" "$CONNECTIONS")" >> "$BENCH_DIR/runs.$i"
  echo "ceiling $(pg_append "$CONNECTIONS" "$DURATION")" >> "$BENCH_DIR/runs.$i"
  echo "commands $(LOCALES="$BENCH_DIR/locales.txt" run "http://localhost:$PORT" "$DURATION" "$CONNECTIONS" deploy/bench/patch.lua)" >> "$BENCH_DIR/runs.$i"
  echo "commands-direct $(LOCALES="$BENCH_DIR/locales.txt" run "http://localhost:$COMMAND_PORT" "$DURATION" "$CONNECTIONS" deploy/bench/patch.lua)" >> "$BENCH_DIR/runs.$i"
  for history in small big; do
    echo "h-cached-$history $(LOCALES="$BENCH_DIR/$history.txt" run "http://localhost:$COMMAND_PORT" "$DURATION" 1 deploy/bench/patch.lua)" >> "$BENCH_DIR/runs.$i"
    echo "h-nocache-$history $(LOCALES="$BENCH_DIR/$history.txt" run "http://localhost:$NOCACHE_PORT" "$DURATION" 1 deploy/bench/patch.lua)" >> "$BENCH_DIR/runs.$i"
  done
  cat "$BENCH_DIR/runs.$i" >&2
done

if [ "$PROFILE" = 1 ]; then  # after the measured runs: JFR's profile settings slow these services several-fold
  log "profiled runs (not measured)"
  profile start commands
  LOCALES="$BENCH_DIR/locales.txt" run "http://localhost:$PORT" "$DURATION" "$CONNECTIONS" deploy/bench/patch.lua > /dev/null
  profile stop commands
  caught_up
  profile start lists
  run "$TOKEN_LIST" "$DURATION" "$CONNECTIONS" > /dev/null
  profile stop lists
fi

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
col() { cat "$BENCH_DIR"/runs.* | awk -v k="$1" -v c="$2" '$1 == k {print $c}' | median; }
ratio() { # key1 col1 key2 col2 -> median over runs of key1/key2 (same run)
  for f in "$BENCH_DIR"/runs.*; do
    awk -v a="$1" -v ca="$2" -v b="$3" -v cb="$4" '$1 == a {x = $ca} $1 == b {y = $cb} END {printf "%.4f\n", x / y}' "$f"
  done | median
}
pct() { awk -v r="$1" 'BEGIN {printf "%.1f%%", 100 * r}'; }
BIG_EVENTS=$(events_of "$BIG_PROJECT"); SMALL_EVENTS=$(events_of "$SMALL_PROJECT")

log "the existing benchmarks"
# A bench that fails leaves its last line in the table, its whole output in existing.log; the table is still printed.
LAG=$( (java deploy/bench/ReadAfterWriteLag.java "$GATEWAY" 1000 3 200 2>&1 || true) | tee -a "$BENCH_DIR/existing.log" | tail -1 | tr '\n' ' ')
CALLS=$( (java deploy/bench/CallCounterBench.java "$GATEWAY" "$CALL_RECORDS" 3 2>&1 || true) | tee -a "$BENCH_DIR/existing.log" | tail -1 | tr '\n' ' ')
# Rebuilds and catch-up (issue 44) over a log of REBUILD_EVENTS: events/s against a plain JDBC read of the same log.
QUERY_PID=$(ss -ltnpH "sport = :$QUERY_PORT" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
REBUILDS=$( (API_KEY=$API_KEY GATEWAY_URL=$GATEWAY QUERY_PORT=$QUERY_PORT QUERY_PID=$QUERY_PID DB_PORT=$DB_PORT \
  EVENTS=$REBUILD_EVENTS RUNS=$RUNS CATCHUP_EVENTS=$REBUILD_EVENTS PROJECTIONS=tokens,eventlog,all,eventlog-floor,catch-up \
  deploy/bench/rebuild.sh 2>&1 || true) | tee -a "$BENCH_DIR/existing.log" | awk '$2 == "med" {printf "%s%s %s ev/s, %s×", (n++ ? "; " : ""), $1, $4, $5}')
# Live projection under the command path's ceiling, and its rate when behind under that load (issue 44).
SUSTAINED=$( (API_KEY=$API_KEY GATEWAY_URL=$GATEWAY QUERY_PORT=$QUERY_PORT QUERY_PID=$QUERY_PID DB_PORT=$DB_PORT \
  CONNECTIONS=$CONNECTIONS deploy/bench/sustained.sh 2>&1 || true) | tee -a "$BENCH_DIR/existing.log" \
  | grep -E "^(commands|projection|after|projections)" | tr '\n' ' ')
SCALE="skipped (SNAPSHOT_SCALE=0)"
if [ "$SNAPSHOT_SCALE" = 1 ]; then
  cleanup; PIDS=()  # snapshot-scale runs its own database; give it the machine
  SCALE=$(deploy/bench/snapshot-scale.sh 2>&1 | tee -a "$BENCH_DIR/existing.log" | { grep "BENCH median" || echo "failed: see existing.log"; } | tr '\n' ' ')
fi

{
  echo
  echo "| what (medians of $RUNS interleaved runs of ${DURATION}s after warm-up until steady: $(awk '{printf "%s%s %d s", (NR > 1 ? ", " : ""), $1, $2}' "$BENCH_DIR/warmed"); $CONNECTIONS connections) | figure | same-run baseline | ratio |"
  echo "|---|---|---|---|"
  echo "| commands: PATCH of 64 locales through the gateway | $(col commands 2) req/s, p50 $(col commands 3) ms, p99 $(col commands 4) ms, non-2xx $(col commands 5) | append ceiling (pgbench) $(col ceiling 2)/s | $(pct "$(ratio commands 2 ceiling 2)") |"
  echo "| the same, directly on the command service (no gateway) | $(col commands-direct 2) req/s, p50 $(col commands-direct 3) ms, p99 $(col commands-direct 4) ms, non-2xx $(col commands-direct 5) | append ceiling (pgbench) $(col ceiling 2)/s | $(pct "$(ratio commands-direct 2 ceiling 2)") |"
  echo "| the floor: the bare answer behind a Spring Security chain (an API key compared with a constant) | $(col floor 2) req/s, p50 $(col floor 3) ms, p99 $(col floor 4) ms | bare WebFlux $(col base 2) req/s | $(pct "$(ratio floor 2 base 2)") |"
  echo "| the uncached list's floor: the same 25 tokens read over R2DBC (rows and total, one statement) and rendered with Jackson, behind that chain | $(col floor-page 2) req/s, p50 $(col floor-page 3) ms, p99 $(col floor-page 4) ms | bare WebFlux $(col base 2) req/s | $(pct "$(ratio floor-page 2 base 2)") |"
  echo "| uncached list: 36 tokens, limit=25, on the query service | $(col tokens 2) req/s, p50 $(col tokens 3) ms, p99 $(col tokens 4) ms | bare WebFlux $(col base 2) req/s | $(pct "$(ratio tokens 2 base 2)") (of its floor: $(pct "$(ratio tokens 2 floor-page 2)")) |"
  echo "| the cached list's floor: the floor's answer at the intent page's size ($INTENT_BYTES bytes) | $(col floor-bytes 2) req/s, p50 $(col floor-bytes 3) ms, p99 $(col floor-bytes 4) ms | bare WebFlux $(col base 2) req/s | $(pct "$(ratio floor-bytes 2 base 2)") |"
  echo "| cached list: intents of a flow of $INTENTS, limit=25, on the query service | $(col intents 2) req/s, p50 $(col intents 3) ms, p99 $(col intents 4) ms | bare WebFlux $(col base 2) req/s | $(pct "$(ratio intents 2 base 2)") (of its floor: $(pct "$(ratio intents 2 floor-bytes 2)")) |"
  echo "| PATCH latency, 1 connection, aggregate cache on: $BIG_EVENTS-event project vs a fresh one (now $SMALL_EVENTS events) | p50 $(col h-cached-big 3) ms, p99 $(col h-cached-big 4) ms | p50 $(col h-cached-small 3) ms, p99 $(col h-cached-small 4) ms | $(ratio h-cached-big 3 h-cached-small 3)× |"
  echo "| the same, aggregate cache off (snapshots alone) | p50 $(col h-nocache-big 3) ms, p99 $(col h-nocache-big 4) ms | p50 $(col h-nocache-small 3) ms, p99 $(col h-nocache-small 4) ms | $(ratio h-nocache-big 3 h-nocache-small 3)× |"
  echo "| read-after-write lag (ReadAfterWriteLag.java, 1,000 PATCHes) | $LAG | | |"
  echo "| call counter ($CALL_RECORDS records) | $CALLS | | |"
  echo "| rebuilds over a log of $REBUILD_EVENTS+ events, and a query service that missed $REBUILD_EVENTS (catch-up) | ${REBUILDS:-failed: see existing.log} | a plain JDBC read of the whole log | (the × figures) |"
  echo "| live projection under a sustained write load (sustained.sh: PATCHes at the ceiling, the query service stopped 10 s meanwhile) | ${SUSTAINED:-failed: see existing.log} | the command rate | (the × figure) |"
  echo "| snapshot scale | $SCALE | | |"
} | tee -a "$RESULTS"
log "raw runs and logs in $BENCH_DIR"
