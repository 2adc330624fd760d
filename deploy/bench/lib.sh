# Shared by the side-by-side A/B scripts (reads-ab.sh, commands-ab.sh): a stack of this build on its own ports and
# data folder, and the seeding helpers. The caller sets BENCH_DIR, PORT, COMMAND_PORT, QUERY_PORT, DB_PORT and PIDS.
log() { echo "[$(date +%T)] $*" >&2; }

start_stack() { # -> the stack up, API_KEY exported (its bootstrap key)
  DATA_DIR="$BENCH_DIR/data" PORT=$PORT COMMAND_PORT=$COMMAND_PORT QUERY_PORT=$QUERY_PORT EMBEDDED_DB_PORT=$DB_PORT \
    java -jar deploy/launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar > "$BENCH_DIR/stack.log" 2>&1 &
  PIDS+=($!)
  until grep -q "is up" "$BENCH_DIR/stack.log" 2> /dev/null; do
    grep -q "Stopped\|failed" "$BENCH_DIR/stack.log" 2> /dev/null && { cat "$BENCH_DIR/stack.log"; exit 1; }; sleep 1
  done
  # shellcheck disable=SC1091
  source "$BENCH_DIR/data/bootstrap.env"; export API_KEY=$BOOTSTRAP_API_KEY
}

post() { curl -sf -X POST "http://localhost:$PORT/new$1" -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' -d "$2"; echo; }
field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }
