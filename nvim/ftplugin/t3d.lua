-- Tree-sitter for T3D buffers: highlighting, folds and (with nvim-treesitter) indentation,
-- from the parser on 'runtimepath' (parser/t3d.so, built by nvim/build-parser, or installed
-- by nvim-treesitter) and the queries in queries/t3d/.
if vim.b.did_ftplugin_t3d then
  return
end
vim.b.did_ftplugin_t3d = true

vim.bo.commentstring = '// %s'

vim.treesitter.language.register('t3d', 't3d')

local started = pcall(vim.treesitter.start, 0, 't3d')
if not started then
  -- No parser yet: plain text, no error. `:checkhealth vim.treesitter` shows what is missing.
  return
end

-- Blocks fold (Begin ... End); all open at first. Opt out with `vim.g.t3d_folds = false`.
if vim.g.t3d_folds ~= false then
  vim.wo[0][0].foldmethod = 'expr'
  vim.wo[0][0].foldexpr = 'v:lua.vim.treesitter.foldexpr()'
  vim.wo[0][0].foldlevel = 99
end

-- nvim-treesitter, when installed, indents from queries/t3d/indents.scm.
local has_ts_indent = pcall(require, 'nvim-treesitter.indent')
if has_ts_indent then
  vim.bo.indentexpr = "v:lua.require'nvim-treesitter'.indentexpr()"
end

vim.b.undo_ftplugin = (vim.b.undo_ftplugin or '')
  .. '\n lua pcall(vim.treesitter.stop) vim.b.did_ftplugin_t3d = nil'
