-- Shared by every scenario in tests/nvim/scenarios (run by tests/nvim/run as
-- `nvim --clean --headless -l scenario.lua ROOT`): puts the project's nvim/ folder on
-- 'runtimepath' the way a plugin manager would, records what the scenario saw, writes it as
-- JSON to tests/output/nvim/NAME.json and exits non-zero when an expectation failed.
local M = {}

M.root = assert(_G.arg[1], 'usage: nvim --clean --headless -l scenario.lua PROJECT_ROOT')
M.seen = {}
--- The built server binary, when tests/nvim/run found one (or $UNREAL_LS was set).
M.unreal_ls = os.getenv('UNREAL_LS')
M.failures = {}
-- Every message shown with vim.notify (the server's window/showMessage among them).
M.notified = {}

--- Adds nvim/ to 'runtimepath' and loads its ftdetect, as a plugin manager does at startup.
function M.setup_runtime()
  -- Headless, a message goes to stderr without a line break, and the next output line was
  -- glued to it in the suite's log: one message a line, with its level.
  vim.notify = function(message, level)
    table.insert(M.notified, tostring(message))
    local names = { [vim.log.levels.ERROR] = 'ERROR', [vim.log.levels.WARN] = 'WARN' }
    io.stderr:write(string.format('[%s] %s\n', names[level] or 'INFO', tostring(message)))
  end
  vim.opt.runtimepath:prepend(M.root .. '/nvim')
  vim.cmd('runtime! ftdetect/*.lua')
  -- What Neovim sources at startup from a plugin's plugin/ folder (:UnrealDiff).
  vim.cmd('runtime! plugin/unreal_ls.lua')
  vim.cmd('filetype plugin indent on')
end

--- A committed fixture of tests/nvim/fixtures.
function M.fixture(name)
  return M.root .. '/tests/nvim/fixtures/' .. name
end

--- Records `value` under `key` in the JSON output.
function M.record(key, value)
  M.seen[key] = value
end

--- Compares `actual` with `expected` (deeply); a mismatch is reported with `what`.
function M.expect_eq(what, actual, expected)
  if not vim.deep_equal(actual, expected) then
    table.insert(
      M.failures,
      string.format('%s: expected %s, got %s', what, vim.inspect(expected), vim.inspect(actual))
    )
  end
end

--- Fails with `what` unless `condition` holds.
function M.expect(what, condition)
  if not condition then
    table.insert(M.failures, what)
  end
end

--- Writes tests/output/nvim/NAME.json and exits: 0 when every expectation held.
function M.finish(name)
  local dir = M.root .. '/tests/output/nvim'
  vim.fn.mkdir(dir, 'p')
  M.seen.failures = M.failures
  local path = dir .. '/' .. name .. '.json'
  vim.fn.writefile({ vim.json.encode(M.seen) }, path)
  if #M.failures > 0 then
    io.stderr:write(string.format('FAIL %s (what was seen: %s)\n', name, path))
    for _, failure in ipairs(M.failures) do
      io.stderr:write('  ' .. failure .. '\n')
    end
    os.exit(1)
  end
  io.stdout:write(string.format('ok %s (%s)\n', name, path))
  os.exit(0)
end

return M
