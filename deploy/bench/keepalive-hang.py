#!/usr/bin/env python3
# Requests on a reused (keep-alive) connection that never get an answer. Replays the hostile corpus of the command
# service's HostileCorpusTest (written by it with -Dcorpus.dump=FILE) ROUNDS times against a running service, every
# request on one connection for as long as the server keeps it open, and counts the requests without an answer within
# TIMEOUT seconds (then it opens a new connection and goes on). On Reactor Netty 1.3.6 a few in a thousand got none
# (reactor-netty #4361, README "Netty transport"); on 1.3.8, none.
#   ./mvnw -B -o verify -pl command-service -Dit.test=none -Dtest=HostileCorpusTest -DargLine=-Dcorpus.dump=/tmp/corpus.txt
#   python3 deploy/bench/keepalive-hang.py /tmp/corpus.txt API_KEY [PORT=8081] [ROUNDS=3] [TIMEOUT=5]
import base64, socket, sys

file, key = sys.argv[1], sys.argv[2]
port = int(sys.argv[3]) if len(sys.argv) > 3 else 8081
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 5
requests = [base64.b64decode(line).replace(b"API_KEY", key.encode()) for line in open(file) if line.strip()]

def connect():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(timeout)
    return s

def answer(s):
    buf = b""
    while b"\r\n\r\n" not in buf:
        data = s.recv(65536)
        if not data:
            return None, True
        buf += data
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    headers = {l.split(b":", 1)[0].strip().lower(): l.split(b":", 1)[1].strip() for l in lines[1:] if b":" in l}
    length = int(headers.get(b"content-length", b"0"))
    while len(rest) < length:
        rest += s.recv(65536)
    return int(lines[0].split(b" ")[1]), headers.get(b"connection") == b"close"

statuses, unanswered, total = {}, [], 0
for _ in range(rounds):
    s = connect()
    previous = None
    for request in requests:
        total += 1
        try:
            s.sendall(request)
            status, closed = answer(s)
            statuses[status] = statuses.get(status, 0) + 1
            if closed:
                s.close()
                s = connect()
        except socket.timeout:
            unanswered.append((request.split(b"\r\n")[0][:100], previous))
            s.close()
            s = connect()
        except (ConnectionResetError, BrokenPipeError):
            s.close()
            s = connect()
        previous = request.split(b"\r\n")[0][:100]
print(f"{total} requests on keep-alive connections: {len(unanswered)} unanswered within {timeout} s; "
      f"answered {statuses}")
for request, before in unanswered:
    print(f"UNANSWERED {request!r} after {before!r}")
