// The deadline of a call to a server, for the web table and the reference host's pages: a
// server that never answers would leave a page waiting for ever. No DOM: the web table and the
// host's pages (examples/host/static) both time their calls with it.

/** A call's deadline in milliseconds: 10 s, the SDKs' default (clients/typescript's
 *  `CanastaClient` `timeoutMs`, and the Python, Go and Java clients'), which a page cannot
 *  import (they are built; this folder is served as it is). */
export const CALL_TIMEOUT_MS = 10_000;

/** The deadline a page's URL parameters set, `?timeout=MS` (a test's, to see a call time out
 *  without waiting 10 s): a whole number of milliseconds from 1 to 2^31 - 1 (the longest
 *  delay a browser's timers keep), else CALL_TIMEOUT_MS. */
export function callTimeout(params) {
  const asked = Number(params.get("timeout") ?? "");
  return Number.isInteger(asked) && asked > 0 && asked < 2 ** 31 ? asked : CALL_TIMEOUT_MS;
}
