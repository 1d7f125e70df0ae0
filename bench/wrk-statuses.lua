-- wrk's script when a load answered errors (bench/run.mjs): counts each status in each thread, and prints them at
-- the end (`done` runs in wrk's main state: it reads each thread's counts through thread:get).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      io.write(string.format("status %d: %d\n", status, n))
    end
  end
end
