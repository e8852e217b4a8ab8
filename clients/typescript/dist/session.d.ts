import type { Middleware } from "openapi-fetch";
/** What a logged-in client keeps: the pair of tokens and who they are for. */
export interface Session {
    username: string;
    access_token: string;
    refresh_token: string;
}
/** Where the session lives between requests (memory, localStorage, ...). */
export interface SessionStore {
    get(): Session | null;
    set(session: Session | null): void;
}
/** A store that keeps the session in memory only. */
export declare function memoryStore(initial?: Session | null): SessionStore;
/**
 * Runs `work` so that no other refresh runs at the same time. The default
 * covers one page or process; a web page open in several tabs passes one
 * built on `navigator.locks` so that tabs sharing a store take turns.
 */
export type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;
export declare class Tokens {
    private readonly baseUrl;
    readonly store: SessionStore;
    private readonly exclusive;
    private readonly fetcher;
    private refreshing;
    private readonly copies;
    constructor(baseUrl: string, store: SessionStore, exclusive: Exclusive, fetcher: typeof fetch);
    /** The middleware openapi-fetch runs around every request. */
    middleware(): Middleware;
    /**
     * A session whose access token is newer than `stale`: the store's, when
     * another request (or tab) already renewed it, or a fresh pair from
     * `/auth/refresh`. Null, and the store emptied, when the refresh token
     * is refused: the user must log in again.
     */
    renew(stale: string): Promise<Session | null>;
    private refresh;
}
