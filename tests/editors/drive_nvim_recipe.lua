-- Headless Neovim with the documented 0.7 recipe ($CITELENS_RECIPE, taken from
-- docs/editors.md): open a run, wait for its diagnostics, put the cursor on the one with
-- $CITELENS_FIX_CODE and run vim.lsp.buf.code_action() as a user would (Neovim builds the
-- request's diagnostics itself), picking the quick fix in the vim.ui.select menu; write
-- JSON to $CITELENS_OUT.
local env = function(k) return os.getenv(k) end
local FILE, OUT, FIX_CODE = env("CITELENS_FILE"), env("CITELENS_OUT"), env("CITELENS_FIX_CODE")
local result = { version = vim.version().major .. "." .. vim.version().minor .. "." .. vim.version().patch }

vim.cmd("luafile " .. env("CITELENS_RECIPE"))
vim.cmd("edit " .. FILE)
local bufnr = vim.api.nvim_get_current_buf()

local function collect()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = d.user_data and d.user_data.lsp or {}
    table.insert(out, { line = d.lnum, col = d.col, code = d.code or lsp.code, message = d.message })
  end
  return out
end

vim.wait(20000, function() return #vim.diagnostic.get(bufnr) > 0 end, 20)
result.attached = #vim.lsp.buf_get_clients(bufnr)
result.diagnostics = collect()

local offered = {}
vim.ui.select = function(items, _, on_choice)
  for i, item in ipairs(items) do
    local action = item[2] or item.action or item
    table.insert(offered, action.title)
    if action.kind == "quickfix" and action.edit and not result.action then
      result.action = action.title
      on_choice(item, i)
      return
    end
  end
  on_choice(nil, nil)
end

for _, d in ipairs(vim.diagnostic.get(bufnr)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  if code == FIX_CODE and not result.cursor then
    result.cursor = { d.lnum, d.col }
    vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  end
end
local before = vim.api.nvim_buf_get_changedtick(bufnr)
vim.lsp.buf.code_action()
vim.wait(10000, function() return result.action ~= nil or #offered > 0 end, 20)
vim.wait(3000, function() return vim.api.nvim_buf_get_changedtick(bufnr) > before end, 20)
result.offered = offered
result.applied = vim.api.nvim_buf_get_changedtick(bufnr) > before
local count = #result.diagnostics
vim.wait(20000, function() return #vim.diagnostic.get(bufnr) ~= count end, 20)
vim.wait(1500, function() return false end, 50)
result.after = collect()
result.buffer = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n")

local f = io.open(OUT, "w")
f:write(vim.fn.json_encode(result))
f:close()
for _, client in pairs(vim.lsp.get_active_clients()) do client.stop() end
vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
vim.cmd("qall!")
