// The setup screen: the army of the game's variant (from /variants) in a
// tray, the viewer's setup zone on the board. Place a piece by dragging
// it, or by choosing it in the tray and then a square (so the keyboard
// works too); choose two placed pieces in turn to swap them. "Random"
// fills the zone, a saved setup can be loaded or the current one saved,
// and every problem the server finds is listed at once.
import { type components, type GameView, must, ProblemError } from "stratego-client";
import { drawBoard, LAKES, MARKS, type Color, type Piece } from "./board.js";
import { explain, h, notice, show } from "./dom.js";
import { client } from "./main.js";

type Variant = components["schemas"]["VariantInfo"];
type SetupProblem = components["schemas"]["SetupProblem"];

/** A square seen from the other side: a1 <-> j10. */
function turned(square: string): string {
  const file = String.fromCharCode("a".charCodeAt(0) + "j".charCodeAt(0) - square.charCodeAt(0));
  return `${file}${11 - Number(square.slice(1))}`;
}

export function problemText(problem: SetupProblem): string {
  switch (problem.problem) {
    case "wrong_count": return `${problem.piece}: the army has ${problem.expected}, the setup has ${problem.found}`;
    case "outside_zone": return `${problem.square} is outside your setup zone`;
    case "lake": return `${problem.square} is a lake`;
    case "duplicate_square": return `${problem.square} holds two pieces`;
    case "bad_square": return `${problem.square} is not a square`;
    case "unknown_piece": return `${problem.piece} (at ${problem.square}) is not a piece of this variant`;
  }
}

