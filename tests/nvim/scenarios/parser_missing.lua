-- Without the tree-sitter parser (nvim/build-parser not run), a T3D buffer is plain text and
-- the ftplugin says so once, at WARN level, naming nvim/build-parser; once the parser is
-- there, `:edit` starts tree-sitter on the same buffer.
local t = dofile(_G.arg[1] .. '/tests/nvim/lib.lua')

-- A copy of nvim/ without parser/, as a fresh clone has it.
local copy = vim.fn.tempname() .. '/nvim'
vim.fn.mkdir(copy, 'p')
for _, name in ipairs({ 'build-parser', 'ftdetect', 'ftplugin', 'lsp', 'queries' }) do
  vim.fn.system({ 'cp', '-R', t.root .. '/nvim/' .. name, copy .. '/' .. name })
end
vim.opt.runtimepath:prepend(copy)
vim.cmd('runtime! ftdetect/*.lua')
vim.cmd('filetype plugin indent on')

local notes = {}
vim.notify = function(message, level)
  table.insert(notes, { message = message, level = level })
end

-- Two T3D buffers: one notification for both.
for _, name in ipairs({ 'room.t3d', 'polygon.txt' }) do
  vim.cmd.edit(vim.fn.fnameescape(t.fixture(name)))
end
local buf = vim.api.nvim_get_current_buf()
t.record('notifications', notes)
t.record('filetype', vim.bo[buf].filetype)
t.expect_eq('filetype without the parser', vim.bo[buf].filetype, 't3d')
t.expect('no highlighter without the parser', vim.treesitter.highlighter.active[buf] == nil)
t.expect_eq('notifications for two T3D buffers', #notes, 1)
if notes[1] then
  t.expect_eq('notification level', notes[1].level, vim.log.levels.WARN)
  t.expect(
    'the notification names the script that builds the parser: ' .. notes[1].message,
    notes[1].message:find(copy .. '/build-parser', 1, true) ~= nil
  )
end

-- The parser built (here: the one tests/nvim/run built, copied in), `:edit` brings it up.
vim.fn.mkdir(copy .. '/parser', 'p')
assert(vim.uv.fs_copyfile(t.root .. '/nvim/parser/t3d.so', copy .. '/parser/t3d.so'))
vim.cmd.edit()
local active = vim.treesitter.highlighter.active[buf] ~= nil
t.record('highlighter_after_build', active)
t.expect('after the parser is built, :edit starts the highlighter on the same buffer', active)
t.expect_eq('still one notification', #notes, 1)

t.finish('parser_missing')
