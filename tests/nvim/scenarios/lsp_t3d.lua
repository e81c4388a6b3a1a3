-- The language server in a real Neovim on a T3D map with defects: the expected diagnostics
-- arrive, hover on `Flags=` decodes the poly flags, and go to definition on a
-- `Model'MyLevel.Model1'` reference lands on the brush's `Begin Brush Name=Model1` line;
-- :UnrealMapPreview writes the map's overview picture; :UnrealExport writes a map's built level.
local t = dofile(_G.arg[1] .. '/tests/nvim/lib.lua')
local lsp = dofile(_G.arg[1] .. '/tests/nvim/scenarios/lib/lsp.lua')
t.setup_runtime()
lsp.setup(t, 'lsp_t3d')

-- A UE1 map (bare texture names, a Pan line): a polygon whose normal points the wrong way,
-- one with two vertices, an editor-only flag, and a brush whose model is never defined.
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local path = dir .. '/Defects.t3d'
vim.fn.writefile({
  'Begin Map',
  'Begin Actor Class=Brush Name=Brush0',
  '   Begin Brush Name=Model1',
  '      Begin PolyList',
  '         Begin Polygon Texture=Wall Flags=258',
  '            Origin   +00000.000000,+00000.000000,+00000.000000',
  '            Normal   +00000.000000,+00000.000000,-00001.000000',
  '            Pan      U=4 V=0',
  '            Vertex   +00000.000000,+00000.000000,+00000.000000',
  '            Vertex   +00128.000000,+00000.000000,+00000.000000',
  '            Vertex   +00128.000000,+00128.000000,+00000.000000',
  '         End Polygon',
  '         Begin Polygon Texture=Floor Flags=268435456',
  '            Vertex   +00000.000000,+00000.000000,+00000.000000',
  '            Vertex   +00128.000000,+00000.000000,+00000.000000',
  '         End Polygon',
  '      End PolyList',
  '   End Brush',
  "   Brush=Model'MyLevel.Model1'",
  'End Actor',
  'Begin Actor Class=Brush Name=Brush1',
  "   Brush=Model'MyLevel.Model9'",
  'End Actor',
  'End Map',
}, path)

vim.cmd.edit(vim.fn.fnameescape(path))
local buf = vim.api.nvim_get_current_buf()
t.record('filetype', vim.bo[buf].filetype)
t.expect_eq('filetype of Defects.t3d', vim.bo[buf].filetype, 't3d')

-- Diagnostics: each rule code once, with the 1-based line it points at.
-- The editor-only flag on line 13 is no finding (import clears it); the wrong normal on
-- line 7 is a hint (import recomputes it), faded as unnecessary.
local diagnostics = lsp.wait_for_diagnostics(buf, 3)
t.record('diagnostics', diagnostics)
t.expect_eq('diagnostics (code and line)', lsp.codes_and_lines(diagnostics), {
  't3d-normal-mismatch:7',
  't3d-too-few-vertices:13',
  't3d-unresolved-brush-model:22',
})
t.expect_eq('the normal mismatch is a hint', diagnostics[1].severity, 'HINT')

