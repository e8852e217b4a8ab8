// The Stratego by correspondence API for TypeScript and JavaScript: the
// types come from the repository's openapi.yaml (openapi-typescript), the
// requests go through openapi-fetch, and this file adds what every client
// needs on top: logging in and out, refreshing tokens as the API rotates
// them, and following the game and event streams.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";
import { type Exclusive, type Session, type SessionStore, Tokens, memoryStore } from "./session.js";
import { type Follow, type Frame, type StreamState, follow } from "./stream.js";

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
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Partial<Problem> & Record<string, unknown>,
  ) {
    super(typeof problem.detail === "string" ? problem.detail : `the server answered ${status}`);
  }
}

/**
 * The answer's data (`undefined` for an answer without a body, such as a
 * 204), or a `ProblemError` carrying the problem document.
 */
export async function must<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (error === undefined && response.ok) return data as T;
  const problem = typeof error === "object" && error !== null ? error : {};
  throw new ProblemError(response.status, problem as ProblemError["problem"]);
}

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
  watchGame(
    id: string,
    onView: (view: GameView) => void,
    onState?: (state: StreamState) => void,
  ): Follow;
  /** Follows the caller's events after event id `after` (null: only new ones). */
  watchEvents(
    after: number | null,
    onEvent: (event: Event) => void,
    onState?: (state: StreamState) => void,
  ): Follow;
}

export function createStrategoClient(options: Options): StrategoClient {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const store = options.store ?? memoryStore();
  const exclusive: Exclusive = options.exclusive ?? ((work) => work());
  const tokens = new Tokens(options.baseUrl, store, exclusive, fetcher);
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: fetcher });
  api.use(tokens.middleware());

  const enter = (username: string, pair: { access_token: string; refresh_token: string }) => {
    const session = { username, access_token: pair.access_token, refresh_token: pair.refresh_token };
    store.set(session);
    return session;
  };
  const parsed = <T>(frame: Frame, use: (value: T) => void) => {
    if (frame.data !== "") use(JSON.parse(frame.data) as T);
  };

  return {
    api,
    session: () => store.get(),
    register: async (username, password) =>
      enter(username, await must(api.POST("/api/v1/auth/register", { body: { username, password } }))),
    login: async (username, password) =>
      enter(username, await must(api.POST("/api/v1/auth/login", { body: { username, password } }))),
    logout: async () => {
      const session = store.get();
      store.set(null);
      if (session !== null) {
        await api.POST("/api/v1/auth/logout", { body: { refresh_token: session.refresh_token } });
      }
    },
    watchGame: (id, onView, onState) =>
      follow(
        (last, signal) =>
          api.GET("/api/v1/games/{id}/stream", {
            params: {
              path: { id },
              header: last === null ? {} : { "Last-Event-ID": Number(last) },
            },
            parseAs: "stream",
            signal,
          }),
        (frame) => parsed<GameView>(frame, onView),
        onState,
      ),
    watchEvents: (after, onEvent, onState) =>
      follow(
        (last, signal) =>
          api.GET("/api/v1/events/stream", {
            params: {
              query: after === null ? {} : { after },
              header: last === null ? {} : { "Last-Event-ID": Number(last) },
            },
            parseAs: "stream",
            signal,
          }),
        (frame) => parsed<Event>(frame, onEvent),
        onState,
      ),
  };
}
