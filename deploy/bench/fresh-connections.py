#!/usr/bin/env python3
# Requests on fresh connections that never get an answer: REQUESTS GETs of PATH, each on a new connection with
# `Connection: close`, CONCURRENCY at a time, against a running server; counts the answers by status and the requests
# without a complete answer within TIMEOUT seconds (issue 15: the "unanswered request" was looked for this way too).
#   python3 deploy/bench/fresh-connections.py API_KEY [PORT=8082] [PATH=/new/v2.0/projects?limit=5]
#                                              [REQUESTS=100000] [CONCURRENCY=16] [TIMEOUT=15]
import collections, socket, sys, threading, time

key = sys.argv[1]
port = int(sys.argv[2]) if len(sys.argv) > 2 else 8082
path = sys.argv[3] if len(sys.argv) > 3 else "/new/v2.0/projects?limit=5"
total = int(sys.argv[4]) if len(sys.argv) > 4 else 100_000
concurrency = int(sys.argv[5]) if len(sys.argv) > 5 else 16
timeout = float(sys.argv[6]) if len(sys.argv) > 6 else 15
request = (f"GET {path} HTTP/1.1\r\nHost: localhost\r\nX-API-Key: {key}\r\nAccept: application/json\r\n"
           "Connection: close\r\n\r\n").encode()
counts = collections.Counter()
lock = threading.Lock()
remaining = [total]

def one():
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(request)
        buf = b""
        while True:
            data = s.recv(65536)
            if not data:
                break
            buf += data
        if not buf.startswith(b"HTTP/1.1 "):
            return "no answer"
        return buf[9:12].decode()
    except socket.timeout:
        return "no answer"
    finally:
        s.close()

def worker():
    while True:
        with lock:
            if remaining[0] == 0:
                return
            remaining[0] -= 1
        try:
            outcome = one()
        except OSError as e:
            outcome = type(e).__name__
        with lock:
            counts[outcome] += 1

started = time.time()
threads = [threading.Thread(target=worker) for _ in range(concurrency)]
for t in threads:
    t.start()
for t in threads:
    t.join()
elapsed = time.time() - started
print(f"{total} requests on fresh connections, {concurrency} at a time, {elapsed:.0f} s ({total / elapsed:.0f}/s): "
      + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
sys.exit(1 if counts["no answer"] else 0)
