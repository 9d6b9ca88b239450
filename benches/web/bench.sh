#!/bin/bash
# The web view's load figures (docs/web.md, "Load"): games/s of a run alone over 30 s,
# then of the same run over 30 s while the server answers 200 wrk connections that
# each ask about once a second as a browser tab does (mix.lua: index, folder page,
# live state, a game, a new play game with the computer's first move) and 50 live
# streams, then alone again over 30 s (the machine's other load moves meanwhile).
# `BIN=target/release/reversi-lab benches/web/bench.sh` (needs wrk: apt-get install wrk);
# it writes only root/ and its logs beside itself.
BIN=$(realpath "${BIN:-$(command -v reversi-lab)}")
cd "$(dirname "$0")"
rows() { wc -l < root/load/games.csv; }
rm -rf root && mkdir root
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
$BIN run --quiet --no-report --out root/load load.toml > run.log 2>&1 &
RUN=$!
sleep 3; c0=$(rows); sleep 30; c1=$(rows)
kill $RUN; wait $RUN
echo "alone: $(( (c1 - c0) )) games in 30 s = $(( (c1 - c0) / 30 )) games/s"
rm -rf root/load
$BIN web root --port 8931 > server.log 2>&1 &
SERVER=$!
$BIN run --quiet --no-report --out root/load load.toml > run.log 2>&1 &
RUN=$!
sleep 3
echo "server RSS before: $(ps -o rss= -p $SERVER) KiB, threads $(ps -o nlwp= -p $SERVER)"
c0=$(rows)
python3 streams.py 8931 50 30 > streams.log 2>&1 &
STREAMS=$!
wrk -t 2 -c 200 -d 30s --timeout 10s -s mix.lua http://127.0.0.1:8931/ > wrk.log 2>&1
c1=$(rows)
wait $STREAMS
echo "server RSS after: $(ps -o rss= -p $SERVER) KiB, threads $(ps -o nlwp= -p $SERVER)"
echo "under load: $(( (c1 - c0) )) games in 30 s = $(( (c1 - c0) / 30 )) games/s"
echo "load average under load: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -E "Requests/sec|Latency|p50|non-2xx|Socket|requests in" wrk.log || cat wrk.log
cat streams.log
kill $SERVER; wait $SERVER
sleep 1; c0=$(rows); sleep 30; c1=$(rows)
echo "alone again: $(( (c1 - c0) )) games in 30 s = $(( (c1 - c0) / 30 )) games/s"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
kill $RUN; wait $RUN
