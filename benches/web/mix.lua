-- A mix of what browsers ask: the index, a folder's page, its live state, a game,
-- and new play games (each plays the computer's first move as black), at a person's
-- pace: each connection asks about once a second (0.5 to 1.5 s apart, at random),
-- as a page open in a browser tab does, rather than as fast as the server answers.
local paths = {
  {"GET", "/"},
  {"GET", "/folder?path=load"},
  {"GET", "/live.json?path=load"},
  {"GET", "/game?path=load&id=5"},
  {"POST", "/play/new?vs=greedy&colour=white"},
}
local i = 0
request = function()
  i = i + 1
  local p = paths[(i % #paths) + 1]
  return wrk.format(p[1], p[2], {["Host"] = "127.0.0.1"})
end
-- CLOSED_LOOP=1 in the environment: as fast as the server answers (the old mode, to
-- see the server saturated).
if os.getenv("CLOSED_LOOP") == nil then
  delay = function()
    return math.random(500, 1500)
  end
end
local errors = 0
response = function(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms; %d requests, non-2xx %d, socket errors %d/%d/%d/%d\n",
    latency:percentile(50)/1000, latency:percentile(90)/1000, latency:percentile(99)/1000, latency.max/1000,
    summary.requests, summary.errors.status, summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout))
end
