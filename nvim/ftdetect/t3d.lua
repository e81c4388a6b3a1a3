-- T3D: UnrealEd's text export of maps, brushes and actors. By extension, and for any other
-- file by its first line (`Begin Map`, `Begin Actor`, `Begin PolyList`, `Begin Brush`, in any
-- case, after an optional UTF-8 byte-order mark): clipboard dumps are often saved as .txt.
local first_line_kinds = { map = true, actor = true, polylist = true, brush = true }

local function t3d_by_first_line(_, bufnr)
  if not bufnr then
    return nil
  end
  local line = vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1]
  if type(line) ~= 'string' then
    return nil
  end
  line = line:gsub('^\239\187\191', ''):lower()
  local kind = line:match('^%s*begin%s+(%a+)')
  if kind and first_line_kinds[kind] then
    return 't3d'
  end
  return nil
end

-- Plain-text dumps (`.txt`) are checked first, then Neovim's own `.txt` detection runs.
local function txt(path, bufnr)
  local filetype = t3d_by_first_line(path, bufnr)
  if filetype then
    return filetype
  end
  local ok, detect = pcall(require, 'vim.filetype.detect')
  if ok and type(detect.txt) == 'function' then
    return detect.txt(path, bufnr)
  end
  return 'text'
end

vim.filetype.add({
  extension = { t3d = 't3d', txt = txt },
  pattern = {
    -- Lowest priority: any filetype that Neovim knows by name wins over this content check.
    ['.*'] = { t3d_by_first_line, { priority = -math.huge } },
  },
})
