// A few lines instead of a framework: elements are built with `h`, and a
// screen is redrawn by replacing its children. Text always goes in as
// text nodes, never as HTML, so nothing a user typed can become markup.
import { ProblemError } from "stratego-client";

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | boolean | number | EventListener | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

/** Replaces everything in `parent` with `children`. */
export function show(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...(children.filter((c) => c !== null && c !== undefined && c !== false) as (Node | string)[]));
}

/** What a failed call means, in words for the player. */
export function explain(error: unknown): string {
  if (error instanceof ProblemError) {
    const problem = error.problem;
    if (problem.code === "two_square_rule") {
      return "Two-square rule: a piece may not move back and forth between the same two squares more than the game allows in a row. Move another piece, or this one elsewhere.";
    }
    if (problem.code === "more_squares_rule") {
      const since = typeof problem["since_ply"] === "number" ? ` (the chase began at ply ${problem["since_ply"]})` : "";
      return `More-squares rule: you are chasing the same piece back and forth${since}; you may not move to a square that repeats the chase. Choose another square or piece.`;
    }
    if (problem.code === "rate_limited") return "Too many requests: wait a moment and try again.";
    return typeof problem.detail === "string" ? problem.detail : `The server answered ${error.status}.`;
  }
  if (error instanceof TypeError) return "The server cannot be reached: check the connection and try again.";
  return error instanceof Error ? error.message : String(error);
}

/** A line for messages: `say(text)` shows it, `say(text, "error")` as an error. */
export function notice(): { element: HTMLElement; say: (text: string, kind?: "info" | "error") => void } {
  const element = h("p", { class: "notice", role: "status", "aria-live": "polite" });
  return {
    element,
    say: (text, kind = "info") => {
      element.textContent = text;
      element.className = `notice ${kind}`;
    },
  };
}

/** "in 2 days 3 h", "in 5 min", "now" for a time ahead. */
export function until(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "—";
  const seconds = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  if (seconds === 0) return "now";
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `in ${days} d ${hours} h`;
  if (hours > 0) return `in ${hours} h ${minutes} min`;
  return `in ${Math.max(1, minutes)} min`;
}
