-- wrk's script when a load answered errors (bench/run.mjs): counts each status, and prints them at the end.
local counts = {}
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end
function done(summary, latency, requests)
  for status, n in pairs(counts) do io.write(string.format("status %d: %d\n", status, n)) end
end
