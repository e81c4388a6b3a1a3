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
