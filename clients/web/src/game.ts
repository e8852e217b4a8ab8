// One game. Before play: the waiting room or the setup screen. In play:
// the board from the viewer's own view (legal moves from `legal_moves`,
// the last move marked), moves by clicking or by typing squares, the
// clocks, draw offers, resignation, rematch, the history stepped through,
// and the board picture and export. The view follows the game's stream.
import { type components, type GameView, must, type StreamState } from "stratego-client";
import { drawBoard, type Color } from "./board.js";
import { explain, h, notice, show, until } from "./dom.js";
import { moveText, positionAt } from "./history.js";
import { timeControlText } from "./lobby.js";
import { client, go } from "./main.js";
import { setupScreen } from "./setup.js";

type MoveView = components["schemas"]["MoveView"];

export function gameScreen(root: HTMLElement, id: string): () => void {
  const path = { params: { path: { id } } };
  let view: GameView | null = null;
  let moves: MoveView[] = [];
  let selected: string | null = null;
  let step: number | null = null; // a ply being looked at, null: the present
  let setupOpen = false;
  let sending = false;
  const message = notice();
  const streamState = h("span", { class: "stream", id: "game-stream" }, "connecting…");
  const boardArea = h("div", { class: "board-area" });
  const side = h("div", { class: "side" });
  const historyArea = h("section", { class: "card history", id: "history" });
  const typed = h("input", { id: "move-input", placeholder: "e.g. e4 e5", autocomplete: "off", "aria-label": "Type a move: from-square and to-square" });
  const moveForm = h("form", { class: "move-form", onsubmit: (event: Event) => {
    event.preventDefault();
    const squares = typed.value.toLowerCase().match(/[a-j](?:10|[1-9])/g) ?? [];
    if (squares.length !== 2) return message.say("Type two squares, such as e4 e5.", "error");
    void move(squares[0], squares[1]);
  } }, h("label", { for: "move-input" }, "Move"), typed, h("button", { type: "submit" }, "Play"));
  const playArea = h("div", { class: "game" }, h("div", {}, boardArea, moveForm, message.element), side);
  show(root, h("div", {}, h("p", { class: "crumbs" }, h("a", { href: "#/" }, "← Lobby"), " · stream: ", streamState), playArea, historyArea));

  const me = (): Color | null => (view?.you ?? null) as Color | null;
  const myTurn = () => view !== null && view.legal_moves !== undefined;

  async function move(from: string, to: string): Promise<void> {
    if (view === null || sending) return;
    sending = true;
    step = null; // a move is always made from the present position
    message.say(`Playing ${from}–${to}…`);
    try {
      const answer = await must(client.api.POST("/api/v1/games/{id}/moves", { ...path, body: { from, to, expected_version: view.version } }));
      selected = null;
      typed.value = "";
      message.say(moveText(answer.move, me()));
      accept(answer.game);
    } catch (error) {
      message.say(explain(error), "error");
    } finally {
      sending = false;
    }
  }
  // A game action: its answer is this game's new view (shown at once, the
  // stream may be reconnecting), or for a rematch the new game's.
  const act = (work: () => Promise<GameView>, done = "", then: (game: GameView) => void = accept) => async () => {
    try {
      const game = await work();
      if (done) message.say(done);
      then(game);
    } catch (error) {
      message.say(explain(error), "error");
    }
  };

  function onSquare(square: string): void {
    if (view === null || !myTurn() || step !== null) return;
    const legal = view.legal_moves ?? [];
    if (selected !== null && legal.some((m) => m.from === selected && m.to === square)) {
      void move(selected, square);
      return;
    }
    selected = legal.some((m) => m.from === square) ? square : null;
    drawBoardArea();
  }

  function drawBoardArea(): void {
    if (view === null) return;
    const viewer = me() ?? "red";
    const present = view.board.map((p) => ({ square: p.square, color: p.color, piece: p.piece ?? null, revealed: p.revealed }));
    moveForm.hidden = !myTurn() || step !== null;
    if (step !== null) {
      const at = step;
      const shown = moves.find((m) => m.ply === at);
      show(boardArea, drawBoard({ pieces: positionAt(present, moves, at), viewer, spectator: me() === null, lastMove: shown ?? null }));
      return;
    }
    const targets = new Set((view.legal_moves ?? []).filter((m) => m.from === selected).map((m) => m.to));
    show(boardArea, drawBoard({ pieces: present, viewer, spectator: me() === null, selected, targets, lastMove: view.last_move, onSquare }));
  }

  function drawSide(): void {
    if (view === null) return;
    const v = view;
    const you = me();
    const name = (color: Color) => v.players[color]?.username ?? "open seat";
    const status = v.status === "finished" && v.result
      ? `Game over: ${v.result.winner === null ? "a draw" : v.result.winner === you ? "you won" : you ? "you lost" : `${v.result.winner} won`} (${v.result.reason.replaceAll("_", " ")}).`
      : v.status === "playing" ? (myTurn() ? "Your move." : `${v.turn === you ? "Your" : "Their"} move.`)
      : v.status === "aborted" ? "This game was aborted." : v.status === "waiting" ? "Waiting for an opponent to accept." : "Setting up.";
    const clock = (color: Color) => {
      const c = v.clocks?.[color];
      if (!c) return null;
      const days = Math.floor(c.remaining_seconds / 86400);
      const hours = Math.floor((c.remaining_seconds % 86400) / 3600);
      return h("li", { class: c.running ? "running" : "" }, `${name(color)} (${color}): ${days} d ${hours} h left`,
        c.on_vacation ? `, on vacation${c.until ? ` until ${new Date(c.until).toLocaleDateString()}` : ""}` : "",
        c.running && c.deadline ? `, deadline ${until(c.deadline)}` : "");
    };
    const captured = (color: Color) => `${color}: ${v.captured[color].map((p) => p ?? "?").join(", ") || "none"}`;
    const draw = v.status === "playing" && you !== null
      ? v.draw_offer === null
        ? h("button", { type: "button", class: "secondary", id: "offer-draw", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/draw", { ...path, body: { action: "offer" } })), "Draw offered.") }, "Offer a draw")
        : v.draw_offer === you ? h("span", {}, "You offered a draw.")
        : h("span", { id: "draw-offer" }, "Your opponent offers a draw: ",
            h("button", { type: "button", id: "accept-draw", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/draw", { ...path, body: { action: "accept" } }))) }, "Accept"),
            h("button", { type: "button", class: "secondary", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/draw", { ...path, body: { action: "decline" } }))) }, "Decline"))
      : null;
    const resign = (v.status === "playing" || v.status === "setup") && you !== null
      ? h("button", { type: "button", class: "danger", id: "resign", onclick: () => {
          if (confirm("Resign this game?")) void act(() => must(client.api.POST("/api/v1/games/{id}/resign", path)))();
        } }, "Resign")
      : null;
    const rematch = v.status === "finished" && you !== null && v.tournament === null
      ? h("button", { type: "button", id: "rematch", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/rematch", { ...path, body: {} })), "", (game) => go(`#/game/${game.id}`)) }, "Offer a rematch")
      : null;
    const abort = v.status === "waiting" && v.creator.username === client.session()?.username
      ? h("button", { type: "button", class: "secondary", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/abort", path)), "Aborted.") }, "Cancel this game")
      : null;
    show(side, h("section", { class: "card" },
      h("h2", {}, `${name("red")} (red) vs ${name("blue")} (blue)`),
      h("p", { class: "status", id: "status" }, status),
      h("p", { class: "hint" }, `${v.variant}, ${timeControlText(v.time_control)}${v.rated ? ", rated" : ""}${v.tournament ? ", tournament game" : ""}; version ${v.version}, ply ${v.ply}`),
      h("ul", { class: "clocks" }, clock("red"), clock("blue")),
      h("p", {}, "Captured — ", captured("red"), "; ", captured("blue")),
      h("div", { class: "actions" }, draw, resign, rematch, abort),
      v.status === "playing" || v.status === "finished" ? pictures() : null));
  }

  function pictures(): HTMLElement {
    const open = (kind: "board.svg" | "board.png" | "export") => async () => {
      try {
        const answer = kind === "export"
          ? await client.api.GET("/api/v1/games/{id}/export", { ...path, parseAs: "blob" })
          : await client.api.GET(kind === "board.svg" ? "/api/v1/games/{id}/board.svg" : "/api/v1/games/{id}/board.png", { ...path, parseAs: "blob" });
        const blob = await must(Promise.resolve(answer));
        const url = URL.createObjectURL(blob);
        const link = h("a", { href: url, download: `${id}-${kind}${kind === "export" ? ".json" : ""}` });
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } catch (error) {
        message.say(explain(error), "error");
      }
    };
    return h("p", { class: "links" }, "Download: ",
      h("button", { type: "button", class: "link", onclick: open("board.svg") }, "board (SVG)"), " ",
      h("button", { type: "button", class: "link", onclick: open("board.png") }, "board (PNG)"), " ",
      h("button", { type: "button", class: "link", onclick: open("export") }, "record (JSON)"));
  }

  function drawHistory(): void {
    const last = moves.length;
    const at = step ?? last;
    const go = (ply: number | null) => () => {
      step = ply === null || ply >= last ? null : Math.max(0, ply);
      drawBoardArea();
      drawHistory();
    };
    show(historyArea, h("h2", {}, "History"),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", id: "history-start", onclick: go(0), disabled: at === 0 }, "« First"),
        h("button", { type: "button", class: "secondary", id: "history-back", onclick: go(at - 1), disabled: at === 0 }, "◀ Back"),
        h("span", { id: "history-ply" }, step === null ? `now (ply ${last})` : `after ply ${at} of ${last}`),
        h("button", { type: "button", class: "secondary", id: "history-forward", onclick: go(at + 1), disabled: step === null }, "Next ▶"),
        h("button", { type: "button", class: "secondary", onclick: go(null), disabled: step === null }, "Now »")),
      h("ol", { class: "moves", start: 1 }, moves.map((m) => h("li", { class: m.ply === at ? "current" : "" }, moveText(m, me()).replace(/^\d+\. /, "")))));
  }

  // The history is kept only when it is of the version on the board: the
  // positions are found by taking its moves back from that board.
  async function loadMoves(): Promise<void> {
    if (view === null) return;
    if (view.ply === 0) {
      moves = [];
    } else {
      const history = await must(client.api.GET("/api/v1/games/{id}/moves", path));
      if (view === null || history.version !== view.version) return; // a newer view reloads it
      moves = history.moves;
    }
    if (step !== null && step > moves.length) step = null;
    drawHistory();
  }

  function accept(next: GameView): void {
    if (view !== null && next.version < view.version) return;
    const plyChanged = view === null || view.ply !== next.ply;
    view = next;
    if (view.status === "setup" && view.you && !view.setup_done[view.you as Color]) {
      if (!setupOpen) {
        setupOpen = true;
        setupScreen(playArea, view, () => void must(client.api.GET("/api/v1/games/{id}", path)).then(accept).catch((error) => message.say(explain(error), "error")));
      }
      return;
    }
    if (setupOpen) {
      setupOpen = false;
      show(playArea, h("div", {}, boardArea, moveForm, message.element), side);
    }
    if (selected !== null && !(view.legal_moves ?? []).some((m) => m.from === selected)) selected = null;
    drawBoardArea();
    drawSide();
    if (plyChanged || moves.length !== view.ply) void loadMoves().catch((error) => message.say(explain(error), "error"));
  }

  const follow = client.watchGame(id, accept, (state: StreamState) => {
    streamState.textContent = state.state === "open" ? "live" : state.state === "reconnecting" ? `reconnecting (${state.reason})…` : `closed (${state.reason})`;
    streamState.dataset["state"] = state.state;
  });
  void must(client.api.GET("/api/v1/games/{id}", path)).then(accept).catch((error) => message.say(explain(error), "error"));
  return () => follow.close();
}
