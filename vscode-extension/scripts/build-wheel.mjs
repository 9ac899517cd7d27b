// Builds the CiteLens wheel from this checkout into wheel/, which the .vsix ships, so the
// extension's "Install CiteLens" installs exactly the server it was built with.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildPython, extensionRoot, repoRoot } from "./python.mjs";

const out = join(extensionRoot, "wheel");
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
// setuptools builds in <repo>/build; a stale build/lib would put deleted modules in the wheel
rmSync(join(repoRoot, "build"), { recursive: true, force: true });
execFileSync(
  buildPython(),
  ["-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check", "-w", out, repoRoot],
  { stdio: "inherit" },
);
const wheels = readdirSync(out).filter((f) => f.endsWith(".whl"));
if (wheels.length !== 1) {
  console.error(`build-wheel: expected one wheel in ${out}, found ${wheels.join(", ") || "none"}`);
  process.exit(1);
}
console.log(`build-wheel: ${join("wheel", wheels[0])}`);