-- The outline lists the map's actors, nothing inside them.
local symbols = lsp.document_symbols(buf) or {}
local outline = {}
for _, actor in ipairs(symbols[1] and symbols[1].children or {}) do
  table.insert(outline, string.format('%s (%s, %d inside)', actor.name, actor.detail or '', #(actor.children or {})))
end
t.record('outline', outline)
t.expect_eq('the outline lists the actors', outline, {
  'Brush0 (Brush, builder brush, 2 polygons, 0 inside)',
  'Brush1 (Brush, builder brush, 0 polygons, 0 inside)',
})

-- Without a game folder the server says once, on screen, that references are not checked.
local noticed = vim.tbl_filter(function(m) return m:find('not checked', 1, true) ~= nil end, t.notified)
t.expect_eq('the no-game-folder notice is shown once', #noticed, 1)

-- Hover on `Flags=258` (line 5): the decoded flags for UE1.
local hover = lsp.hover(buf, 4, 40)
t.record('hover_flags', hover)
t.expect('hover on Flags= names PF_Masked', hover ~= nil and hover:find('PF_Masked', 1, true) ~= nil)
t.expect('hover on Flags= names PF_TwoSided', hover ~= nil and hover:find('PF_TwoSided', 1, true) ~= nil)
t.expect('hover on Flags= shows the hex value', hover ~= nil and hover:find('0x00000102', 1, true) ~= nil)

-- Go to definition on `Model1` in `Brush=Model'MyLevel.Model1'` (line 19).
local target = lsp.definition(buf, 18, 25)
t.record('definition', target)
t.expect_eq('definition of Model\'MyLevel.Model1\'', target, {
  file = 'Defects.t3d',
  line = 3,
  text = 'Model1',
})

-- :UnrealMapPreview writes the map's overview picture and keeps its path in the buffer.
vim.cmd('UnrealMapPreview iso')
vim.wait(20000, function()
  return vim.b[buf].unreal_map_preview ~= nil
end, 20)
local picture = vim.b[buf].unreal_map_preview
t.record('map_preview', picture)
local head = ''
if picture then
  local file = io.open(picture, 'rb')
  if file then
    head = file:read(8) or ''
    file:close()
  end
end
t.expect('UnrealMapPreview wrote a PNG', head == '\137PNG\r\n\26\n')
-- Beside the map, not in Neovim's temporary folder (gone when Neovim exits).
t.expect('UnrealMapPreview wrote it beside the map', picture == dir .. '/Defects-iso.png')

-- :UnrealDeps asks the server what the map needs; without a game folder there is nothing to
-- resolve against: the names the map uses are listed in the quickfix list, not checked, and
-- a warning says why.
vim.cmd('UnrealDeps')
vim.wait(20000, function()
  return #vim.tbl_filter(function(m) return m:find('UnrealDeps', 1, true) ~= nil end, t.notified) > 0
end, 20)
local deps_notes = vim.tbl_filter(function(m) return m:find('UnrealDeps', 1, true) ~= nil end, t.notified)
t.record('deps', deps_notes)
t.expect('UnrealDeps reaches the server, which names the missing game folder', deps_notes[1] ~= nil and deps_notes[1]:find('no game folder', 1, true) ~= nil)
local qf = vim.fn.getqflist({ title = 1, items = 1 })
t.record('deps_quickfix', { title = qf.title, count = #qf.items })
t.expect('the quickfix list holds the names the map uses, not checked', #qf.items > 0 and qf.title:find('not checked', 1, true) ~= nil)
vim.cmd('cclose')

-- :UnrealDiff compares another version of the map (with a light the buffer lacks) with the
-- buffer, and shows the report in a scratch buffer.
local older = dir .. '/Older.t3d'
local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
local with_light = {}
for _, line in ipairs(lines) do
  if line == 'End Map' then
    vim.list_extend(with_light, { 'Begin Actor Class=Light Name=Light0', '     Location=(X=64.000000)', 'End Actor' })
  end
  table.insert(with_light, line)
end
vim.fn.writefile(with_light, older)
vim.cmd('UnrealDiff ' .. older)
local report = vim.api.nvim_buf_get_lines(0, 0, -1, false)
t.record('diff_report', report)
t.expect('UnrealDiff shows the report in a scratch buffer', vim.bo.buftype == 'nofile' and vim.b.unreal_diff_code == 1)
t.expect('UnrealDiff reports the removed light', report[1] ~= nil and report[1]:find('1 actor removed', 1, true) ~= nil)
vim.cmd('close')

-- :UnrealExport writes the built level of a room (one subtracted polygon) as a .glb beside it.
local room = dir .. '/Room.t3d'
vim.fn.writefile(vim.fn.readfile(t.fixture('room.t3d')), room)
vim.cmd.edit(vim.fn.fnameescape(room))
local room_buf = vim.api.nvim_get_current_buf()
t.expect('the unreal_ls client attached to Room.t3d', lsp.client(room_buf) ~= nil)
vim.cmd('UnrealExport')
vim.wait(20000, function()
  return vim.b[room_buf].unreal_export ~= nil
end, 20)
local exported = vim.b[room_buf].unreal_export
t.record('export', exported)
local magic = ''
if exported then
  local file = io.open(exported, 'rb')
  if file then
    magic = file:read(4) or ''
    file:close()
  end
end
t.expect_eq('UnrealExport wrote Room.glb', exported, dir .. '/Room.glb')
t.expect('UnrealExport wrote a .glb', magic == 'glTF')
local export_notes = vim.tbl_filter(function(m) return m:find('UnrealExport', 1, true) ~= nil end, t.notified)
t.record('export_notes', export_notes)
t.expect('UnrealExport says it wrote the built level', export_notes[1] ~= nil and export_notes[1]:find('1 surfaces', 1, true) ~= nil)

lsp.stop()
t.finish('lsp_t3d')
