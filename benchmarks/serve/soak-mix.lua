-- wrk script of the soak (soak.mjs): keep-alive, SOAK_DEPTH requests pipelined per send (1: none), cycling
-- through page HTML, the page's package by URL and negotiated on the page URL, a shared package, a 404 and a
-- Range on the page's package. SOAK_PATHS names a file of lines "page <url> <package url>" and "shared <url>".
local pages, pkgs, shared = {}, {}, {}
local depth = tonumber(os.getenv("SOAK_DEPTH") or "1")
local i = 0

init = function(args)
  for line in io.lines(os.getenv("SOAK_PATHS")) do
    local kind, a, b = line:match("^(%S+) (%S+) ?(%S*)$")
    if kind == "page" then
      pages[#pages + 1] = a
      pkgs[#pkgs + 1] = b
    elseif kind == "shared" then
      shared[#shared + 1] = a
    end
  end
end

local function one(k)
  local n = (i * 7919) % #pages + 1
  if k == 0 then return wrk.format("GET", pages[n]) end
  if k == 1 then return wrk.format("GET", pkgs[n]) end
  if k == 2 then return wrk.format("GET", pages[n], { ["X-Objpack"] = "package" }) end
  if k == 3 then return wrk.format("GET", shared[i % #shared + 1]) end
  if k == 4 then return wrk.format("GET", "/soak-missing-" .. i) end
  return wrk.format("GET", pkgs[n], { Range = "bytes=100-20000" })
end

request = function()
  local out = {}
  for _ = 1, depth do
    i = i + 1
    out[#out + 1] = one(i % 6)
  end
  return table.concat(out)
end
