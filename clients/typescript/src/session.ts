// Bearer tokens for every request, and the refresh the API asks for:
// a refresh token is used once, answered with a new pair, and a refresh
// token sent twice ends the whole session (docs/accounts.md). So at most
// one refresh runs at a time, and a request that failed with an access
// token someone else has already replaced is simply sent again.
import type { Middleware } from "openapi-fetch";
import type { components } from "./schema.js";

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
export function memoryStore(initial: Session | null = null): SessionStore {
  let session = initial;
  return {
    get: () => session,
    set: (next) => {
      session = next;
    },
  };
}

/**
 * Runs `work` so that no other refresh runs at the same time. The default
 * covers one page or process; a web page open in several tabs passes one
 * built on `navigator.locks` so that tabs sharing a store take turns.
 */
export type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

type TokenPair = components["schemas"]["TokenPair"];

const AUTH_PATHS = ["/api/v1/auth/login", "/api/v1/auth/register", "/api/v1/auth/refresh"];

export class Tokens {
  private refreshing: Promise<Session | null> | null = null;
  private readonly copies = new WeakMap<Request, Request>();

  constructor(
    private readonly baseUrl: string,
    readonly store: SessionStore,
    private readonly exclusive: Exclusive,
    private readonly fetcher: typeof fetch,
  ) {}

  /** The middleware openapi-fetch runs around every request. */
  middleware(): Middleware {
    return {
      onRequest: ({ request }) => {
        const session = this.store.get();
        if (session !== null && !isAuthPath(request.url)) {
          request.headers.set("Authorization", `Bearer ${session.access_token}`);
        }
        this.copies.set(request, request.clone());
        return request;
      },
      onResponse: async ({ request, response }) => {
        if (response.status !== 401 || isAuthPath(request.url)) return response;
        const sent = bearerOf(request);
        const copy = this.copies.get(request);
        if (sent === null || copy === undefined) return response;
        const session = await this.renew(sent);
        if (session === null) return response;
        copy.headers.set("Authorization", `Bearer ${session.access_token}`);
        return this.fetcher(copy);
      },
    };
  }

  /**
   * A session whose access token is newer than `stale`: the store's, when
   * another request (or tab) already renewed it, or a fresh pair from
   * `/auth/refresh`. Null, and the store emptied, when the refresh token
   * is refused: the user must log in again.
   */
  renew(stale: string): Promise<Session | null> {
    if (this.refreshing === null) {
      this.refreshing = this.exclusive(() => this.refresh(stale)).finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async refresh(stale: string): Promise<Session | null> {
    const current = this.store.get();
    if (current === null) return null;
    if (current.access_token !== stale) return current;
    const answer = await this.fetcher(`${this.baseUrl}/api/v1/auth/refresh`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: current.refresh_token }),
    });
    if (!answer.ok) {
      if (answer.status === 401 && this.store.get()?.refresh_token === current.refresh_token) {
        this.store.set(null);
      }
      return null;
    }
    const pair = (await answer.json()) as TokenPair;
    // Logged out (or in as someone else) meanwhile: that choice stands.
    if (this.store.get()?.refresh_token !== current.refresh_token) return this.store.get();
    const next = { ...current, access_token: pair.access_token, refresh_token: pair.refresh_token };
    this.store.set(next);
    return next;
  }
}

function isAuthPath(url: string): boolean {
  const path = new URL(url).pathname;
  return AUTH_PATHS.some((auth) => path.endsWith(auth));
}

function bearerOf(request: Request): string | null {
  const header = request.headers.get("Authorization");
  return header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : null;
}
