-- :UnrealDiff {file} compares {file} (the old map) with the map in the current buffer as it is
-- now, saved or not: `unreal-ls diff`'s report, in a scratch buffer below. The binary is the
-- attached unreal-ls server's (its `cmd`), else `unreal-ls` on $PATH. The exit code stays in
-- the scratch buffer's `vim.b.unreal_diff_code` (0 same, 1 different).
if vim.g.loaded_unreal_ls_plugin then
  return
end
vim.g.loaded_unreal_ls_plugin = true

local function binary(buf)
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    local cmd = client.config and client.config.cmd
    if client.name == 'unreal_ls' and type(cmd) == 'table' and cmd[1] then
      return cmd[1]
    end
  end
  return 'unreal-ls'
end

vim.api.nvim_create_user_command('UnrealDiff', function(opts)
  local buf = vim.api.nvim_get_current_buf()
  local name = vim.api.nvim_buf_get_name(buf)
  local current = vim.fn.tempname() .. '.t3d'
  vim.fn.writefile(vim.api.nvim_buf_get_lines(buf, 0, -1, false), current)
  local other = vim.fn.expand(opts.args)
  local ok, result = pcall(function()
    return vim.system({ binary(buf), 'diff', other, current }, { text = true }):wait()
  end)
  os.remove(current)
  if not ok then
    vim.notify('UnrealDiff: cannot run unreal-ls: ' .. tostring(result), vim.log.levels.ERROR)
    return
  end
  if result.code ~= 0 and result.code ~= 1 then
    vim.notify('UnrealDiff: ' .. vim.trim(result.stderr or ''), vim.log.levels.ERROR)
    return
  end
  -- The report names the temporary copy; show the buffer's own name instead.
  local text = (result.stdout or ''):gsub(vim.pesc(current), (name:gsub('%%', '%%%%')))
  vim.cmd('botright new')
  local out = vim.api.nvim_get_current_buf()
  vim.bo[out].buftype = 'nofile'
  vim.bo[out].bufhidden = 'wipe'
  vim.bo[out].swapfile = false
  vim.api.nvim_buf_set_lines(out, 0, -1, false, vim.split(text, '\n', { trimempty = true }))
  vim.bo[out].modifiable = false
  vim.b[out].unreal_diff_code = result.code
end, {
  nargs = 1,
  complete = 'file',
  desc = 'unreal-ls: what changed between {file} and this map (actors, properties, brushes)',
})

-- :UnrealUccLog [{log}] puts UCC's errors and warnings on the class lines they blame:
-- `unreal-ls ucc-log` on {log} (default: System/UCC.log under the current folder), its JSON
-- read into the quickfix list (type E or W), which opens when anything was found. The
-- classes are looked up under the current folder (the game's folder).
vim.api.nvim_create_user_command('UnrealUccLog', function(opts)
  local log = opts.args ~= '' and vim.fn.expand(opts.args) or 'System/UCC.log'
  local ok, result = pcall(function()
    return vim.system({ binary(0), 'ucc-log', log, '--root', vim.fn.getcwd(), '--format', 'json' }, { text = true }):wait()
  end)
  if not ok then
    vim.notify('UnrealUccLog: cannot run unreal-ls: ' .. tostring(result), vim.log.levels.ERROR)
    return
  end
  if result.code ~= 0 and result.code ~= 1 then
    vim.notify('UnrealUccLog: ' .. vim.trim(result.stderr or ''), vim.log.levels.ERROR)
    return
  end
  local decoded = vim.json.decode(result.stdout or '{}')
  local items = {}
  for _, d in ipairs(decoded.diagnostics or {}) do
    table.insert(items, {
      filename = d.file,
      lnum = d.line,
      col = d.column,
      text = d.message,
      type = d.severity == 'error' and 'E' or 'W',
    })
  end
  vim.fn.setqflist({}, 'r', { title = 'UCC: ' .. log, items = items })
  vim.g.unreal_ucc_log_items = #items
  if #items > 0 then
    vim.cmd('copen')
  else
    vim.notify('UnrealUccLog: no error or warning in ' .. log)
  end
end, {
  nargs = '?',
  complete = 'file',
  desc = "unreal-ls: UCC's errors and warnings (UCC.log) in the quickfix list, on the lines they blame",
})
