// Builds the page served at /play into api/play/, where the server's
// binary takes it from (include_bytes!): the TypeScript bundled with
// esbuild (one file for the page, one for its service worker), and the
// static files copied. The output is committed; CI checks it is current.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";

const out = new URL("../../api/play/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });
const common = {
  bundle: true,
  format: "esm",
  target: "es2022",
  charset: "utf8",
  legalComments: "none",
  logLevel: "warning",
};
await build({ ...common, entryPoints: ["src/main.ts"], outfile: `${out}app.js` });
await build({ ...common, entryPoints: ["src/sw.ts"], outfile: `${out}sw.js` });
for (const file of readdirSync("static")) copyFileSync(`static/${file}`, `${out}${file}`);
