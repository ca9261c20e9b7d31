-- A paced load for the "analytics fixed-rate" scenarios (bench/fixed-rate.ts starts it):
--   wrk -t1 -cN -dS -s bench/wrk-paced.lua URL -- RATE KIND COUNT HOST RUN
-- RATE: requests a second for this thread; the rest are bench/wrk-load.lua's arguments (its requests,
-- its BENCH_RESULT line). wrk sends as fast as it can unless the script has delay(), which wrk calls
-- before each request of a connection and waits its answer in milliseconds. Here every connection of
-- the thread takes the next slot of one schedule, a slot every 1/RATE s from the first: the rate holds
-- on average whatever the answers' latency, and the connections are the cap on requests in flight
-- (a connection waits for its answer before it takes another slot). A connection whose slot has passed
-- sends at once, so a stall is caught up, and the sends more than LATE_US after their slot are counted.
-- At the end it prints BENCH_RESULT (wrk-load.lua) and BENCH_PACED {"sent":…,"answered":…,"late":…}.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
dofile(here .. "wrk-load.lua")

local ffi = require("ffi")
ffi.cdef([[
  typedef struct { long tv_sec; long tv_nsec; } paced_timespec;
  int clock_gettime(int clock, paced_timespec *now);
]])
local CLOCK_MONOTONIC = 1
local clock = ffi.new("paced_timespec")
local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, clock)
  return tonumber(clock.tv_sec) * 1e6 + tonumber(clock.tv_nsec) / 1e3
end

local LATE_US = 10000

local interval_us
-- The next free slot (µs, CLOCK_MONOTONIC); nil until the first connection asks.
local next_slot
-- Read by done() through thread:get(): globals of this thread's state.
sent = 0
late = 0

local load_init = init
function init(args)
  interval_us = 1e6 / tonumber(args[1])
  local rest = { [0] = args[0] }
  for i = 2, #args do rest[i - 1] = args[i] end
  load_init(rest)
end

-- The wait before a connection's next request, in whole milliseconds (wrk's timers): the next slot,
-- rounded to the nearest millisecond, so no send is more than half a millisecond off its slot.
function delay()
  local now = now_us()
  if next_slot == nil then
    -- wrk asked for one request before the load to check it: the count starts here.
    next_slot = now
    sent = 0
  end
  local slot = next_slot
  next_slot = slot + interval_us
  if now - slot > LATE_US then late = late + 1 end
  if slot <= now then return 0 end
  return math.floor((slot - now) / 1000 + 0.5)
end

local load_request = request
function request()
  sent = sent + 1
  return load_request()
end

local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
end

local load_done = done
function done(summary, latency, requests)
  load_done(summary, latency, requests)
  local total_sent, total_late = 0, 0
  for _, thread in ipairs(threads) do
    total_sent = total_sent + thread:get("sent")
    total_late = total_late + thread:get("late")
  end
  io.write(string.format('BENCH_PACED {"sent":%d,"answered":%d,"late":%d}\n',
    total_sent, summary.requests - summary.errors.status, total_late))
end
