-- The unreal-ls language server, for `vim.lsp.enable('unreal_ls')` (Neovim 0.11+).
-- `unreal-ls` must be on $PATH (`cargo install --path server/ls`), or override `cmd` with
-- `vim.lsp.config('unreal_ls', { cmd = { '/path/to/unreal-ls', 'lsp' } })`.
---@type vim.lsp.Config
return {
  cmd = { 'unreal-ls', 'lsp' },
  filetypes = { 't3d', 'uc' },
  -- A game folder (System/), a package folder (Classes/), or a repository.
  root_markers = { 'System', 'Classes', '.git' },
}
