#!/usr/bin/env python3
"""A GTP engine that misbehaves once, on purpose, for reversi-lab's tests.

    misbehave.py MODE N MARKER -- BACKEND...

forwards every command to a real engine (BACKEND) and relays its replies, except at
its Nth `genmove` while the file MARKER does not exist yet: it then creates MARKER and
does MODE: `exit` (dies), `sleep` (never answers), `illegal` (answers a square that is
taken), `garbage` (answers text that is no move), `long` (answers a 3 MB line); `always-MODE` does it every time,
MARKER or not; `while-MODE` does it every time while MARKER exists (an engine broken
until someone fixes it). `never-start` exits at once. `no-ids` misbehaves only in
form: it drops the ids from every reply (`= 0.1.0` to `2 version`), as engines that
ignore GTP's ids do. Its pid
goes to MARKER.pid, so a test can tell whether it outlived its run.

    misbehave.py --nboard MODE N MARKER -- BACKEND...

does the same over NBoard, where the backend answers few lines and none in step: its
output is relayed as it comes, and the Nth `go` is the move that misbehaves. Two more
modes: `no-pong` swallows the Nth `ping` (a stall mid-game: the engine's start-up
ping is its first), `never-pong` every ping (an engine that never shows it started).
"""
import os
import re
import subprocess
import sys
import threading
import time

nboard = sys.argv[1] == "--nboard"
if nboard:
    del sys.argv[1]
mode, nth, marker = sys.argv[1], int(sys.argv[2]), sys.argv[3]
always = mode.startswith("always-")
broken = mode.startswith("while-")
mode = mode.removeprefix("always-").removeprefix("while-")
backend = sys.argv[sys.argv.index("--") + 1:]
with open(marker + ".pid", "a") as pids:
    pids.write(f"{os.getpid()}\n")
if mode == "never-start":
    sys.exit(3)
engine = subprocess.Popen(backend, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def claim():
    """Creates MARKER, True for the one process that made it: two workers' engines
    reaching their Nth move at once must not both misbehave."""
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        return True
    except FileExistsError:
        return False


def misbehaves(count):
    """Whether the count-th event (genmove, go, ping) is the one to misbehave at."""
    if count != nth:
        return False
    if broken:
        return os.path.exists(marker)
    return claim() or always


def serve_nboard():
    """NBoard: the backend's lines relayed as they come (nothing answers in step), a
    forged answer sent only once the backend has answered everything before it."""
    lock = threading.Lock()
    synced = threading.Event()

    def relay():
        for out in engine.stdout:
            if out.strip() == "pong misbehave-sync":
                synced.set()
                continue
            with lock:
                sys.stdout.write(out)
                sys.stdout.flush()
        os._exit(1)

    def forward(line):
        engine.stdin.write(line)
        engine.stdin.flush()

    threading.Thread(target=relay, daemon=True).start()
    gos = pings = 0
    for line in sys.stdin:
        name = line.split()[:1]
        if name == ["ping"]:
            pings += 1
            if mode == "never-pong" or (mode == "no-pong" and misbehaves(pings)):
                continue
        if name == ["go"] and mode not in ("no-pong", "never-pong"):
            gos += 1
            if misbehaves(gos):
                if mode == "exit":
                    os._exit(0)
                if mode == "sleep":
                    time.sleep(600)
                # The backend's pong for this move must come out before the answer.
                synced.clear()
                forward("ping misbehave-sync\n")
                synced.wait()
                with lock:
                    answer = "D4" if mode == "illegal" else "hello world"
                    print(f"=== {answer}", flush=True)
                continue
        forward(line)
    os._exit(0)


if nboard:
    serve_nboard()
genmoves = 0
for line in sys.stdin:
    words = line.split()
    ident = words[0] if words and words[0].isdigit() else ""
    name = (words[1:] if ident else words)[:1]
    # reversi-lab's own server is asked with its handover command instead.
    if name in (["genmove"], ["reversi_lab-genmove"]):
        genmoves += 1
        if misbehaves(genmoves):
            if mode == "exit":
                sys.exit(0)
            if mode == "sleep":
                time.sleep(600)
            answer = {"illegal": "d4", "long": "x" * 3_000_000}.get(mode, "hello world")
            print(f"={ident} {answer}\n", flush=True)
            continue
    engine.stdin.write(line)
    engine.stdin.flush()
    started = False
    while True:
        out = engine.stdout.readline()
        if not out:
            sys.exit(1)
        if out.strip() and not started and mode == "no-ids":
            out = re.sub(r"^([=?])[0-9]+", r"\1", out)
        if out.strip():
            started = True
        sys.stdout.write(out)
        if started and not out.strip():
            break
    sys.stdout.flush()
