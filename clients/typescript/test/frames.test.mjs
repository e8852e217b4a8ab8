// The SSE reader against what the format allows: CRLF, CR and LF line
// ends, data over several lines, comments, ids kept across frames, a
// `retry:`, and chunks cut anywhere (even inside a UTF-8 character).
// Run with `node --test` (CI: .ci/clients/typescript.sh).
import assert from "node:assert/strict";
import { test } from "node:test";
import { frames } from "../dist/index.js";

function streamOf(chunks) {
  const encoder = new TextEncoder();
  const bytes = chunks.map((c) => (typeof c === "string" ? encoder.encode(c) : c));
  return new ReadableStream({
    pull(controller) {
      const next = bytes.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

async function read(chunks) {
  const retries = [];
  const out = [];
  for await (const frame of frames(streamOf(chunks), (ms) => retries.push(ms))) out.push(frame);
  return { out, retries };
}

test("frames with every line end, comments, retry and multi-line data", async () => {
  const { out, retries } = await read([
    "retry: 3000\r\n: keep-alive\r\n\r\n",
    "id: 7\revent: game\rdata: {\"a\":1}\r\r",
    "data: one\ndata: two\n\n",
  ]);
  assert.deepEqual(retries, [3000]);
  assert.deepEqual(out, [
    { id: "7", event: "game", data: "{\"a\":1}" },
    { id: "7", event: "message", data: "one\ntwo" },
  ]);
});

test("chunks cut inside a line, a CRLF and a UTF-8 character", async () => {
  const text = new TextEncoder().encode("id: 1\r\nevent: e\r\ndata: caf\u00e9\r\n\r\n");
  const chunks = [];
  for (let i = 0; i < text.length; i += 3) chunks.push(text.slice(i, i + 3));
  const { out } = await read(chunks);
  assert.deepEqual(out, [{ id: "1", event: "e", data: "caf\u00e9" }]);
});

test("a frame without data is not delivered; an unfinished one is dropped", async () => {
  const { out } = await read(["event: nothing\n\n", "data: cut"]);
  assert.deepEqual(out, []);
});

test("stopping early cancels the body", async () => {
  let cancelled = false;
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("data: 1\n\ndata: 2\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const frame of frames(body)) {
    assert.equal(frame.data, "1");
    break;
  }
  assert.equal(cancelled, true);
});
