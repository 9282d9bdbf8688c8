// A test helper shared by the test files (it holds no tests of its own).
import assert from "node:assert/strict";
import { CanastaError } from "../src/node.js";

/** The CanastaError a call fails with; fails the test if it succeeds or throws another error. */
export async function rejects(p: Promise<unknown>): Promise<CanastaError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof CanastaError, `not a CanastaError: ${String(err)}`);
    return err;
  }
  assert.fail("the call did not fail");
}
