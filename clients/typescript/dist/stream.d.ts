/** One frame as the SSE format defines it. */
export interface Frame {
    id: string | null;
    event: string;
    data: string;
}
/** Splits a byte stream into SSE frames; `retry:` values go to `onRetry`. */
export declare function frames(body: ReadableStream<Uint8Array>, onRetry?: (millis: number) => void): AsyncGenerator<Frame>;
/** What a stream is doing, for a page to show. */
export type StreamState = {
    state: "open";
} | {
    state: "reconnecting";
    inMillis: number;
    reason: string;
} | {
    state: "closed";
    reason: string;
};
/** Opens one connection; `lastEventId` is null on the first. */
export type Opener = (lastEventId: string | null, signal: AbortSignal) => Promise<{
    response: Response;
    data?: ReadableStream<Uint8Array> | null | undefined;
}>;
export interface Follow {
    /** Stops following; no reconnect happens after this. */
    close(): void;
}
/**
 * Follows a stream until `close()`: each frame goes to `onFrame`; the
 * connection is opened again whenever it ends or fails, except after a
 * 401 (log in again), 403 or 404, which close it for good.
 */
export declare function follow(open: Opener, onFrame: (frame: Frame) => void, onState?: (state: StreamState) => void, lastEventId?: string | null): Follow;
