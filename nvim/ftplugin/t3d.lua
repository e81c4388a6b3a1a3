-- Tree-sitter for T3D buffers: highlighting, folds and (with nvim-treesitter) indentation,
-- from the parser on 'runtimepath' (parser/t3d.so, built by nvim/build-parser, or installed
-- by nvim-treesitter) and the queries in queries/t3d/.
if vim.b.did_ftplugin_t3d then
  return
end
vim.b.did_ftplugin_t3d = true

vim.bo.commentstring = '// %s'

vim.treesitter.language.register('t3d', 't3d')

-- Where :UnrealMapPreview writes the picture of `buf`'s map in `view`: `MAP-view.png` in
-- g:unreal_ls_preview_dir when set, else beside the map; a temporary file (gone when Neovim
-- exits) only when neither is a folder it can write, and then it says so.
local function preview_path(buf, view)
  local name = vim.api.nvim_buf_get_name(buf)
  local stem = name ~= '' and vim.fn.fnamemodify(name, ':t:r') or 'map'
  local dir = vim.g.unreal_ls_preview_dir
  if (dir == nil or dir == '') and name ~= '' then
    dir = vim.fn.fnamemodify(name, ':p:h')
  end
  if dir and dir ~= '' and vim.fn.isdirectory(dir) == 1 and vim.fn.filewritable(dir) == 2 then
    return vim.fs.joinpath(vim.fn.fnamemodify(dir, ':p'), stem .. '-' .. view .. '.png'), false
  end
  return vim.fn.tempname() .. '-' .. view .. '.png', true
end

