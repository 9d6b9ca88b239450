#!/usr/bin/env python3
"""A GTP engine that misbehaves once, on purpose, for reversi-lab's tests.

    misbehave.py MODE N MARKER -- BACKEND...

forwards every command to a real engine (BACKEND) and relays its replies, except at
its Nth `genmove` while the file MARKER does not exist yet: it then creates MARKER and
does MODE: `exit` (dies), `sleep` (never answers), `illegal` (answers a square that is
taken), `garbage` (answers text that is no move); `always-MODE` does it every time,
MARKER or not; `while-MODE` does it every time while MARKER exists (an engine broken
until someone fixes it). `never-start` exits at once. Its pid
goes to MARKER.pid, so a test can tell whether it outlived its run.
"""
import os
import subprocess
import sys
import time

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
genmoves = 0
for line in sys.stdin:
    words = line.split()
    ident = words[0] if words and words[0].isdigit() else ""
    name = (words[1:] if ident else words)[:1]
    if name == ["genmove"]:
        genmoves += 1
        once = not broken and not os.path.exists(marker)
        if genmoves == nth and (always or once or (broken and os.path.exists(marker))):
            if not broken:
                open(marker, "w").close()
            if mode == "exit":
                sys.exit(0)
            if mode == "sleep":
                time.sleep(600)
            answer = "d4" if mode == "illegal" else "hello world"
            print(f"={ident} {answer}\n", flush=True)
            continue
    engine.stdin.write(line)
    engine.stdin.flush()
    started = False
    while True:
        out = engine.stdout.readline()
        if not out:
            sys.exit(1)
        if out.strip():
            started = True
        sys.stdout.write(out)
        if started and not out.strip():
            break
    sys.stdout.flush()
