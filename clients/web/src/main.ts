// The reference web client: a page at /play that plays Stratego through
// the public API only, with the stratego-client package. Screens: log in
// (auth.ts), the lobby (lobby.ts), a game's setup (setup.ts) and the game
// itself (game.ts, board.ts, history.ts). The address's hash says which:
// `#/` is the lobby, `#/game/<id>` a game, so a reload comes back to it.
import { createStrategoClient, type Event, type Exclusive, type Follow, type Session, type SessionStore } from "stratego-client";
import { authScreen } from "./auth.js";
import { h, show } from "./dom.js";
import { gameScreen } from "./game.js";
import { lobbyScreen } from "./lobby.js";

const SESSION_KEY = "stratego.session";

// Only the tokens and the username are kept in the browser: never a game.
const store: SessionStore = {
  get() {
    const raw = localStorage.getItem(SESSION_KEY);
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as Session;
    } catch {
      return null;
    }
  },
  set(session) {
    if (session === null) {
      localStorage.removeItem(SESSION_KEY);
      // The session ended (logged out, or its refresh refused): log in again.
      queueMicrotask(() => {
        if (shownUser !== null) route();
      });
    } else {
      localStorage.setItem(SESSION_KEY, JSON.stringify(session));
    }
  },
};

// Tabs share the stored tokens, so they take turns to refresh them: a
// refresh token sent twice would end the session (docs/accounts.md).
const exclusive: Exclusive = <T>(work: () => Promise<T>): Promise<T> =>
  "locks" in navigator ? (navigator.locks.request("stratego-refresh", work) as Promise<T>) : work();

export const client = createStrategoClient({ baseUrl: location.origin, store, exclusive });

/** A screen: draws itself into `root`, returns how to leave it. */
export type Screen = (root: HTMLElement) => () => void;

const main = document.getElementById("main") as HTMLElement;
const account = document.getElementById("account") as HTMLElement;
const streamState = document.getElementById("stream-state") as HTMLElement;
let leave: () => void = () => {};
let shownUser: string | null = null;
let events: Follow | null = null;

/** Goes to a screen by its address (`#/`, `#/game/<id>`). */
export function go(hash: string): void {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route(): void {
  leave();
  const session = client.session();
  shownUser = session?.username ?? null;
  drawAccount(session);
  if (session === null) {
    events?.close();
    events = null;
    leave = authScreen(main, () => go("#/"));
    return;
  }
  followEvents();
  const game = /^#\/game\/([0-9a-f-]{36})$/.exec(location.hash);
  leave = game ? gameScreen(main, game[1]) : lobbyScreen(main);
}

function drawAccount(session: Session | null): void {
  if (session === null) {
    show(account);
    return;
  }
  show(
    account,
    h("a", { href: "#/" }, "Lobby"),
    h("span", { class: "who" }, session.username),
    h("button", {
      type: "button",
      onclick: async () => {
        await client.logout().catch(() => undefined);
        go("#/");
      },
    }, "Log out"),
  );
}

/** The caller's events, for the lobby and the title's "your move" count. */
function followEvents(): void {
  if (events !== null) return;
  events = client.watchEvents(
    null,
    (event: Event) => window.dispatchEvent(new CustomEvent<Event>("stratego:event", { detail: event })),
    (state) => {
      streamState.textContent =
        state.state === "open" ? "live" : state.state === "reconnecting" ? "reconnecting…" : "offline";
      streamState.dataset["state"] = state.state;
      if (state.state === "closed" && client.session() === null) route();
    },
  );
}

window.addEventListener("hashchange", route);
window.addEventListener("storage", (event) => {
  if (event.key === SESSION_KEY && (client.session()?.username ?? null) !== shownUser) {
    events?.close();
    events = null;
    route();
  }
});
route();
