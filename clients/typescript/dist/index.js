// The Stratego by correspondence API for TypeScript and JavaScript: the
// types come from the repository's openapi.yaml (openapi-typescript), the
// requests go through openapi-fetch, and this file adds what every client
// needs on top: logging in and out, refreshing tokens as the API rotates
// them, and following the game and event streams.
import createClient from "openapi-fetch";
import { Tokens, memoryStore } from "./session.js";
import { follow } from "./stream.js";
export { memoryStore } from "./session.js";
export { follow, frames } from "./stream.js";
/** A problem document (RFC 9457) as thrown by `must`. */
export class ProblemError extends Error {
    status;
    problem;
    constructor(status, problem) {
        super(typeof problem.detail === "string" ? problem.detail : `the server answered ${status}`);
        this.status = status;
        this.problem = problem;
    }
}
/**
 * The answer's data (`undefined` for an answer without a body, such as a
 * 204), or a `ProblemError` carrying the problem document.
 */
export async function must(call) {
    const { data, error, response } = await call;
    if (error === undefined && response.ok)
        return data;
    const problem = typeof error === "object" && error !== null ? error : {};
    throw new ProblemError(response.status, problem);
}
export function createStrategoClient(options) {
    const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
    const store = options.store ?? memoryStore();
    const exclusive = options.exclusive ?? ((work) => work());
    const tokens = new Tokens(options.baseUrl, store, exclusive, fetcher);
    const api = createClient({ baseUrl: options.baseUrl, fetch: fetcher });
    api.use(tokens.middleware());
    const enter = (username, pair) => {
        const session = { username, access_token: pair.access_token, refresh_token: pair.refresh_token };
        store.set(session);
        return session;
    };
    const parsed = (frame, use) => {
        if (frame.data !== "")
            use(JSON.parse(frame.data));
    };
    return {
        api,
        session: () => store.get(),
        register: async (username, password) => enter(username, await must(api.POST("/api/v1/auth/register", { body: { username, password } }))),
        login: async (username, password) => enter(username, await must(api.POST("/api/v1/auth/login", { body: { username, password } }))),
        logout: async () => {
            const session = store.get();
            store.set(null);
            if (session !== null) {
                await api.POST("/api/v1/auth/logout", { body: { refresh_token: session.refresh_token } });
            }
        },
        watchGame: (id, onView, onState) => follow((last, signal) => api.GET("/api/v1/games/{id}/stream", {
            params: {
                path: { id },
                header: last === null ? {} : { "Last-Event-ID": Number(last) },
            },
            parseAs: "stream",
            signal,
        }), (frame) => parsed(frame, onView), onState),
        watchEvents: (after, onEvent, onState) => follow((last, signal) => api.GET("/api/v1/events/stream", {
            params: {
                query: after === null ? {} : { after },
                header: last === null ? {} : { "Last-Event-ID": Number(last) },
            },
            parseAs: "stream",
            signal,
        }), (frame) => parsed(frame, onEvent), onState),
    };
}
