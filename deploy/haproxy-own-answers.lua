-- The compose profile's balancer (haproxy-cluster.cfg, its front `callers`) answers a request
-- that its HTTP layer would not read in the contract's error body, with a Request-Id that its log
-- line carries (docs/contract.md, "Errors", "Request ids"). HAProxy 2.6 and 2.8 answer such a
-- request from their HTTP/1 layer with a built-in HTML page that no errorfile or http-error
-- changes (haproxy/haproxy#3032, fixed in later versions), so the front, a TCP layer, answers it
-- from here instead.

local SANDBOX = os.getenv("PROFILE") ~= "production"

-- Each refusal's answer: status, reason, the contract's code (§4) and message. Nothing reached a
-- replica, so nothing was done.
local REFUSALS = {
  ["transfer-encoding"] = {
    400, "Bad Request", "PAR-001",
    "the load balancer takes no Transfer-Encoding but chunked alone: nothing was sent",
  },
  ["too-large"] = {
    400, "Bad Request", "PAR-001",
    "the request headers are larger than the load balancer reads (15 KiB): nothing was sent",
  },
  ["not-http"] = {
    400, "Bad Request", "PAR-001",
    "the load balancer could not read this request as HTTP/1.1: nothing was sent",
  },
  unfinished = {
    408, "Request Timeout", "PAR-007",
    "the request headers did not arrive whole within the load balancer time (10 s): nothing was sent",
  },
}

-- A caller's Request-Id is printable ASCII (the front takes no other): only these two need escaping.
local function json_string(text)
  return '"' .. (text:gsub('[\\"]', '\\%0')) .. '"'
end

local function now_ms()
  local now = core.now()
  return now.sec * 1000 + now.usec // 1000
end

-- The first look at a connection's request: when its inspection began, for the timeout below.
core.register_action("note_arrival", { "tcp-req" }, function(txn)
  txn:set_var("txn.arrived_ms", now_ms())
end)

-- Why a request that HAProxy's HTTP parser did not take is refused: its headers never came whole
-- within the inspection time (`inspect_ms`), filled what the balancer reads (`head_limit` bytes:
-- tune.bufsize less tune.maxrewrite), or are not HTTP/1.1.
core.register_action("classify_unread", { "tcp-req" }, function(txn, inspect_ms, head_limit)
  if txn:get_var("txn.refusal") then return end
  local head = txn.sf:req_payload(0, 0) or ""
  local refusal = "not-http"
  if #head >= tonumber(head_limit) then
    refusal = "too-large"
  elseif now_ms() - txn:get_var("txn.arrived_ms") >= tonumber(inspect_ms) then
    refusal = "unfinished"
  end
  txn:set_var("txn.refusal", refusal)
end, 2)

-- The answer itself, as the service's own to a request it could not parse: JSON, its Request-Id,
-- the sandbox's CORS headers, and the connection closed (its framing cannot be trusted).
core.register_service("answer_unread", "tcp", function(applet)
  local id = applet:get_var("txn.request_id")
  local status, reason, code, message = table.unpack(REFUSALS[applet:get_var("txn.refusal")])
  applet:set_var("txn.status", status)
  local body = string.format(
    '{"type":"PARAMETER","code":"%s","message":"%s","request_id":%s}', code, message, json_string(id))
  local head = {
    string.format("HTTP/1.1 %d %s", status, reason),
    "Content-Type: application/json",
    "Content-Length: " .. #body,
    "Request-Id: " .. id,
    "Connection: close",
  }
  if SANDBOX then
    head[#head + 1] = "Access-Control-Allow-Origin: *"
    head[#head + 1] = "Access-Control-Expose-Headers: Retry-After,Location,Request-Id"
  end
  applet:send(table.concat(head, "\r\n") .. "\r\n\r\n" .. body)
end)
