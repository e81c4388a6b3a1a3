-- LSP helpers shared by the tests/nvim/scenarios/lsp_*.lua scenarios (a library: run only
-- scenarios/*.lua, not this folder). The server is the binary in $UNREAL_LS, started
-- through the project's nvim/lsp/unreal_ls.lua config.
local M = {}

local t
local timeout_ms = 20000

--- Points the `unreal_ls` config at $UNREAL_LS and enables it; fails the scenario without it.
function M.setup(lib, name)
  t = lib
  if not t.unreal_ls or vim.fn.executable(t.unreal_ls) ~= 1 then
    table.insert(t.failures, 'no server binary: set $UNREAL_LS (tests/nvim/run builds one)')
    t.finish(name)
  end
  t.record('server', t.unreal_ls)
  vim.lsp.config('unreal_ls', { cmd = { t.unreal_ls, 'lsp' } })
  vim.lsp.enable('unreal_ls')
end

--- The attached unreal_ls client of `buf`, waiting for it to start and initialize.
function M.client(buf)
  local client
  vim.wait(timeout_ms, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'unreal_ls' })[1]
    return client ~= nil and client.initialized
  end, 20)
  return client
end

--- Waits until `buf` has at least `count` diagnostics (or the time runs out) and returns
--- them as plain tables: code, 1-based line and column, severity name, message.
--- `unattached`: the buffer is a file the client never opened (the workspace's problems).
function M.wait_for_diagnostics(buf, count, unattached)
  if not unattached then
    local client = M.client(buf)
    t.expect('the unreal_ls client attached to the buffer', client ~= nil)
  end
  vim.wait(timeout_ms, function()
    return #vim.diagnostic.get(buf) >= count
  end, 20)
  -- A moment more: a second publish would replace, not add to, what arrived.
  vim.wait(300)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out, {
      code = d.code,
      line = d.lnum + 1,
      col = d.col + 1,
      severity = vim.diagnostic.severity[d.severity],
      message = d.message,
    })
  end
  table.sort(out, function(a, b)
    if a.line ~= b.line then
      return a.line < b.line
    end
    return tostring(a.code) < tostring(b.code)
  end)
  return out
end

--- `code:line` of each diagnostic, in the order `wait_for_diagnostics` sorted them.
function M.codes_and_lines(diagnostics)
  local out = {}
  for _, d in ipairs(diagnostics) do
    table.insert(out, string.format('%s:%d', d.code, d.line))
  end
  return out
end

local function position_params(buf, line, character)
  return {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    position = { line = line, character = character },
  }
end

--- The first non-error result of `method` at a 0-based position.
local function request(buf, method, params)
  local responses = vim.lsp.buf_request_sync(buf, method, params, timeout_ms)
  for _, response in pairs(responses or {}) do
    if response.err then
      table.insert(t.failures, string.format('%s failed: %s', method, vim.inspect(response.err)))
    elseif response.result ~= nil then
      return response.result
    end
  end
  return nil
end

--- The document's outline: the `textDocument/documentSymbol` answer.
function M.document_symbols(buf)
  return request(buf, 'textDocument/documentSymbol', { textDocument = { uri = vim.uri_from_bufnr(buf) } })
end

--- The hover text (Markdown) at a 0-based position, or nil.
function M.hover(buf, line, character)
  local result = request(buf, 'textDocument/hover', position_params(buf, line, character))
  if type(result) ~= 'table' or result.contents == nil then
    return nil
  end
  local contents = result.contents
  if type(contents) == 'string' then
    return contents
  end
  return contents.value
end

--- Completion labels at a 0-based position.
function M.completion_labels(buf, line, character)
  local result = request(buf, 'textDocument/completion', position_params(buf, line, character))
  local items = result and (result.items or result) or {}
  local labels = {}
  for _, item in ipairs(items) do
    table.insert(labels, item.label)
  end
  return labels
end

--- The first definition at a 0-based position: its file's name, 1-based line, and text.
function M.definition(buf, line, character)
  local result = request(buf, 'textDocument/definition', position_params(buf, line, character))
  if result == nil then
    return nil
  end
  local location = result.uri and result or result[1]
  if location == nil then
    return nil
  end
  local uri = location.uri or location.targetUri
  local range = location.range or location.targetSelectionRange
  local path = vim.uri_to_fname(uri)
  local lines = vim.fn.readfile(path)
  local text = (lines[range.start.line + 1] or ''):sub(range.start.character + 1, range['end'].character)
  return { file = vim.fs.basename(path), line = range.start.line + 1, text = text }
end

--- Stops every client (the server exits when its stdin closes).
function M.stop()
  for _, client in ipairs(vim.lsp.get_clients()) do
    client:stop(true)
  end
end

return M
