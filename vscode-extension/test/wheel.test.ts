import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installCommand, shippedWheel } from "../src/wheel";

describe("shippedWheel", () => {
  it("finds the CiteLens wheel in the extension's wheel/ folder, with its version", () => {
    const ext = mkdtempSync(join(tmpdir(), "citelens-ext-"));
    mkdirSync(join(ext, "wheel"));
    writeFileSync(join(ext, "wheel", "citelens-0.3.1-py3-none-any.whl"), "");
    expect(shippedWheel(ext)).toEqual({ path: join(ext, "wheel", "citelens-0.3.1-py3-none-any.whl"), version: "0.3.1" });
  });

  it("is undefined for a build without a wheel", () => {
    expect(shippedWheel(mkdtempSync(join(tmpdir(), "citelens-ext-")))).toBeUndefined();
  });
});

describe("installCommand", () => {
  it("quotes paths with spaces and quotes for a POSIX shell", () => {
    expect(installCommand("/home/a b/.venv/bin/python", "/ext/it's/citelens-0.1.0-py3-none-any.whl", false)).toBe(
      "'/home/a b/.venv/bin/python' -m pip install --upgrade '/ext/it'\\''s/citelens-0.1.0-py3-none-any.whl'",
    );
  });

  it("calls the interpreter with & and single quotes in PowerShell", () => {
    expect(installCommand("C:\\Program Files\\Python311\\python.exe", "C:\\ext\\c.whl", true)).toBe(
      "& 'C:\\Program Files\\Python311\\python.exe' -m pip install --upgrade 'C:\\ext\\c.whl'",
    );
  });
});
