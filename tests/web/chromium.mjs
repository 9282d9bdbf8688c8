// Debian's Chromium under playwright-core, as every browser test here launches it: a
// throw-away profile, headless, no network of its own (no updates, sync or QUIC).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** A persistent context with `options` (viewport, locale, ...); `close()` also deletes its profile. */
export async function launch(options) {
  const profile = mkdtempSync(join(tmpdir(), "canasta-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    ...options,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
