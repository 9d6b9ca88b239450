# Holds N live streams open for S seconds and counts the events each got.
import socket, sys, threading, time
port, n, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
counts = [0] * n
def one(k):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /events?path=load HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    s.settimeout(1.0)
    end = time.time() + seconds
    buf = b""
    while time.time() < end:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        buf += data
        counts[k] += data.count(b"event: live")
        buf = buf[-16:]
    s.close()
ts = [threading.Thread(target=one, args=(k,)) for k in range(n)]
[t.start() for t in ts]
[t.join() for t in ts]
print(f"{n} streams: {sum(counts)} live events, min {min(counts)} per stream")
