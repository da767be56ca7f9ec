-- wrk script: cycles through a pre-generated request file, one request a line ("<path>\t<json body>"), each thread
-- starting at its own offset, and prints the summary as one JSON line. Arguments after `--`: file, API key.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("offset", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local requests = {}
local index = 1

function init(args)
  local file = assert(io.open(args[1], "r"))
  local headers = {
    ["Authorization"] = "Bearer " .. args[2],
    ["Content-Type"] = "application/json"
  }
  for line in file:lines() do
    local tab = string.find(line, "\t", 1, true)
    if tab ~= nil then
      table.insert(requests, wrk.format("POST", string.sub(line, 1, tab - 1), headers, string.sub(line, tab + 1)))
    end
  end
  file:close()
  -- spread the threads over the file so they do not send the same sequence in step
  index = (offset * 7919) % #requests + 1
end

function request()
  local r = requests[index]
  index = index + 1
  if index > #requests then index = 1 end
  return r
end

function done(summary, latency, _)
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"bytes":%d,"connectErrors":%d,"readErrors":%d,"writeErrors":%d,' ..
    '"statusErrors":%d,"timeouts":%d,"p50Us":%d,"p90Us":%d,"p99Us":%d,"maxUs":%d,"meanUs":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.status, summary.errors.timeout, latency:percentile(50),
    latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
