-- The load of one benchmark scenario, run by wrk (bench/load.ts starts it):
--   wrk -t1 -cN -dS -s bench/wrk-load.lua URL -- KIND COUNT HOST RUN [PATH [USER_AGENT]]
-- KIND: fixed (GET COUNT is unused; the path is PATH_FIXED below), link (GET /<key> of a random one of
-- COUNT preloaded links), zipf (the same, the link's rank drawn with Zipf s = 1), shorten (GET
-- /v2/shorten of a new URL each time), bulk (POST /v3/shorten/bulk with COUNT new URLs).
-- At the end it prints one line, BENCH_RESULT {json}, with its own CPU time so the harness can tell
-- a run the generator limited.

local kind, count, run
local fixed_request
local made = 0

-- bench/link-keys.ts, linkKey(): 7 base62 characters, (index * PRIME + 1000003) mod 62^7.
-- Exact in Lua's doubles while index * PRIME stays under 2^53 (index below ~3.3 million).
local ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
local SPACE = 62 ^ 7
local PRIME = 2654435761
local function link_key(index)
  local n = (index * PRIME + 1000003) % SPACE
  local chars = {}
  for i = 7, 1, -1 do
    local digit = n % 62
    chars[i] = ALPHABET:sub(digit + 1, digit + 1)
    n = (n - digit) / 62
  end
  return table.concat(chars)
end

-- Zipf with s = 1 over ranks 1..count: the cumulative weights once, then a binary search for each
-- request (about 20 steps for a million links).
local cumulative
local function zipf_table()
  cumulative = {}
  local sum = 0
  for rank = 1, count do
    sum = sum + 1 / rank
    cumulative[rank] = sum
  end
end
local function zipf_rank()
  local target = math.random() * cumulative[count]
  local low, high = 1, count
  while low < high do
    local middle = math.floor((low + high) / 2)
    if cumulative[middle] < target then low = middle + 1 else high = middle end
  end
  return low
end

function init(args)
  kind = args[1]
  count = tonumber(args[2])
  wrk.headers["Host"] = args[3]
  run = args[4]
  math.randomseed(tonumber(run, 36) or os.time())
  if kind == "fixed" then
    if args[6] then wrk.headers["User-Agent"] = args[6] end
    fixed_request = wrk.format("GET", args[5])
  elseif kind == "bulk" then
    wrk.headers["Content-Type"] = "application/json"
  elseif kind == "zipf" then
    zipf_table()
  end
end

local function bulk_body()
  local items = {}
  for i = 1, count do
    made = made + 1
    items[i] = '{"url":"https://bulk.example.org/p/' .. run .. "/" .. made .. '"}'
  end
  return "[" .. table.concat(items, ",") .. "]"
end

function request()
  if kind == "fixed" then
    return fixed_request
  elseif kind == "link" then
    return wrk.format("GET", "/" .. link_key(math.random(0, count - 1)))
  elseif kind == "zipf" then
    -- Rank r is link r - 1, so the hottest link is the same one "redirect hot" uses.
    return wrk.format("GET", "/" .. link_key(zipf_rank() - 1))
  elseif kind == "shorten" then
    made = made + 1
    return wrk.format("GET", "/v2/shorten?url=https%3A%2F%2Fnew.example.org%2Fp%2F" .. run .. "%2F" .. made)
  else
    return wrk.format("POST", "/v3/shorten/bulk", nil, bulk_body())
  end
end

-- utime + stime of this process (every thread of it), in clock ticks, from /proc/self/stat.
local function cpu_ticks()
  local file = io.open("/proc/self/stat", "r")
  if not file then return -1 end
  local stat = file:read("*a")
  file:close()
  local after = stat:sub(stat:find("%)[^%)]*$") + 2)
  local fields = {}
  for field in after:gmatch("%S+") do fields[#fields + 1] = field end
  return tonumber(fields[12]) + tonumber(fields[13])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_RESULT {"requests":%d,"durationMicros":%d,"errors":%d,"p50Micros":%d,"p99Micros":%d,"cpuTicks":%d}\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50), latency:percentile(99), cpu_ticks()))
end
