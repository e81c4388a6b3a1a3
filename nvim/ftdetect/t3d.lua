-- T3D: UnrealEd's text export of maps, brushes and actors. By extension, and for any other
-- file by its first non-blank line (`Begin Map`, `Begin Actor`, `Begin PolyList`,
-- `Begin Brush`, `Begin Polygon`, in any case, after an optional UTF-8 byte-order mark):
-- clipboard dumps are often saved as .txt. These are the rules of `unreal-ls lint`
-- (server/analysis/src/lint.rs, `detect_kind`), so a file that lint checks opens as T3D: the
-- kind is the whole second word, the first line that is not blank counts, and it must appear
-- within the first 4 KiB; a file with a NUL byte in its first 8 KiB is binary, not T3D.
local first_line_kinds = { map = true, actor = true, polylist = true, brush = true, polygon = true }

-- lint reads this much of a file to find its first line, and this much to tell text from binary.
local HEAD_BYTES = 4096
local TEXT_PROBE_BYTES = 8192

local function t3d_by_first_line(_, bufnr)
  if not bufnr or not vim.api.nvim_buf_is_valid(bufnr) then
    return nil
  end
  local line_count = vim.api.nvim_buf_line_count(bufnr)
  local first
  local bytes = 0
  local row = 0
  -- Reads the head a few lines at a time: a huge file costs no more than its first 8 KiB.
  while row < line_count and bytes < TEXT_PROBE_BYTES do
    local lines = vim.api.nvim_buf_get_lines(bufnr, row, math.min(row + 64, line_count), false)
    for i, line in ipairs(lines) do
      if (row + i) == 1 then
        line = line:gsub('^\239\187\191', '')
      end
      -- A NUL byte of the file: Neovim holds it as "\n" and the API gives it back as "\0".
      if line:find('\0', 1, true) or line:find('\n', 1, true) then
        return nil
      end
      if not first and bytes < HEAD_BYTES and line:find('%S') then
        first = line
      end
      bytes = bytes + #line + 1
      if bytes >= TEXT_PROBE_BYTES then
        break
      end
    end
    row = row + #lines
  end
  if not first then
    return nil
  end
  local begin, kind = first:match('^%s*(%S+)%s+(%S+)')
  if begin and begin:lower() == 'begin' and first_line_kinds[kind:lower()] then
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
    -- Lowest priority: a filetype that Neovim knows by name or extension (other than .txt)
    -- wins over this content check, where lint would check the file as T3D anyway.
    ['.*'] = { t3d_by_first_line, { priority = -math.huge } },
  },
})
