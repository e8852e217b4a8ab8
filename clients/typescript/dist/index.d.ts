import { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";
import { type Exclusive, type Session, type SessionStore } from "./session.js";
import { type Follow, type StreamState } from "./stream.js";
export type { components, operations, paths } from "./schema.js";
export { type Exclusive, type Session, type SessionStore, memoryStore } from "./session.js";
export { type Follow, type Frame, type StreamState, follow, frames } from "./stream.js";
type Schemas = components["schemas"];
export type GameView = Schemas["GameView"];
export type GameSummary = Schemas["GameSummary"];
export type Event = Schemas["Event"];
export type Problem = Schemas["Problem"];
export type Square = Schemas["Square"];
export interface Options {
    /** Where the API is, e.g. `https://stratego.example` or `""` for the page's own origin. */
    baseUrl: string;
    /** Where the tokens are kept; in memory when not given. */
    store?: SessionStore;
    /** How refreshes take turns (see `Exclusive`); one at a time in this process when not given. */
    exclusive?: Exclusive;
    /** The fetch to use; the global one when not given. */
    fetch?: typeof fetch;
}
/** A problem document (RFC 9457) as thrown by `must`. */
export declare class ProblemError extends Error {
    readonly status: number;
    readonly problem: Partial<Problem> & Record<string, unknown>;
    constructor(status: number, problem: Partial<Problem> & Record<string, unknown>);
}
/**
 * The answer's data (`undefined` for an answer without a body, such as a
 * 204), or a `ProblemError` carrying the problem document.
 */
export declare function must<T>(call: Promise<{
    data?: T;
    error?: unknown;
    response: Response;
}>): Promise<T>;
export interface StrategoClient {
    /** Every operation of openapi.yaml, typed; tokens are added and refreshed. */
    api: Client<paths>;
    /** The logged-in session, or null. */
    session(): Session | null;
    register(username: string, password: string): Promise<Session>;
    login(username: string, password: string): Promise<Session>;
    /** Ends this session on the server (its refresh token is revoked) and forgets it. */
    logout(): Promise<void>;
    /** Follows one game: `onView` gets the caller's view after every change. */
    watchGame(id: string, onView: (view: GameView) => void, onState?: (state: StreamState) => void): Follow;
    /** Follows the caller's events after event id `after` (null: only new ones). */
    watchEvents(after: number | null, onEvent: (event: Event) => void, onState?: (state: StreamState) => void): Follow;
}
export declare function createStrategoClient(options: Options): StrategoClient;
