// Writes the built-in spec enum and the per-code severity keys into package.json from the
// engine of this same checkout (`citelens specs/rules --format json`), so the settings UI
// lists exactly the specs and codes the shipped server knows. Rewrites only on change.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPython, extensionRoot, repoRoot } from "./python.mjs";

function citelensJson(args, format = ["--format", "json"]) {
  const env = { ...process.env, PYTHONPATH: [join(repoRoot, "src"), process.env.PYTHONPATH].filter(Boolean).join(":") };
  try {
    return JSON.parse(execFileSync(buildPython(), ["-m", "citelens", ...args, ...format], { env, encoding: "utf8" }));
  } catch (err) {
    console.error(`sync-contributes: could not run \`${buildPython()} -m citelens ${args.join(" ")}\` (set CITELENS_PYTHON to a Python with CiteLens's dependencies): ${err.message}`);
    process.exit(1);
  }
}

const specs = citelensJson(["specs"]);
const rules = citelensJson(["rules"]);
const manifestPath = join(extensionRoot, "package.json");
const before = readFileSync(manifestPath, "utf8");
const manifest = JSON.parse(before);
const props = manifest.contributes.configuration.properties;

const ids = specs.map((s) => s.track);
props["citelens.spec"].anyOf = [
  {
    type: "string",
    enum: ["", ...ids],
    enumDescriptions: ["No spec: only the structural checks run.", ...specs.map((s) => s.description)],
  },
  { type: "string", description: "Path of a spec file (.toml, .yml, .yaml, .json), optionally FILE#ID." },
];
const severityValues = ["error", "warning", "info", "ignore"];
props["citelens.severity"].properties = Object.fromEntries(
  rules.map((r) => [r.code, { type: "string", enum: severityValues, description: r.summary }]),
);

// One JSON Schema per built-in spec (`citelens schema --spec ID`), for single-report .json
// files named *.ID.report.json; other files are mapped by the user (`json.schemas`).
mkdirSync(join(extensionRoot, "schemas"), { recursive: true });
for (const id of ids) {
  const schemaPath = join(extensionRoot, "schemas", `${id}.schema.json`);
  const text = JSON.stringify(citelensJson(["schema", "--spec", id], []), null, 2) + "\n";
  let old = "";
  try {
    old = readFileSync(schemaPath, "utf8");
  } catch {}
  if (old !== text) writeFileSync(schemaPath, text);
}
manifest.contributes.jsonValidation = ids.map((id) => ({ fileMatch: [`*.${id}.report.json`], url: `./schemas/${id}.schema.json` }));

const after = JSON.stringify(manifest, null, 2) + "\n";
if (after !== before) {
  writeFileSync(manifestPath, after);
  console.log(`sync-contributes: package.json updated (${ids.length} specs, ${rules.length} codes)`);
} else {
  console.log(`sync-contributes: package.json up to date (${ids.length} specs, ${rules.length} codes)`);
}
