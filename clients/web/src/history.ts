// A game's history stepped through, from what the viewer knows: the
// position at an earlier ply is found by taking back, from the viewer's
// present board, each later move as the viewer saw it (GET
// /games/{id}/moves). A piece that lost a battle comes back with the rank
// the battle showed (null where the viewer may not know it).
import type { components } from "stratego-client";
import type { Color, Shown } from "./board.js";

type MoveView = components["schemas"]["MoveView"];

const other = (color: Color): Color => (color === "red" ? "blue" : "red");

/** The board after `ply` plies (0: before the first move; a move's `ply` counts from 1). */
export function positionAt(present: Shown[], moves: MoveView[], ply: number): Shown[] {
  const board = new Map(present.map((p) => [p.square, { ...p }]));
  for (const move of [...moves].reverse()) {
    if (move.ply <= ply) break;
    if (move.rescue) board.delete(move.rescue.square);
    const attacker: Shown = board.get(move.to) ?? { square: move.to, color: move.color, piece: move.piece, revealed: false };
    const battle = move.battle;
    if (battle === null) {
      board.delete(move.to);
      board.set(move.from, { ...attacker, square: move.from });
      continue;
    }
    const restoredAttacker: Shown = { square: move.from, color: move.color, piece: battle.attacker ?? move.piece, revealed: true };
    const restoredDefender: Shown = { square: move.to, color: other(move.color), piece: battle.defender, revealed: true };
    if (battle.outcome === "attacker_wins") {
      board.set(move.from, { ...attacker, square: move.from });
      board.set(move.to, restoredDefender);
    } else if (battle.outcome === "defender_wins") {
      board.set(move.from, restoredAttacker);
    } else {
      board.set(move.from, restoredAttacker);
      board.set(move.to, restoredDefender);
    }
  }
  return [...board.values()];
}

/** A move in words, as the viewer may know it. */
export function moveText(move: MoveView, viewer: Color | null): string {
  const who = viewer === null ? move.color : move.color === viewer ? "You" : "Opponent";
  const piece = move.piece ?? "piece";
  let text = `${move.ply}. ${who}: ${piece} ${move.from}–${move.to}`;
  if (move.battle) {
    const { attacker, defender, outcome } = move.battle;
    const verdict = { attacker_wins: "wins", defender_wins: "loses", both_lose: "both are removed" }[outcome];
    text += `, attacks ${defender ?? "an unknown piece"} with ${attacker ?? "an unknown piece"}: ${outcome === "both_lose" ? verdict : `the attacker ${verdict}`}`;
  }
  if (move.rescue) text += `, rescues a ${move.rescue.piece} to ${move.rescue.square}`;
  return text;
}
