/**
 * TypeScript client of the canasta.v1 Canasta rules service. This entry point is
 * runtime-neutral (browser or Node); `./rest` adds the fetch transport and `./node`
 * the native gRPC transport.
 */
export { CanastaClient, firstProgressMove, MAX_RETRY_WAIT_MS, MAX_TIMEOUT_MS, move } from "./client.js";
export type {
  ApplyMoveExtras, CallOptions, CanastaTransport, ClientOptions, DealInit, ExportRecordExtras,
  ImportPositionInit, LegalMovesExtras, MoveLike, NextDealExtras, SuggestMoveExtras,
} from "./client.js";
export { CanastaError, errorFromRestBody, errorFromStatusBytes } from "./errors.js";
export type { CanastaErrorInit, FieldViolation, StatusCodeName } from "./errors.js";
export { VERSION } from "./version.js";
export * from "./gen/canasta/v1/engine_service_pb.js";
export * from "./gen/canasta/v1/game_pb.js";
