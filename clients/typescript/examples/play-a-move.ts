import { createStrategoClient, must } from "stratego-client";

const baseUrl = process.argv[2] ?? "http://127.0.0.1:8080";
const [red, blue] = [createStrategoClient({ baseUrl }), createStrategoClient({ baseUrl })];
const names = [`red${Date.now()}`, `blue${Date.now()}`];
await red.register(names[0], "correct horse battery");
await blue.register(names[1], "correct horse battery");
const game = await must(red.api.POST("/api/v1/games", { body: { variant: "duel", opponent: names[1], color: "red" } }));
const path = { params: { path: { id: game.id } } };
await must(blue.api.POST("/api/v1/games/{id}/join", path));
for (const player of [red, blue]) await must(player.api.POST("/api/v1/games/{id}/setup", { ...path, body: { random: true } }));
const view = await must(red.api.GET("/api/v1/games/{id}", path));
const move = view.legal_moves![0];
const played = await must(red.api.POST("/api/v1/games/{id}/moves", { ...path, body: { from: move.from, to: move.to } }));
console.log(`red moved ${move.from}-${move.to}; version ${played.game.version}, ${played.game.turn} to move`);
