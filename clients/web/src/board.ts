// The 10x10 board, drawn from the viewer's side (Red's home rows at the
// bottom for Red, Blue's for Blue). It draws only what it is given: the
// viewer's view from the server, in which an opponent's piece whose rank
// the viewer may not know has no `piece`. So the page holds no rank it
// should not, in its text, attributes or titles.
import type { components } from "stratego-client";

export type Color = components["schemas"]["Color"];
export type Piece = components["schemas"]["Piece"];
export interface Shown {
  square: string;
  color: Color;
  piece: Piece | null;
  revealed: boolean;
}

export const FILES = "abcdefghij";
export const LAKES = new Set(["c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"]);

/** The short mark of a piece: its strength, or F, B, S. */
export const MARKS: Record<Piece, string> = {
  flag: "F", spy: "S", scout: "2", miner: "3", sergeant: "4", lieutenant: "5",
  captain: "6", major: "7", colonel: "8", general: "9", marshal: "10", bomb: "B",
};

export interface BoardOptions {
  pieces: Shown[];
  /** The side drawn at the bottom. */
  viewer: Color;
  /** A spectator: pieces are named by color, not "your" and "enemy". */
  spectator?: boolean;
  selected?: string | null;
  targets?: ReadonlySet<string>;
  lastMove?: { from: string; to: string } | null;
  /** Squares to mark as the viewer's setup zone. */
  zone?: ReadonlySet<string>;
  onSquare?: (square: string) => void;
  /** Drag and drop: `from` is a square, or `piece:<name>` from a tray. */
  onDrop?: (from: string, to: string) => void;
}

/** The squares from the viewer's top-left, row by row. */
export function squaresFor(viewer: Color): string[] {
  const ranks = viewer === "red" ? [10, 9, 8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const files = viewer === "red" ? [...FILES] : [...FILES].reverse();
  return ranks.flatMap((rank) => files.map((file) => `${file}${rank}`));
}

export function pieceLabel(shown: Shown, viewer: Color | null): string {
  const whose = viewer === null ? shown.color : shown.color === viewer ? "your" : "enemy";
  if (shown.piece === null) return `${whose} piece, rank unknown`;
  return `${whose} ${shown.piece}${shown.revealed ? " (revealed)" : ""}`;
}

export function drawBoard(options: BoardOptions): HTMLElement {
  const at = new Map(options.pieces.map((p) => [p.square, p]));
  const grid = document.createElement("div");
  grid.className = "board";
  grid.setAttribute("role", "grid");
  grid.setAttribute("aria-label", `Board, seen from ${options.viewer}`);
  for (const square of squaresFor(options.viewer)) {
    const cell = document.createElement("button");
    cell.type = "button";
    cell.className = "square";
    cell.dataset["square"] = square;
    const classes: string[] = [];
    if (LAKES.has(square)) classes.push("lake");
    if (options.zone?.has(square)) classes.push("zone");
    if (options.selected === square) classes.push("selected");
    if (options.targets?.has(square)) classes.push("target");
    if (options.lastMove && (options.lastMove.from === square || options.lastMove.to === square)) classes.push("last");
    cell.classList.add(...classes);
    const shown = at.get(square);
    let label = square;
    if (shown) {
      const mark = document.createElement("span");
      mark.className = `piece ${shown.color}${shown.revealed ? " revealed" : ""}${shown.piece === null ? " hidden" : ""}`;
      mark.textContent = shown.piece === null ? "?" : MARKS[shown.piece];
      cell.append(mark);
      label = `${square}, ${pieceLabel(shown, options.spectator ? null : options.viewer)}`;
      if (options.onDrop && shown.color === options.viewer) {
        cell.draggable = true;
        cell.addEventListener("dragstart", (event) => event.dataTransfer?.setData("text/plain", square));
      }
    } else if (LAKES.has(square)) {
      label = `${square}, lake`;
    }
    if (options.targets?.has(square)) label += ", you can move here";
    cell.setAttribute("aria-label", label);
    cell.title = label;
    if (options.onSquare) {
      const onSquare = options.onSquare;
      cell.addEventListener("click", () => onSquare(square));
    }
    if (options.onDrop) {
      const onDrop = options.onDrop;
      cell.addEventListener("dragover", (event) => event.preventDefault());
      cell.addEventListener("drop", (event) => {
        event.preventDefault();
        const from = event.dataTransfer?.getData("text/plain");
        if (from) onDrop(from, square);
      });
    }
    grid.append(cell);
  }
  return grid;
}
