// A test helper shared by the test files (it holds no tests of its own).
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import type { CallOptions, CanastaTransport } from "../src/node.js";

/** A transport that records each call's request and headers and answers an empty message. */
export function recording(): CanastaTransport & {
  inputs: unknown[]; headers: Record<string, string>[];
} {
  const inputs: unknown[] = [];
  const headers: Record<string, string>[] = [];
  return {
    inputs,
    headers,
    async call<I extends DescMessage, O extends DescMessage>(
      _method: DescMethodUnary<I, O>, input: MessageShape<I>,
      call: CallOptions & { timeoutMs: number },
    ): Promise<MessageShape<O>> {
      inputs.push(input);
      headers.push({ ...call.headers });
      return {} as MessageShape<O>;
    },
  };
}
