-- A big map in a real Neovim (issue 42, item 6): a fold expression over a map of megabytes
-- (tree-sitter's, or the language server's) made it slower to open and to get its
-- diagnostics, so above 1 MB the folds are made by hand from the server's folding ranges. The
-- times from `:edit` to the buffer, to the first diagnostics and to the folds are recorded
-- (not asserted: timings belong to benchmarks); manual folds and a fold on an actor are
-- asserted.
local t = dofile(_G.arg[1] .. '/tests/nvim/lib.lua')
local lsp = dofile(_G.arg[1] .. '/tests/nvim/scenarios/lib/lsp.lua')
t.setup_runtime()
lsp.setup(t, 'lsp_big_map')

-- About 2 MB: a box brush of six polygons, 1,600 times, then one brush whose polygon has two
-- vertices (a finding to wait for) at the end.
local dir = vim.fn.tempname()
vim.fn.mkdir(dir, 'p')
local path = dir .. '/DM-Big.t3d'
local lines = { 'Begin Map' }
local function vertex(x, y, z)
  return string.format('            Vertex   %+013.6f,%+013.6f,%+013.6f', x, y, z)
end
local faces = {
  { { 0, 0, 0 }, { 0, 64, 0 }, { 64, 64, 0 }, { 64, 0, 0 } },
  { { 0, 0, 64 }, { 64, 0, 64 }, { 64, 64, 64 }, { 0, 64, 64 } },
  { { 0, 0, 0 }, { 64, 0, 0 }, { 64, 0, 64 }, { 0, 0, 64 } },
  { { 0, 64, 0 }, { 0, 64, 64 }, { 64, 64, 64 }, { 64, 64, 0 } },
  { { 0, 0, 0 }, { 0, 0, 64 }, { 0, 64, 64 }, { 0, 64, 0 } },
  { { 64, 0, 0 }, { 64, 64, 0 }, { 64, 64, 64 }, { 64, 0, 64 } },
}
local brushes = 1600
for i = 0, brushes - 1 do
  local ox, oy = (i % 40) * 128, math.floor(i / 40) * 128
  table.insert(lines, string.format('Begin Actor Class=Brush Name=Brush%d', i))
  table.insert(lines, '   CsgOper=CSG_Add')
  table.insert(lines, string.format('   Begin Brush Name=Model%d', i))
  table.insert(lines, '      Begin PolyList')
  for _, face in ipairs(faces) do
    table.insert(lines, '         Begin Polygon Texture=Wall')
    for _, v in ipairs(face) do
      table.insert(lines, vertex(v[1] + ox, v[2] + oy, v[3]))
    end
    table.insert(lines, '         End Polygon')
  end
  table.insert(lines, '      End PolyList')
  table.insert(lines, '   End Brush')
  table.insert(lines, string.format("   Brush=Model'MyLevel.Model%d'", i))
  table.insert(lines, 'End Actor')
end
table.insert(lines, 'Begin Actor Class=Brush Name=BrushDefect')
table.insert(lines, '   Begin Brush Name=ModelDefect')
table.insert(lines, '      Begin PolyList')
table.insert(lines, '         Begin Polygon')
local defect_line = #lines + 1
table.insert(lines, vertex(0, 0, 0))
table.insert(lines, vertex(128, 0, 0))
table.insert(lines, '         End Polygon')
table.insert(lines, '      End PolyList')
table.insert(lines, '   End Brush')
table.insert(lines, "   Brush=Model'MyLevel.ModelDefect'")
table.insert(lines, 'End Actor')
table.insert(lines, 'End Map')
vim.fn.writefile(lines, path)
local size = vim.fn.getfsize(path)
t.record('bytes', size)
t.expect('the map is over the 1 MB fold limit', size > 1048576)

local start = vim.uv.hrtime()
vim.cmd.edit(vim.fn.fnameescape(path))
local edited_ms = (vim.uv.hrtime() - start) / 1e6
local buf = vim.api.nvim_get_current_buf()
t.record('edit_ms', edited_ms)
t.expect_eq('filetype', vim.bo[buf].filetype, 't3d')
t.record('foldexpr', vim.wo.foldexpr)
t.record('foldmethod', vim.wo.foldmethod)
t.expect_eq('a big map folds by hand, from the server', vim.wo.foldmethod, 'manual')

local diagnostics = lsp.wait_for_diagnostics(buf, 1)
local diagnostics_ms = (vim.uv.hrtime() - start) / 1e6
t.record('first_diagnostics_ms', diagnostics_ms)
local codes = {}
for _, d in ipairs(diagnostics) do
  if d.code == 't3d-too-few-vertices' then
    table.insert(codes, string.format('%s:%d', d.code, d.line))
  end
end
t.expect_eq('the defect at the end is found', codes, { 't3d-too-few-vertices:' .. (defect_line - 1) })

-- A line inside the first actor (lines 2 to 45) is in a fold once the server's ranges are in.
local actor_line = 3
vim.wait(20000, function()
  return vim.b[buf].t3d_server_folds ~= nil
end, 20)
t.record('server_folds', vim.b[buf].t3d_server_folds)
local folded_ms = (vim.uv.hrtime() - start) / 1e6
t.record('first_fold_ms', folded_ms)
t.expect('an actor of the big map folds', vim.fn.foldlevel(actor_line) > 0)
io.stdout:write(string.format('DM-Big.t3d (%.1f MB): :edit %.0f ms, first diagnostics %.0f ms, folds %.0f ms after :edit began\n',
  size / 1048576, edited_ms, diagnostics_ms, folded_ms))

lsp.stop()
t.finish('lsp_big_map')
