-- Tree-sitter without nvim-treesitter: filetype detection, the bundled parser and queries
-- highlight a T3D buffer, and blocks fold.
local t = dofile(_G.arg[1] .. '/tests/nvim/lib.lua')
t.setup_runtime()

-- Filetype detection: by extension, by first non-blank line (each kind lint knows, in any
-- case, under any extension), and not for prose, other words after Begin, or binary files.
local expected_filetypes = {
  ['room.t3d'] = 't3d',
  ['clipboard.txt'] = 't3d', -- BEGIN ACTOR
  ['polygon.txt'] = 't3d', -- Begin Polygon
  ['blank-first.txt'] = 't3d', -- blank lines, then an indented `begin brush`
  ['brush.paste'] = 't3d', -- Begin PolyList, under an extension Neovim does not know
  ['prose.txt'] = 'text',
  ['not-a-kind.txt'] = 'text', -- `Begin Mapper:`
  ['binary.txt'] = 'text', -- Begin Map, then NUL bytes
}
local filetypes = {}
for name in pairs(expected_filetypes) do
  vim.cmd.edit(vim.fn.fnameescape(t.fixture(name)))
  filetypes[name] = vim.bo.filetype
end
t.record('filetypes', filetypes)
t.expect_eq('filetypes (by extension, by first line)', filetypes, expected_filetypes)

-- The same files as `unreal-ls lint` sees them: a file it checks as T3D counts in `files`.
-- Neovim and lint must agree on every fixture, or a file lint checks opens as plain text.
if t.unreal_ls then
  local lint_kinds = {}
  for name in pairs(expected_filetypes) do
    local run = vim.system({ t.unreal_ls, 'lint', '--format', 'json', t.fixture(name) }, { text = true }):wait()
    local ok, report = pcall(vim.json.decode, run.stdout or '')
    lint_kinds[name] = ok and type(report) == 'table' and report.files == 1 and 't3d' or 'text'
  end
  t.record('lint_kinds', lint_kinds)
  t.expect_eq('what lint checks as T3D, as Neovim detects it', filetypes, lint_kinds)
end

vim.cmd.edit(vim.fn.fnameescape(t.fixture('room.t3d')))
local buf = vim.api.nvim_get_current_buf()
local highlighter_active = vim.treesitter.highlighter.active[buf] ~= nil
t.record('highlighter_active', highlighter_active)
t.expect(
  'the tree-sitter highlighter is active on the T3D buffer (ftplugin/t3d.lua, parser/t3d.so)',
  highlighter_active
)

local parser = vim.treesitter.get_parser(buf, 't3d', { error = false })
t.expect('a t3d parser is found on runtimepath', parser ~= nil)
if parser == nil then
  t.finish('treesitter_highlight')
end
local tree = parser:parse()[1]
t.record('root', tree:root():type())
t.record('has_error', tree:root():has_error())
t.expect('the fixture parses without errors', not tree:root():has_error())

-- Captures at chosen positions (0-based row, col), as `:Inspect` would show them.
local function captures_at(row, col)
  local names = {}
  for _, capture in ipairs(vim.treesitter.get_captures_at_pos(buf, row, col)) do
    table.insert(names, capture.capture)
  end
  table.sort(names)
  return names
end
local positions = {
  { 'Begin', 0, 0, { 'keyword' } },
  { 'Map', 0, 6, { 'type' } },
  { 'Class value', 1, 18, { 'type' } },
  { 'Name value', 1, 29, { 'label' } },
  { 'CsgOper', 2, 3, { 'property' } },
  { 'CSG_Subtract', 2, 11, { 'constant' } },
  { 'True', 3, 11, { 'boolean' } },
  { 'string', 4, 7, { 'string' } },
  { 'struct field X', 5, 13, { 'variable.member' } },
  { 'Origin', 9, 12, { 'function.builtin' } },
  { 'vector number', 9, 21, { 'number' } },
  { 'End Polygon', 14, 9, { 'keyword' } },
  { 'object path', 17, 15, { 'string.special.path' } },
}
local seen_at = {}
for _, p in ipairs(positions) do
  local got = captures_at(p[2], p[3])
  seen_at[p[1]] = got
  t.expect_eq(string.format('captures of %s at %d:%d', p[1], p[2], p[3]), got, p[4])
end
t.record('captures_at', seen_at)

-- Every capture the highlight query produced on the buffer, counted by name.
local query = vim.treesitter.query.get('t3d', 'highlights')
local counts = {}
for id in query:iter_captures(tree:root(), buf, 0, -1) do
  local name = query.captures[id]
  counts[name] = (counts[name] or 0) + 1
end
t.record('capture_counts', counts)
-- 5 Begin + 5 end lines; 15 vector components + Flags + 3 struct numbers... (see the JSON).
t.expect_eq('capture counts of keyword, type, number, function.builtin', {
  counts.keyword,
  counts.type,
  counts.number,
  counts['function.builtin'],
}, { 10, 7, 18, 5 })

-- Folds: each block is a fold from its Begin line to its End line.
local win = vim.api.nvim_get_current_win()
t.record('foldmethod', vim.wo[win].foldmethod)
t.expect_eq('foldmethod', vim.wo[win].foldmethod, 'expr')
vim.cmd('normal! zx')
vim.wait(1000, function()
  return vim.fn.foldlevel(10) > 0
end)
local folds = {}
for _, line in ipairs({ 1, 2, 7, 8, 9, 10, 20 }) do
  folds[tostring(line)] = vim.fn.foldlevel(line)
end
vim.cmd('normal! zM')
local closed = { map = { vim.fn.foldclosed(5), vim.fn.foldclosedend(5) } }
vim.cmd('normal! zR')
vim.api.nvim_win_set_cursor(win, { 10, 0 })
vim.cmd('normal! zc')
closed.polygon = { vim.fn.foldclosed(10), vim.fn.foldclosedend(10) }
t.record('foldlevels', folds)
t.record('closed_folds', closed)
t.expect_eq('fold levels (line -> level)', folds, { ['1'] = 1, ['2'] = 2, ['7'] = 3, ['8'] = 4, ['9'] = 5, ['10'] = 5, ['20'] = 1 })
t.expect_eq('closed folds (first, last line)', closed, { map = { 1, 20 }, polygon = { 9, 15 } })

t.finish('treesitter_highlight')