-- :UnrealMapPreview [top|side|front|iso] asks the language server for the map's overview
-- picture (unrealLs/mapPreview, drawn from the buffer as it is now), writes it to a PNG
-- (beside the map, or in g:unreal_ls_preview_dir) and says where; with ! it also opens it
-- (vim.ui.open). The path stays in vim.b.unreal_map_preview.
vim.api.nvim_buf_create_user_command(0, 'UnrealMapPreview', function(opts)
  local buf = vim.api.nvim_get_current_buf()
  local view = opts.args ~= '' and opts.args or 'top'
  local client
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    local caps = c.server_capabilities or {}
    local ext = caps.experimental and caps.experimental.unrealLs
    if type(ext) == 'table' and ext.mapPreview then
      client = c
    end
  end
  if not client then
    vim.notify('UnrealMapPreview: no unreal-ls server with map previews is attached', vim.log.levels.WARN)
    return
  end
  local params = { uri = vim.uri_from_bufnr(buf), view = view }
  client:request('unrealLs/mapPreview', params, function(err, result)
    if err or not result then
      vim.notify('UnrealMapPreview: ' .. (err and err.message or 'no answer'), vim.log.levels.ERROR)
      return
    end
    local path, temporary = preview_path(buf, view)
    local file, open_err = io.open(path, 'wb')
    if not file then
      vim.notify('UnrealMapPreview: cannot write ' .. path .. ': ' .. tostring(open_err), vim.log.levels.ERROR)
      return
    end
    file:write(vim.base64.decode(result.pngBase64))
    file:close()
    vim.b[buf].unreal_map_preview = path
    local note = temporary and ' (a temporary file, gone when Neovim exits: set g:unreal_ls_preview_dir to keep it)' or ''
    vim.notify(string.format('Map overview (%s view, %dx%d, %d actors): %s%s', view, result.width, result.height, #result.actors, path, note))
    if opts.bang then
      vim.ui.open(path)
    end
  end, buf)
end, {
  nargs = '?',
  bang = true,
  complete = function()
    return { 'top', 'side', 'front', 'iso' }
  end,
  desc = 'unreal-ls: write the map overview picture (PNG) and show its path',
})

-- :UnrealDeps asks the language server what the map needs to load
-- (workspace/executeCommand unrealLs.mapDependencies, from the buffer as it is now) and puts
-- every name it uses in the quickfix list, package by package: what is missing first (type W),
-- then what was found (type I, with where). The answer stays in vim.b.unreal_deps.
vim.api.nvim_buf_create_user_command(0, 'UnrealDeps', function()
  local buf = vim.api.nvim_get_current_buf()
  local client
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    local commands = (c.server_capabilities or {}).executeCommandProvider
    if commands and vim.tbl_contains(commands.commands or {}, 'unrealLs.mapDependencies') then
      client = c
    end
  end
  if not client then
    vim.notify('UnrealDeps: no unreal-ls server with map dependencies is attached', vim.log.levels.WARN)
    return
  end
  local params = { command = 'unrealLs.mapDependencies', arguments = { vim.uri_from_bufnr(buf) } }
  client:request('workspace/executeCommand', params, function(err, result)
    if err or not result then
      vim.notify('UnrealDeps: ' .. (err and err.message or 'no answer'), vim.log.levels.ERROR)
      return
    end
    vim.b[buf].unreal_deps = result
    local missing, found = {}, {}
    local function add(list, used, package, where)
      local written = used.class ~= vim.NIL and used.class and (used.class .. "'" .. used.name .. "'") or used.name
      table.insert(list, {
        bufnr = buf,
        lnum = used.line,
        col = 1,
        type = list == missing and 'W' or 'I',
        text = string.format('%s: %s %s (%s)', package, used.kind, written, where),
      })
    end
    for _, p in ipairs(result.packages) do
      for _, used in ipairs(p.missing) do
        add(missing, used, p.name, p.place == 'missing' and 'missing package' or 'missing in ' .. p.place)
      end
      for _, used in ipairs(p.found) do
        add(found, used, p.name, p.place)
      end
    end
    for _, used in ipairs(result.not_found) do
      add(missing, used, '?', 'in no indexed package')
    end
    -- Without a game folder every name the map uses is listed, not checked.
    local no_game_folder = result.unchecked_reason == 'no-game-folder'
    for _, used in ipairs(no_game_folder and result.unchecked or {}) do
      add(found, used, '?', 'not checked: no game folder')
    end
    vim.fn.setqflist({}, ' ', {
      title = no_game_folder
          and string.format('unreal-ls deps: %d names, not checked: no game folder (set it with the server setting gameDirectory, or game-dir in unreal-ls.toml)', #result.unchecked)
        or string.format('unreal-ls deps: %d packages, %d missing; a server sends: %s', #result.packages, #missing,
          #result.send > 0 and table.concat(result.send, ', ') or 'nothing'),
      items = vim.list_extend(missing, found),
    })
    if no_game_folder then
      vim.notify('UnrealDeps: no game folder: the names the map uses are listed, not checked', vim.log.levels.WARN)
    end
    vim.cmd('copen')
  end, buf)
end, { desc = 'unreal-ls: what the map needs to load, in the quickfix list' })

-- :UnrealExport [file] writes the map's built level (unrealLs/levelScene, from the buffer as
-- it is now: the level UnrealEd's CSG builds, as `unreal-ls export MAP --to glb` writes it,
-- textured from the game folder) to file (default: the map's path with .glb) and says what it
-- holds; an existing file is replaced only with !. The path stays in vim.b.unreal_export.
vim.api.nvim_buf_create_user_command(0, 'UnrealExport', function(opts)
  local buf = vim.api.nvim_get_current_buf()
  local client
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
    local caps = c.server_capabilities or {}
    local ext = caps.experimental and caps.experimental.unrealLs
    if type(ext) == 'table' and ext.levelScene then
      client = c
    end
  end
  if not client then
    vim.notify('UnrealExport: no unreal-ls server that builds levels is attached', vim.log.levels.WARN)
    return
  end
  local name = vim.api.nvim_buf_get_name(buf)
  local path = opts.args ~= '' and vim.fn.fnamemodify(opts.args, ':p') or (vim.fn.fnamemodify(name, ':r') .. '.glb')
  if vim.fn.filereadable(path) == 1 and not opts.bang then
    vim.notify('UnrealExport: ' .. path .. ' exists; :UnrealExport! replaces it', vim.log.levels.WARN)
    return
  end
  client:request('unrealLs/levelScene', { uri = vim.uri_from_bufnr(buf) }, function(err, result)
    if err or not result then
      vim.notify('UnrealExport: ' .. (err and err.message or 'no answer'), vim.log.levels.ERROR)
      return
    end
    local file, open_err = io.open(path, 'wb')
    if not file then
      vim.notify('UnrealExport: cannot write ' .. path .. ': ' .. tostring(open_err), vim.log.levels.ERROR)
      return
    end
    file:write(vim.base64.decode(result.glbBase64))
    file:close()
    vim.b[buf].unreal_export = path
    vim.notify(string.format('UnrealExport: the level built from %d brushes: %d surfaces, %d materials (%d textured), %d actors: %s',
      result.brushes, result.surfaces, result.materials, result.textured, #result.actors, path))
  end, buf)
end, {
  nargs = '?',
  bang = true,
  complete = 'file',
  desc = "unreal-ls: write the map's built level as glTF (.glb)",
})

-- Set before tree-sitter starts, so that a buffer left as plain text (no parser) is set up
-- again by `:edit` once the parser is built.
vim.b.undo_ftplugin = (vim.b.undo_ftplugin or '')
  .. '\n lua pcall(vim.treesitter.stop) pcall(vim.api.nvim_buf_del_user_command, 0, "UnrealMapPreview") pcall(vim.api.nvim_buf_del_user_command, 0, "UnrealDeps") pcall(vim.api.nvim_buf_del_user_command, 0, "UnrealExport") vim.b.did_ftplugin_t3d = nil'

local started, start_error = pcall(vim.treesitter.start, 0, 't3d')
if not started then
  -- No parser yet: the buffer stays plain text (no highlighting, no folds), which looks like a
  -- broken plugin unless something says why. Say it once per session, at WARN level, with the
  -- script that builds the parser; `vim.g.t3d_parser_warning = false` silences it (for those
  -- who do without tree-sitter on purpose).
  if vim.g.t3d_parser_warning ~= false and not vim.g.t3d_parser_warned then
    vim.g.t3d_parser_warned = true
    -- This file is nvim/ftplugin/t3d.lua; the script is nvim/build-parser beside it.
    local here = vim.fs.normalize((debug.getinfo(1, 'S').source:gsub('^@', '')))
    local build = vim.fs.dirname(vim.fs.dirname(here)) .. '/build-parser'
    local reason = (tostring(start_error):gsub('\n.*', ''))
    local message
    if #vim.api.nvim_get_runtime_file('parser/t3d.*', false) == 0 then
      message = string.format(
        'unreal-ls: the tree-sitter parser for T3D was not built, so T3D buffers have no '
          .. 'highlighting or folds. Build it with %s (needs a C compiler), then reopen the file.',
        build
      )
    else
      -- A parser is there but does not load (built for another Neovim, say): rebuilding helps.
      message = string.format(
        'unreal-ls: the tree-sitter parser for T3D did not load (%s), so T3D buffers have no '
          .. 'highlighting or folds. Rebuild it with %s, then reopen the file.',
        reason,
        build
      )
    end
    vim.notify(message, vim.log.levels.WARN)
  end
  return
end

-- Blocks fold (Begin ... End); all open at first. Opt out with `vim.g.t3d_folds = false`.
-- A fold expression is evaluated line by line: on a real level (DM-Deck17, 4.2 MB, 100,000
-- lines) tree-sitter's made `:edit` 8 times slower and the first diagnostics twice as late,
-- and the language server's (vim.lsp.foldexpr) more still (docs/performance.md). Above
-- `vim.g.t3d_treesitter_fold_limit` bytes (1 MB) the folds are made once, by hand, from the
-- language server's folding ranges (one per actor and brush, what the server keeps per block),
-- when its client attaches; they follow edits as manual folds do.
local function fold_from_server(buf, client)
  client:request('textDocument/foldingRange', { textDocument = { uri = vim.uri_from_bufnr(buf) } }, function(err, ranges)
    if err or type(ranges) ~= 'table' or not vim.api.nvim_buf_is_valid(buf) then
      return
    end
    for _, win in ipairs(vim.fn.win_findbuf(buf)) do
      vim.api.nvim_win_call(win, function()
        if vim.wo.foldmethod ~= 'manual' then
          return
        end
        vim.cmd('silent! normal! zE')
        -- A new manual fold is closed, and a range that touches a closed fold takes all of it:
        -- inner folds are made before the folds around them (later starts first).
        local sorted = vim.tbl_filter(function(r)
          return r.endLine > r.startLine
        end, ranges)
        table.sort(sorted, function(a, b)
          if a.startLine ~= b.startLine then
            return a.startLine > b.startLine
          end
          return a.endLine < b.endLine
        end)
        for _, range in ipairs(sorted) do
          vim.cmd(string.format('silent! %d,%dfold', range.startLine + 1, range.endLine + 1))
        end
        vim.cmd('silent! normal! zR')
      end)
    end
    vim.b[buf].t3d_server_folds = #ranges
  end, buf)
end

if vim.g.t3d_folds ~= false then
  local buf = vim.api.nvim_get_current_buf()
  local size = vim.fn.getfsize(vim.api.nvim_buf_get_name(buf))
  local limit = vim.g.t3d_treesitter_fold_limit or 1048576
  if size <= limit then
    vim.wo[0][0].foldmethod = 'expr'
    vim.wo[0][0].foldexpr = 'v:lua.vim.treesitter.foldexpr()'
  else
    vim.wo[0][0].foldmethod = 'manual'
    -- Attached already (a second map opened in a running session), or when it attaches.
    for _, client in ipairs(vim.lsp.get_clients({ bufnr = buf, name = 'unreal_ls' })) do
      fold_from_server(buf, client)
    end
    vim.api.nvim_create_autocmd('LspAttach', {
      buffer = buf,
      callback = function(args)
        local client = vim.lsp.get_client_by_id(args.data.client_id)
        if client and client.name == 'unreal_ls' then
          fold_from_server(buf, client)
          return true
        end
      end,
    })
  end
  vim.wo[0][0].foldlevel = 99
end

-- nvim-treesitter, when installed, indents from queries/t3d/indents.scm.
local has_ts_indent = pcall(require, 'nvim-treesitter.indent')
if has_ts_indent then
  vim.bo.indentexpr = "v:lua.require'nvim-treesitter'.indentexpr()"
end
