#!/bin/bash
# The SPRT time left checked against real runs (docs/web.md, "Time left"): plays
# sprt.toml with seeds 1..N (ROUNDS, default 3) while `reversi-lab web` watches,
# records the page's time left every 10 s, then the time each run really took.
# `BIN=target/release/reversi-lab benches/web/time_left.sh`; writes only root/ and
# time_left.log beside itself.
BIN=$(realpath "${BIN:-$(command -v reversi-lab)}")
cd "$(dirname "$0")"
rm -rf root && mkdir root
$BIN web root --port 8932 > server.log 2>&1 &
SERVER=$!
sleep 1
for seed in $(seq 1 "${ROUNDS:-3}"); do
  out=root/sprt-$seed
  start=$(date +%s.%N)
  nice -n 10 $BIN run --quiet --no-report --seed "$seed" --out "$out" sprt.toml > run.log 2>&1 &
  RUN=$!
  : > "samples-$seed.log"
  while kill -0 $RUN 2>/dev/null; do
    # Asked every second (as a page's stream would), recorded every 5 s.
    for i in 1 2 3 4 5; do sleep 1; curl -s "http://127.0.0.1:8932/live.json?path=sprt-$seed" > root/last.json; done
    python3 -c '
import json, sys
j = json.load(open("root/last.json")); j["t"] = float(sys.argv[1]); print(json.dumps(j))
' "$(echo "$(date +%s.%N) - $start" | bc)" >> "samples-$seed.log" 2>/dev/null
  done
  wait $RUN
  total=$(echo "$(date +%s.%N) - $start" | bc)
  games=$(( $(wc -l < $out/games.csv) - 1 ))
  echo "seed $seed: $(grep -o 'status = "[a-z0-9-]*"' $out/run.toml) after $games games in $total s"
  python3 - "$total" "samples-$seed.log" <<'PY'
import json, sys
total = float(sys.argv[1])
for line in open(sys.argv[2]):
    j = json.loads(line); s = j.get("sprt") or {}
    if not s.get("seconds_left"):
        continue
    low, high = s["seconds_range"]
    real = total - j["t"]
    inside = "yes" if low <= real <= high else "no"
    print(f"  at {j['t']:4.0f} s: {j['games']:>6} games, LLR {s['llr']:+.2f}, Elo {s['elo'][0]:+.0f}, "
          f"time left {s['seconds_left']:4.0f} s ({low:.0f} to {high:.0f}; Wald {2 * s['wald_pairs'] / (j['rate'] or 1):.0f} s), "
          f"really {real:4.0f} s, inside: {inside}")
PY
done
kill $SERVER; wait $SERVER 2>/dev/null
