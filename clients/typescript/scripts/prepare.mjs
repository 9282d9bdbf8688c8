// `prepare`: npm runs it after `npm ci` or `npm install` in this folder, and when another
// project installs the folder (`npm install path/to/clients/typescript`); it builds dist/.
// An install from a folder does not install the folder's devDependencies (the generator and
// the compiler), so this installs them first when they are missing (from package-lock.json).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const tools = ["tsc", "buf", "protoc-gen-es"].map((bin) => join(pkg, "node_modules", ".bin", bin));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
// the installing project's npm settings (its prefix, install-links, ...) are not this folder's
const env = Object.fromEntries(Object.entries(process.env).filter(
  ([name]) => !/^npm_config_(?!cache$|registry$|userconfig$)/i.test(name)));
const run = (...args) => execFileSync(npm, args, { cwd: pkg, env, stdio: "inherit" });

if (!tools.every(existsSync) || !existsSync(join(pkg, "node_modules", "google-proto-files"))) {
  run("ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error");
}
run("run", "build");
