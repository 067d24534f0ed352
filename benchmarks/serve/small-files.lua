-- wrk script: cycle through the benchmark's 100 small files (/s/000.css … /s/099.css), keep-alive.
local i = 0
request = function()
  local path = string.format("/s/%03d.css", i)
  i = (i + 1) % 100
  return wrk.format("GET", path)
end