export function setupScreen(root: HTMLElement, view: GameView, done: () => void): () => void {
  const me = view.you as Color;
  const placement = new Map<string, Piece>();
  let chosen: string | null = null; // "piece:<name>" from the tray, or a square
  let variant: Variant | null = null;
  let saved: components["schemas"]["SavedSetup"][] = [];
  const message = notice();
  const problems = h("ul", { class: "problems", id: "setup-problems" });
  const area = h("div", { class: "setup" });
  show(root, h("section", { class: "card" }, h("h2", {}, `Set up your army (${me}) for ${view.variant}`),
    h("p", { class: "hint" }, "Drag pieces onto your zone, or choose a piece in the tray and then a square. Choose two placed pieces to swap them; choose a placed piece and then its tray entry to take it back."),
    area, message.element, problems));

  const zone = () => new Set((variant?.setup_zones[me] ?? []).filter((s) => !LAKES.has(s)));
  const left = (piece: Piece) =>
    (variant?.army.find((a) => a.piece === piece)?.count ?? 0) - [...placement.values()].filter((p) => p === piece).length;

  const place = (from: string, to: string) => {
    if (!zone().has(to)) return;
    if (from.startsWith("piece:")) {
      const piece = from.slice("piece:".length) as Piece;
      if (left(piece) <= 0) return;
      placement.set(to, piece);
    } else if (from !== to && placement.has(from)) {
      const moving = placement.get(from) as Piece;
      const there = placement.get(to);
      if (there === undefined) placement.delete(from);
      else placement.set(from, there);
      placement.set(to, moving);
    }
  };
  const onSquare = (square: string) => {
    if (chosen === null) {
      if (placement.has(square)) chosen = square;
    } else {
      place(chosen, square);
      chosen = chosen.startsWith("piece:") && left(chosen.slice(6) as Piece) > 0 ? chosen : null;
    }
    draw();
  };
  const onTray = (piece: Piece) => {
    if (chosen !== null && !chosen.startsWith("piece:")) {
      placement.delete(chosen);
      chosen = null;
    } else {
      chosen = chosen === `piece:${piece}` ? null : `piece:${piece}`;
    }
    draw();
  };
  const random = () => {
    const squares = [...zone()];
    for (let i = squares.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [squares[i], squares[j]] = [squares[j], squares[i]];
    }
    placement.clear();
    for (const entry of variant?.army ?? []) {
      for (let n = 0; n < entry.count; n++) placement.set(squares.pop() as string, entry.piece);
    }
    draw();
  };
  let sending = false;
  const submit = async () => {
    if (sending) return;
    sending = true;
    problems.replaceChildren();
    message.say("Sending your setup…");
    try {
      await must(client.api.POST("/api/v1/games/{id}/setup", {
        params: { path: { id: view.id } },
        body: { placement: Object.fromEntries(placement) as Record<string, Piece> },
      }));
      message.say("Setup accepted.");
      done();
    } catch (error) {
      const list = error instanceof ProblemError && Array.isArray(error.problem["problems"]) ? (error.problem["problems"] as SetupProblem[]) : [];
      message.say(list.length > 0 ? `The server refused the setup: ${list.length} problem${list.length > 1 ? "s" : ""}.` : explain(error), "error");
      problems.replaceChildren(...list.map((p) => h("li", {}, problemText(p))));
    } finally {
      sending = false;
    }
  };
  const name = h("input", { id: "setup-name", placeholder: "name", maxlength: 40 });
  const save = async () => {
    try {
      await must(client.api.POST("/api/v1/me/setups", {
        body: { name: name.value.trim(), variant: view.variant, color: me, placement: Object.fromEntries(placement) as Record<string, Piece> },
      }));
      message.say(`Saved as "${name.value.trim()}".`);
      await loadSaved();
    } catch (error) {
      message.say(explain(error), "error");
    }
  };
  const use = (choice: string) => {
    const setup = saved.find((s) => s.id === choice);
    if (!setup) return;
    placement.clear();
    for (const [square, piece] of Object.entries(setup.placement)) placement.set(me === "red" ? square : turned(square), piece);
    draw();
  };
  const loadSaved = async () => {
    saved = (await must(client.api.GET("/api/v1/me/setups"))).setups.filter((s) => s.variant === view.variant);
    draw();
  };

  function draw(): void {
    if (variant === null) return;
    const tray = h("div", { class: "tray", role: "toolbar", "aria-label": "Pieces to place" },
      variant.army.map((entry) => h("button", {
        type: "button",
        class: `tray-piece${chosen === `piece:${entry.piece}` ? " selected" : ""}`,
        "data-piece": entry.piece,
        draggable: "true",
        "aria-label": `${entry.piece}, ${left(entry.piece)} left`,
        onclick: () => onTray(entry.piece),
        ondragstart: ((event: DragEvent) => event.dataTransfer?.setData("text/plain", `piece:${entry.piece}`)) as EventListener,
      }, h("span", { class: `piece ${me}` }, MARKS[entry.piece]), ` ${entry.piece} × ${left(entry.piece)}`)));
    const pieces = [...placement].map(([square, piece]) => ({ square, color: me, piece, revealed: false }));
    const board = drawBoard({ pieces, viewer: me, zone: zone(), selected: chosen, onSquare, onDrop: (from, to) => { place(from, to); draw(); } });
    const pick = h("select", { id: "saved-setups", "aria-label": "Saved setups" }, h("option", { value: "" }, saved.length ? "a saved setup…" : "no saved setups"),
      saved.map((s) => h("option", { value: s.id }, s.name)));
    pick.addEventListener("change", () => use(pick.value));
    show(area, board, h("div", { class: "setup-side" }, tray,
      h("div", { class: "actions" },
        h("button", { type: "button", id: "random-setup", class: "secondary", onclick: random }, "Random"),
        h("button", { type: "button", class: "secondary", onclick: () => { placement.clear(); draw(); } }, "Clear"),
        h("button", { type: "button", id: "submit-setup", onclick: () => void submit() }, "Submit setup")),
      h("div", { class: "actions" }, pick, name, h("button", { type: "button", class: "secondary", onclick: () => void save() }, "Save"))));
  }

  void must(client.api.GET("/api/v1/variants")).then((list) => {
    variant = list.variants.find((v) => v.variant === view.variant) ?? null;
    draw();
    return loadSaved();
  }).catch((error) => message.say(explain(error), "error"));
  return () => {};
}
