// Plays a duel against a running server (base URL in argv[2]) with the
// stratego-client package (clients/typescript) installed from its
// tarball; compiled with tsc --strict, so a document that disagrees with
// this use of it fails to compile, and every answer is checked at run
// time too.
import { createStrategoClient, type StrategoClient, type components } from "stratego-client";

declare const process: { argv: string[] };

type GameView = components["schemas"]["GameView"];
type Event = components["schemas"]["Event"];

const base = process.argv[2];
const anonymous = createStrategoClient({ baseUrl: base }).api;

function check<T>(data: T | undefined, what: string): T {
  if (data === undefined) throw new Error(`${what}: no answer`);
  return data;
}

const variants = check((await anonymous.GET("/api/v1/variants")).data, "variants");
if (variants.variants.length !== 3) throw new Error("three variants expected");

const suffix = String(Math.floor(Math.random() * 1e6));
const players: StrategoClient[] = [];
const names = [`tsred${suffix}`, `tsblue${suffix}`];
for (const username of names) {
  const player = createStrategoClient({ baseUrl: base });
  await player.register(username, "correct horse battery");
  players.push(player);
}
const clients = players.map((player) => player.api);
const [red, blue] = clients;

const created = check(
  (await red.POST("/api/v1/games", {
    body: { variant: "duel", color: "red", opponent: names[1] },
  })).data,
  "create",
);
const id = created.id;
const path = { params: { path: { id } } };
check((await blue.POST("/api/v1/games/{id}/join", path)).data, "join");
for (const [client, seed] of [[red, 1], [blue, 2]] as const) {
  check(
    (await client.POST("/api/v1/games/{id}/setup", { ...path, body: { random: true, seed } }))
      .data,
    "setup",
  );
}

let plies = 0;
for (; plies < 200; plies++) {
  let mover: (typeof clients)[number] | undefined;
  let view: GameView | undefined;
  for (const client of clients) {
    const seen = check((await client.GET("/api/v1/games/{id}", path)).data, "view");
    if (seen.legal_moves !== undefined) {
      mover = client;
      view = seen;
    }
  }
  if (mover === undefined || view === undefined || view.legal_moves === undefined) break;
  if (plies === 0) {
    const refused = await mover.POST("/api/v1/games/{id}/moves", {
      ...path,
      body: { from: "e5", to: "e6" },
    });
    const error = refused.error;
    if (error === undefined || !("reason" in error) || error.reason !== "no_piece") {
      throw new Error("a refusal with reason no_piece expected");
    }
  }
  const moves = view.legal_moves;
  const chosen = moves[(plies * 7) % moves.length];
  const answer = check(
    (await mover.POST("/api/v1/games/{id}/moves", {
      ...path,
      body: { from: chosen.from, to: chosen.to, expected_version: view.version },
    })).data,
    "move",
  );
  const turn: "red" | "blue" | null = answer.game.turn;
  void turn;
}

// The stream's first frame is red's current view of the game.
const streamed = await new Promise<GameView>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("no view on the game's stream")), 10_000);
  const follow = players[0].watchGame(id, (view) => {
    clearTimeout(timer);
    follow.close();
    resolve(view);
  });
});
if (streamed.ply !== plies) throw new Error("the streamed view is not the game's last");

const history = check((await red.GET("/api/v1/games/{id}/moves", path)).data, "history");
if (history.moves.length !== plies) throw new Error("history length");
const page = check(
  (await red.GET("/api/v1/events", { params: { query: { after: 0, wait: 0 } } })).data,
  "events",
);
const kinds = new Set(page.events.map((event: Event) => event.type));
if (!kinds.has("game_started")) throw new Error("no game_started event");
console.log(`typescript client: played ${plies} plies; events ${[...kinds].sort().join(", ")}`);
