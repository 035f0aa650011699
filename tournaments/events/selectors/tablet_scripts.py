"""The tablets' cache in Redis: its two scripts, and how a write's visit moves on the copies
its change retires, before the work, so that the write asks Redis nothing after its commit.

`tablet_cache` says what is cached and under which versions (each copy is kept under the
versions read before what it holds, and a change moves them on after its commit). A version
moved on before the commit could be read by another request before the commit too, which
would then keep a copy of the old rows under the new version. So the write's visit also marks
each version it moves as pending, under a receipt (a random number; `tablet-pending:` keys, a
sorted set of receipts by the time each lapses): while any receipt on a version is pending, a
request that reads it keeps nothing that hangs on it (it still answers from the database).
A receipt ends in one of two ways:
- the write's answer carries it (the `Clubwhist-Receipt` header) and the tablet sends it back
  with its next request (the refresh it makes at once); that request's visit ends it before
  reading anything. The answer is sent after the commit, so the refresh reads committed rows;
- it lapses `PENDING_MS` after the visit. A write whose commit ends later than
  `PENDING_MS - PENDING_MARGIN` after its visit began moves the versions on again after its
  commit, as every other change does: a request that found the receipt lapsed before that
  commit kept a copy under a version this retires.
Two writes on one table hold two receipts: the versions stay pending until both have ended.
The versions the visit moved are the ones the write's own change retires in the usual case
(a new result: the table's; a confirmation of the round's result: the table's, its round's,
and the rounds of the tables it sends players or boards to, kept in the link's copy);
anything else the write changes is retired after the commit as before (`_bump` skips only
what the visit moved). A refused write has moved them for nothing: its table's copies are
computed again, and its receipt ends the same way.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from dataclasses import dataclass

PENDING = "tablet-pending:"  # + a version's suffix: the receipts pending on it
RECEIPT = "tablet-receipt:"  # + a receipt: the pending keys it holds

#: How long a write's receipt holds its versions pending at most (its answer normally ends it
#: sooner), and how long before that the write must have committed to leave the versions as
#: its visit moved them. Redis times the lapse by its own clock (TIME), the write by the
#: process's: the margin covers the two drifting apart and the time to the script.
PENDING_MS = 3000
PENDING_MARGIN = 1.0

# Keys of a section's versions and of their pending receipts, by suffix: "<section>",
# "<section>:<table>", "<section>:<table>:round" (`tablet_cache._version_key`).
#
# KEYS: the request count, the link's copy, the state's copy.
# ARGV: 1 the counting window in milliseconds (0: not counted), 2 the versions' key prefix,
# 3 the pending receipts' key prefix, 4 the receipts' key prefix, 5 a receipt the tablet
# brought back ('' if none), 6 what this request writes ('': nothing; 'entered': a new
# result; 'confirmed': a confirmation), 7 the request limit of the window, 8 this write's
# receipt (also the versions' new value: digits, which Django's cache reads as a number),
# 9 PENDING_MS.
# A fixed window: the first request starts it, and it ends that long after. The link's copy
# opens with "<section> <table>[ <table>...]\n": the tables after the first are those a
# confirmation of the table's round sends players or boards to.
# Returns {hits, left, link, 3 versions, state, pending (a bit a version: table 2,
# round 4), the suffixes this write moved (space-separated) or false}.
VISIT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
if ARGV[5] ~= '' then
  local held = redis.call('GET', ARGV[4] .. ARGV[5])
  if held then
    for key in string.gmatch(held, '%S+') do
      redis.call('ZREM', key, ARGV[5])
    end
    redis.call('DEL', ARGV[4] .. ARGV[5])
  end
end
local hits, left = false, false
local window = tonumber(ARGV[1])
if window > 0 then
  hits = redis.call('INCR', KEYS[1])
  left = redis.call('PTTL', KEYS[1])
  if left < 0 then
    redis.call('PEXPIRE', KEYS[1], window)
    left = window
  end
end
local link = redis.call('GET', KEYS[2])
if not link then
  return {hits, left, false, false, false, false, false, 0, false}
end
local section, tbl, others = string.match(link, '^(%d+) (%d+)([ %d]*)\\n')
if not section then
  return {hits, left, false, false, false, false, false, 0, false}
end
local at = section .. ':' .. tbl
local suffixes = {section, at, at .. ':round'}
local versions = redis.call('MGET', ARGV[2] .. suffixes[1], ARGV[2] .. suffixes[2],
  ARGV[2] .. suffixes[3])
local pending = 0
for i = 2, 3 do
  if redis.call('ZCOUNT', ARGV[3] .. suffixes[i], now, '+inf') > 0 then
    pending = pending + 2 ^ (i - 1)
  end
end
local state = redis.call('GET', KEYS[3])
local moved = false
if ARGV[6] ~= '' and (window == 0 or hits <= tonumber(ARGV[7])) then
  local write = {at}
  if ARGV[6] == 'confirmed' then
    write[2] = at .. ':round'
    for other in string.gmatch(others, '%d+') do
      write[#write + 1] = section .. ':' .. other .. ':round'
    end
  end
  local span = tonumber(ARGV[9])
  local held = {}
  for i, suffix in ipairs(write) do
    local receipts = ARGV[3] .. suffix
    redis.call('SET', ARGV[2] .. suffix, ARGV[8])
    redis.call('ZREMRANGEBYSCORE', receipts, '-inf', now)
    redis.call('ZADD', receipts, now + span, ARGV[8])
    redis.call('PEXPIRE', receipts, span + 1000)
    held[i] = receipts
  end
  redis.call('SET', ARGV[4] .. ARGV[8], table.concat(held, ' '), 'PX', span)
  moved = table.concat(write, ' ')
end
return {hits, left, link, versions[1], versions[2], versions[3], state, pending, moved}
"""

# The link's three versions when its copy was not found: each made if missing (ARGV 4, as a
# visit's write makes them), and which are pending (as VISIT). ARGV: 1 the versions' key
# prefix, 2 the pending receipts' prefix, 3 the three suffixes (space-separated), 4 a new
# version.
VERSIONS = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local found, pending, i = {}, 0, 1
for suffix in string.gmatch(ARGV[3], '%S+') do
  redis.call('SET', ARGV[1] .. suffix, ARGV[4], 'NX')
  found[i] = redis.call('GET', ARGV[1] .. suffix)
  if i > 1 and redis.call('ZCOUNT', ARGV[2] .. suffix, now, '+inf') > 0 then
    pending = pending + 2 ^ (i - 1)
  end
  i = i + 1
end
return {found[1], found[2], found[3], pending}
"""


@dataclass(frozen=True)
class Prebumped:
    """The versions a write's visit moved on (their keys, as `_version_key` names them), and
    the time (`time.monotonic`) by which its commit must end for them to stay as moved."""

    keys: frozenset[str]
    deadline: float


#: What the write running in this context moved in its visit (`events.api.tablets.TabletView` sets
#: and resets it around each request), for `tablet_cache._bump` to leave alone.
PREBUMPED: ContextVar[Prebumped | None] = ContextVar("tablet_prebumped", default=None)

_RECEIPT_FORM = re.compile(r"[1-9][0-9]{0,19}")


def receipt_or_none(raw: str | None) -> str | None:
    """A receipt as a tablet sends it back, if it looks like one (anything else is ignored:
    the worst a wrong one can do is end nothing)."""
    return raw if raw is not None and _RECEIPT_FORM.fullmatch(raw) else None
