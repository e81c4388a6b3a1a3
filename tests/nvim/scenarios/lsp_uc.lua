-- The language server in a real Neovim on an UnrealScript class with broken `#exec` lines,
-- inside a package folder (`Skulls/Classes/Skull.uc` with `Skulls/Models/`): the diagnostics
-- name the misspelt key and the missing file, hover documents a key from the command table,
-- completion after the command offers its keys, and a class of the package that is never
-- opened gets its problem from the workspace check (vim.diagnostic).
local t = dofile(_G.arg[1] .. '/tests/nvim/lib.lua')
local lsp = dofile(_G.arg[1] .. '/tests/nvim/scenarios/lib/lsp.lua')
t.setup_runtime()
lsp.setup(t, 'lsp_uc')

local root = vim.fn.tempname() .. '/Skulls'
vim.fn.mkdir(root .. '/Classes', 'p')
vim.fn.mkdir(root .. '/Models', 'p')
-- The smallest vertex mesh the readers accept: a 48-byte header with 1 triangle, 3 vertices
-- and one 16-byte triangle; 1 frame of 3 vertices (4 bytes each) in the animation file.
local data = string.char(1, 0, 3, 0) .. string.rep('\0', 44) .. string.char(0, 0, 1, 0, 2, 0) .. string.rep('\0', 10)
local aniv = string.char(1, 0, 12, 0) .. string.rep('\0', 12)
for name, bytes in pairs({ ['Skull_d.3d'] = data, ['Skull_a.3d'] = aniv }) do
  local file = assert(io.open(root .. '/Models/' .. name, 'wb'))
  file:write(bytes)
  file:close()
end
local path = root .. '/Classes/Skull.uc'
vim.fn.writefile({
  'class Skull extends Decoration;',
  '',
  '#exec MESH IMPORT MESH=Skull ANIVFILE=Models\\Skull_a.3d DATAFILE=Models\\Skull_d.3d',
  '#exec MESH SEQUENCE MESH=Skull SEQ=All STARTFRAME=0 NUMFRAMES=1 RATEE=10',
  '#exec TEXTURE IMPORT NAME=JSkull1 FILE=Textures\\Skull1.pcx GROUP=Skins',
  '#exec MESHMAP SETTEXTURE MESHMAP=Skull NUM=0 TEXTURE=JSkull1',
  '',
  'defaultproperties',
  '{',
  '}',
}, path)

-- A class of the same package that is never opened: the workspace check lists its problem.
local unopened = root .. '/Classes/SkullShadow.uc'
vim.fn.writefile({
  'class SkullShadow extends Decoration;',
  '#exec TEXTURE IMPORT NAME=Shadow FILE=Textures\\Shadow.pcx',
}, unopened)

vim.cmd.edit(vim.fn.fnameescape(path))
local buf = vim.api.nvim_get_current_buf()
t.record('filetype', vim.bo[buf].filetype)
t.expect_eq('filetype of Skull.uc', vim.bo[buf].filetype, 'uc')

local diagnostics = lsp.wait_for_diagnostics(buf, 2)
t.record('diagnostics', diagnostics)
t.expect_eq('diagnostics (code and line)', lsp.codes_and_lines(diagnostics), {
  'exec-misspelt-key:4',
  'exec-missing-file:5',
})

-- The never-opened class's problem, from the workspace check (the client keeps it on a
-- buffer it makes for the file, not loaded).
local unopened_buf = vim.fn.bufadd(unopened)
local unopened_diagnostics = lsp.wait_for_diagnostics(unopened_buf, 1, true)
t.record('unopened_diagnostics', unopened_diagnostics)
t.expect_eq('the unopened class is not loaded', vim.api.nvim_buf_is_loaded(unopened_buf), false)
t.expect_eq('diagnostics of the class never opened', lsp.codes_and_lines(unopened_diagnostics), {
  'exec-missing-file:2',
})

-- Hover on `NUMFRAMES` (line 4): the key's documentation from the command table.
local hover = lsp.hover(buf, 3, 55)
t.record('hover_key', hover)
t.expect('hover on NUMFRAMES= documents the key', hover ~= nil and hover:find('NUMFRAMES=', 1, true) ~= nil)
t.expect('hover on NUMFRAMES= says it is required', hover ~= nil and hover:find('required', 1, true) ~= nil)

-- Completion after `#exec MESH SEQUENCE MESH=Skull ` on a new line 7: the remaining keys.
vim.api.nvim_buf_set_lines(buf, 6, 7, false, { '#exec MESH SEQUENCE MESH=Skull ' })
local labels = lsp.completion_labels(buf, 6, 31)
t.record('completion_keys', labels)
t.expect_eq('completion of MESH SEQUENCE keys', labels, { 'SEQ=', 'STARTFRAME=', 'NUMFRAMES=', 'RATE=', 'GROUP=' })

-- :UnrealUccLog reads a UCC.log written in the engine's wording into the quickfix list, each
-- message on the class line it blames (the classes found under the current folder).
local game = vim.fn.fnamemodify(root, ':h')
vim.fn.mkdir(game .. '/System', 'p')
vim.fn.writefile({
  'Log: --------------------Skulls - Release--------------------',
  'Error: C:\\UT\\Skulls\\Classes\\Skull.uc(4) : Error, Bad or missing expression',
  'ExecWarning: C:\\UT\\Skulls\\Classes\\Skull.uc(5) : ExecWarning, Import texture JSkull1 from Textures\\Skull1.pcx failed',
}, game .. '/System/UCC.log')
vim.cmd('cd ' .. vim.fn.fnameescape(game))
vim.cmd('UnrealUccLog')
local quickfix = vim.fn.getqflist()
local found = {}
for _, item in ipairs(quickfix) do
  table.insert(found, string.format('%s:%d:%s', vim.fn.fnamemodify(vim.fn.bufname(item.bufnr), ':t'), item.lnum, item.type))
end
t.record('ucc_log', found)
t.expect_eq(':UnrealUccLog puts UCC\'s messages on their lines', found, { 'Skull.uc:4:E', 'Skull.uc:5:W' })

lsp.stop()
t.finish('lsp_uc')
