-- Headless Neovim (0.7+) driving the CiteLens server: open a run, collect the diagnostics,
-- hover a citation, apply a quick fix, collect the diagnostics again; write JSON to $CITELENS_OUT.
-- Positions are recorded as Neovim sees them (0-based line, byte column).
local env = function(k) return os.getenv(k) end
local FILE, OUT, PY, ROOT = env("CITELENS_FILE"), env("CITELENS_OUT"), env("CITELENS_PY"), env("CITELENS_ROOT")
local HOVER_LINE, HOVER_COL = tonumber(env("CITELENS_HOVER_LINE")), tonumber(env("CITELENS_HOVER_COL"))
local FIX_CODE = env("CITELENS_FIX_CODE")
local result = { version = vim.version().major .. "." .. vim.version().minor .. "." .. vim.version().patch }

vim.cmd("edit " .. FILE)
local bufnr = vim.api.nvim_get_current_buf()
local config = {
  name = "citelens",
  cmd = { PY, "-m", "citelens_server" },
  root_dir = ROOT,
  init_options = { debounceMs = 0 },
}
local client_id
if vim.lsp.start then
  client_id = vim.lsp.start(config, { bufnr = bufnr })
else
  client_id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(bufnr, client_id)
end

local function collect()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, { line = d.lnum, col = d.col, end_line = d.end_lnum, end_col = d.end_col,
      code = d.code or lsp.code, message = d.message, source = d.source })
  end
  return out
end

vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
result.diagnostics = collect()

vim.api.nvim_win_set_cursor(0, { HOVER_LINE + 1, HOVER_COL })
local hover = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", vim.lsp.util.make_position_params(), 10000)
for _, r in pairs(hover or {}) do
  if r.result then result.hover = r.result.contents.value; result.hover_range = r.result.range end
end

-- an LSP position (UTF-16) from Neovim's (line, byte column)
local function lsp_position(line, col)
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1] or ""
  local _, utf16 = vim.str_utfindex(text, math.min(col, #text))
  return { line = line, character = utf16 }
end

for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  if code == FIX_CODE and not result.action then
    -- Neovim 0.7 keeps only some LSP fields in user_data: rebuild the diagnostic
    local lsp = vim.tbl_extend("force", d.user_data and d.user_data.lsp or {}, {
      range = { start = lsp_position(d.lnum, d.col), ["end"] = lsp_position(d.end_lnum, d.end_col) },
      message = d.message, severity = d.severity, source = d.source, code = code,
    })
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = lsp.range,
      context = { diagnostics = { lsp }, only = { "quickfix" } } }
    local res = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 10000)
    for _, r in pairs(res or {}) do
      for _, a in ipairs(r.result or {}) do
        if not result.action and a.edit then
          result.action = a.title
          local before = vim.api.nvim_buf_get_changedtick(bufnr)
          vim.lsp.util.apply_workspace_edit(a.edit, "utf-16")
          result.applied = vim.api.nvim_buf_get_changedtick(bufnr) > before
        end
      end
    end
  end
end
local count = #result.diagnostics
vim.wait(20000, function() return #vim.diagnostic.get(bufnr) ~= count end, 20)
vim.wait(1500, function() return false end, 50)  -- let the diagnostics of the new version settle
result.after = collect()
result.buffer = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")

local f = io.open(OUT, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.lsp.stop_client(client_id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd("qall!")
