// Every option type a client method takes is exported, so callers can name it (a type-only
// test: before the fix this file does not compile). A fake transport only: no server.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  CanastaClient, type ApplyMoveExtras, type ExportRecordExtras, type LegalMovesExtras,
  type NextDealExtras, type SuggestMoveExtras,
} from "../src/index.js";
import { recording } from "./recording.js";

describe("the option types of the client's methods", () => {
  it("are exported from the package's entry point", async () => {
    const client = new CanastaClient(recording());
    const page: LegalMovesExtras = { pageSize: 3, pageToken: "t" };
    const record: ExportRecordExtras = { viewSeat: -1 };
    const apply: ApplyMoveExtras = { viewSeat: -1 };
    const next: NextDealExtras = { viewSeat: -1 };
    const bot: SuggestMoveExtras = { budget: 1 };
    await client.legalMoves(new Uint8Array(), page);
    await client.exportRecord(new Uint8Array(), "", record);
    await client.applyMove(new Uint8Array(), "draw", apply);
    await client.nextDeal(new Uint8Array(), next);
    await client.suggestMove(new Uint8Array(), bot);
    assert.ok(true);
  });
});
