import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The `vscode` module exists only inside the editor: tests get a fake at the module boundary.
export default defineConfig({
  resolve: { alias: { vscode: fileURLToPath(new URL("./test/fakes/vscode.ts", import.meta.url)) } },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
});
