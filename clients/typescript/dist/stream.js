// Server-Sent Events over fetch, so that the stream carries the same
// Authorization header (and token refresh) as every other request, which
// the browser's EventSource cannot do. A dropped stream is opened again
// after the server's `retry:` delay (longer after repeated failures) with
// `Last-Event-ID` set to the last id seen, so nothing is missed.
/** Splits a byte stream into SSE frames; `retry:` values go to `onRetry`. */
export async function* frames(body, onRetry = () => { }) {
    const reader = body.getReader();
    try {
        yield* parse(reader, onRetry);
    }
    finally {
        // Also when the reader of these frames stops early: the connection closes.
        reader.cancel().catch(() => { });
    }
}
async function* parse(reader, onRetry) {
    const decoder = new TextDecoder();
    let buffer = "";
    let frame = { id: null, event: "message", data: "" };
    let hasData = false;
    for (;;) {
        const { done, value } = await reader.read();
        if (done)
            return;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = lineEnd(buffer)) >= 0) {
            const line = buffer.slice(0, end);
            buffer = buffer.slice(buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1);
            if (line === "") {
                if (hasData)
                    yield frame;
                frame = { id: frame.id, event: "message", data: "" };
                hasData = false;
                continue;
            }
            if (line.startsWith(":"))
                continue;
            const colon = line.indexOf(":");
            const field = colon < 0 ? line : line.slice(0, colon);
            let value = colon < 0 ? "" : line.slice(colon + 1);
            if (value.startsWith(" "))
                value = value.slice(1);
            if (field === "data") {
                frame.data = hasData ? `${frame.data}\n${value}` : value;
                hasData = true;
            }
            else if (field === "event") {
                frame.event = value;
            }
            else if (field === "id" && !value.includes("\0")) {
                frame.id = value;
            }
            else if (field === "retry" && /^\d+$/.test(value)) {
                onRetry(Number(value));
            }
        }
    }
}
function lineEnd(buffer) {
    const cr = buffer.indexOf("\r");
    const lf = buffer.indexOf("\n");
    if (cr < 0)
        return lf;
    if (lf < 0)
        return cr === buffer.length - 1 ? -1 : cr;
    return Math.min(cr, lf);
}
const MAX_DELAY_MILLIS = 30_000;
/**
 * Follows a stream until `close()`: each frame goes to `onFrame`; the
 * connection is opened again whenever it ends or fails, except after a
 * 401 (log in again), 403 or 404, which close it for good.
 */
export function follow(open, onFrame, onState = () => { }, lastEventId = null) {
    const stop = new AbortController();
    let retry = 3000;
    let failures = 0;
    let last = lastEventId;
    const wait = (millis) => new Promise((resolve) => {
        const done = () => {
            clearTimeout(timer);
            stop.signal.removeEventListener("abort", done);
            resolve();
        };
        const timer = setTimeout(done, millis);
        stop.signal.addEventListener("abort", done, { once: true });
    });
    const run = async () => {
        while (!stop.signal.aborted) {
            let reason = "the stream ended";
            let delay = retry;
            try {
                const { response, data } = await open(last, stop.signal);
                if (!response.ok)
                    await response.body?.cancel().catch(() => { });
                if ([401, 403, 404].includes(response.status)) {
                    onState({ state: "closed", reason: `the server answered ${response.status}` });
                    return;
                }
                if (response.status === 429) {
                    const seconds = Number(response.headers.get("Retry-After"));
                    delay = (Number.isFinite(seconds) && seconds > 0 ? seconds : 15) * 1000;
                    reason = "too many streams are open";
                }
                else if (!response.ok || data === null || data === undefined) {
                    reason = `the server answered ${response.status}`;
                }
                else {
                    onState({ state: "open" });
                    for await (const frame of frames(data, (millis) => (retry = millis))) {
                        failures = 0;
                        if (frame.id !== null)
                            last = frame.id;
                        onFrame(frame);
                    }
                }
            }
            catch (error) {
                if (stop.signal.aborted)
                    break;
                reason = error instanceof Error ? error.message : String(error);
            }
            if (stop.signal.aborted)
                break;
            failures += 1;
            delay = Math.min(MAX_DELAY_MILLIS, delay * 2 ** Math.max(0, failures - 1));
            onState({ state: "reconnecting", inMillis: delay, reason });
            await wait(delay);
        }
        onState({ state: "closed", reason: "closed by the page" });
    };
    void run();
    return { close: () => stop.abort() };
}
