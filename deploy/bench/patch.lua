-- wrk script: PATCHes the name of the locales listed in $LOCALES (one id per line), round robin, each request a
-- change (so each appends an event). Used by deploy/bench/run-all.sh.
local ids = {}
for line in io.lines(os.getenv("LOCALES")) do
  if #line > 0 then ids[#ids + 1] = line end
end
local n = 0
wrk.method = "PATCH"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"
wrk.headers["X-API-Key"] = os.getenv("API_KEY")
local base = os.getenv("BASE_PATH") or "/new"

function setup(thread)
  thread:set("offset", math.random(0, 1000))
end

request = function()
  n = n + 1
  local id = ids[(n % #ids) + 1]
  return wrk.format(nil, base .. "/v2.0/locales/" .. id, nil,
    '{"name":"bench ' .. ((n + (offset or 0)) % 997) .. '"}')
end
