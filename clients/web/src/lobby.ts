// The lobby: your games (those waiting for you first), challenges to
// accept or decline, open games to join, a form to create one, and your
// vacation, tournaments and this browser's notifications. It reloads
// itself when an event arrives on the caller's stream.
import type { components, GameSummary } from "stratego-client";
import { must } from "stratego-client";
import { explain, h, notice, show, until } from "./dom.js";
import { client, go } from "./main.js";
import { pushControls } from "./push.js";

type Variant = components["schemas"]["VariantInfo"];
type TimeControl = components["schemas"]["TimeControl"];

export function lobbyScreen(root: HTMLElement): () => void {
  const me = client.session()?.username ?? "";
  const message = notice();
  const games = h("section", { class: "card", id: "games" }, h("h2", {}, "Your games"));
  const challenges = h("section", { class: "card", id: "challenges" });
  const open = h("section", { class: "card", id: "open-games" });
  const side = h("section", { class: "card", id: "account-side" });
  const create = h("section", { class: "card", id: "create" });
  show(root, h("div", { class: "lobby" }, message.element, games, challenges, open, create, side));

  const act = (work: () => Promise<unknown>, after?: () => void) => async () => {
    try {
      await work();
      after ? after() : void load();
    } catch (error) {
      message.say(explain(error), "error");
    }
  };

  const waitsForMe = (game: GameSummary): boolean => {
    const seat = game.players.red?.username === me ? "red" : game.players.blue?.username === me ? "blue" : null;
    if (seat === null) return false;
    if (game.status === "setup") return !game.setup_done[seat];
    return game.status === "playing" && game.turn === seat;
  };
  const opponentOf = (game: GameSummary): string => {
    const other = [game.players.red, game.players.blue, game.opponent, game.creator].find(
      (player) => player !== null && player !== undefined && player.username !== me,
    );
    return other?.username ?? "an open seat";
  };
  const stateOf = (game: GameSummary): string => {
    if (game.status === "finished" && game.result) {
      const winner = game.result.winner;
      const seat = game.players.red?.username === me ? "red" : "blue";
      const verdict = winner === null ? "Draw" : winner === seat ? "Won" : "Lost";
      return `${verdict} (${game.result.reason.replaceAll("_", " ")})`;
    }
    if (waitsForMe(game)) return game.status === "setup" ? "Your setup" : "Your move";
    return { waiting: "Waiting for an opponent", setup: "Opponent's setup", playing: "Their move", finished: "Finished", aborted: "Aborted" }[game.status];
  };

  async function load(): Promise<void> {
    try {
      const [mine, waiting] = await Promise.all([
        must(client.api.GET("/api/v1/games", { params: { query: { mine: true, limit: 100 } } })),
        must(client.api.GET("/api/v1/games", { params: { query: { status: "waiting", limit: 100 } } })),
      ]);
      const sorted = [...mine.games].sort((a, b) => {
        const first = Number(waitsForMe(b)) - Number(waitsForMe(a));
        if (first !== 0) return first;
        const live = Number(b.status === "playing" || b.status === "setup") - Number(a.status === "playing" || a.status === "setup");
        if (live !== 0) return live;
        return (a.deadline ?? "9999").localeCompare(b.deadline ?? "9999") || b.updated_at.localeCompare(a.updated_at);
      });
      show(games, h("h2", {}, "Your games"), sorted.length === 0 ? h("p", {}, "No games yet: create one below or join an open one.") :
        h("ul", { class: "games" }, sorted.map((game) =>
          h("li", { class: waitsForMe(game) ? "game mine" : "game", "data-game": game.id },
            h("a", { href: `#/game/${game.id}` }, `${game.variant} against ${opponentOf(game)}`),
            h("span", { class: "state" }, stateOf(game)),
            game.deadline && (game.status === "playing" || game.status === "setup") ? h("span", { class: "deadline" }, `deadline ${until(game.deadline)}`) : null,
          ))));
      const toMe = mine.games.filter((g) => g.status === "waiting" && g.opponent?.username === me && g.creator.username !== me);
      show(challenges, h("h2", {}, "Challenges to you"), toMe.length === 0 ? h("p", {}, "None.") :
        h("ul", { class: "games" }, toMe.map((game) => h("li", { class: "game", "data-game": game.id },
          h("span", {}, `${game.creator.username} challenges you to ${game.variant} (${timeControlText(game.time_control)}${game.rated ? ", rated" : ""})`),
          h("button", { type: "button", class: "accept", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/join", { params: { path: { id: game.id } } })), () => go(`#/game/${game.id}`)) }, "Accept"),
          h("button", { type: "button", class: "secondary decline", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/decline", { params: { path: { id: game.id } } }))) }, "Decline"),
        ))));
      const joinable = waiting.games.filter((g) => g.opponent === null && g.creator.username !== me);
      show(open, h("h2", {}, "Open games"), joinable.length === 0 ? h("p", {}, "None right now.") :
        h("ul", { class: "games" }, joinable.map((game) => h("li", { class: "game", "data-game": game.id },
          h("span", {}, `${game.creator.username}: ${game.variant}, ${timeControlText(game.time_control)}`),
          h("button", { type: "button", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/join", { params: { path: { id: game.id } } })), () => go(`#/game/${game.id}`)) }, "Join"),
        ))));
      document.title = `${sorted.filter(waitsForMe).length > 0 ? `(${sorted.filter(waitsForMe).length}) ` : ""}Stratego`;
    } catch (error) {
      message.say(explain(error), "error");
    }
  }

  async function drawSide(): Promise<void> {
    try {
      const [vacation, tournaments] = await Promise.all([
        must(client.api.GET("/api/v1/me/vacation")),
        must(client.api.GET("/api/v1/tournaments", { params: { query: { limit: 10 } } })),
      ]);
      show(side,
        h("h2", {}, "Vacation"),
        h("p", { id: "vacation" }, vacation.on_vacation
          ? `You are on vacation until ${new Date(vacation.ends_at ?? vacation.until ?? "").toLocaleString()}: your clocks are stopped.`
          : `Not on vacation; ${vacation.remaining_days} of ${vacation.allowance_days} days left this year.`),
        h("h2", {}, "Tournaments"),
        tournaments.tournaments.length === 0 ? h("p", {}, "No tournaments.") :
          h("ul", { class: "games" }, tournaments.tournaments.map((t) => h("li", {},
            h("span", {}, `${t.name}: ${t.system}, ${t.variant}, ${t.players}/${t.max_players} players, ${t.status}${t.status === "running" ? `, round ${t.current_round} of ${t.round_count}` : ""}`),
            t.status === "open" ? h("button", { type: "button", class: "secondary", onclick: act(() => must(client.api.POST("/api/v1/tournaments/{id}/join", { params: { path: { id: t.id } } }))) }, "Join") : null,
          ))),
        h("h2", {}, "Notifications"),
        pushControls(),
      );
    } catch (error) {
      message.say(explain(error), "error");
    }
  }

  void must(client.api.GET("/api/v1/variants")).then((list) => show(create, ...createForm(list.variants, message.say))).catch((error) => message.say(explain(error), "error"));
  void load();
  void drawSide();
  const onEvent = () => void load();
  window.addEventListener("stratego:event", onEvent);
  return () => window.removeEventListener("stratego:event", onEvent);
}

export function timeControlText(control: TimeControl): string {
  switch (control.type) {
    case "per_move": return `${control.days} d per move`;
    case "fischer": return `${control.initial_days} d + ${control.increment_days} d per move (at most ${control.max_days} d)`;
    case "moves_in_days": return `${control.moves} moves in ${control.days} d`;
  }
}

function createForm(variants: Variant[], say: (text: string, kind?: "info" | "error") => void): Node[] {
  const field = (label: string, input: HTMLElement) => h("label", {}, h("span", {}, label), input);
  const variant = h("select", { name: "variant", id: "variant" }, variants.map((v) => h("option", { value: v.variant }, `${v.variant} (${v.army_size} pieces)`)));
  const opponent = h("input", { name: "opponent", id: "opponent", placeholder: "a username, or empty for an open game", autocomplete: "off" });
  const color = h("select", { name: "color", id: "color" }, h("option", { value: "random" }, "random"), h("option", { value: "red" }, "red (moves first)"), h("option", { value: "blue" }, "blue"));
  const control = h("select", { name: "time_control", id: "time-control" }, h("option", { value: "per_move" }, "days per move"), h("option", { value: "fischer" }, "Fischer (bank + increment)"), h("option", { value: "moves_in_days" }, "moves in days"));
  const a = h("input", { type: "number", id: "tc-a", value: 3, min: 1, max: 90 });
  const b = h("input", { type: "number", id: "tc-b", value: 1, min: 1, max: 180 });
  const c = h("input", { type: "number", id: "tc-c", value: 10, min: 1, max: 180 });
  const hints = h("span", { class: "hint" });
  const twoSquare = h("input", { type: "number", id: "two-square", value: 3, min: 2, max: 10 });
  const moreSquares = h("input", { type: "checkbox", id: "more-squares" });
  const rated = h("input", { type: "checkbox", id: "rated", checked: true });
  const relabel = () => {
    const labels = { per_move: ["days per move", "", ""], fischer: ["initial days", "increment days", "most days"], moves_in_days: ["moves", "days", ""] }[control.value as TimeControl["type"]];
    hints.textContent = labels.filter(Boolean).join(" / ");
    b.hidden = labels[1] === "";
    c.hidden = labels[2] === "";
  };
  control.addEventListener("change", relabel);
  relabel();
  const timeControl = (): TimeControl => {
    if (control.value === "fischer") return { type: "fischer", initial_days: a.valueAsNumber, increment_days: b.valueAsNumber, max_days: c.valueAsNumber };
    if (control.value === "moves_in_days") return { type: "moves_in_days", moves: a.valueAsNumber, days: b.valueAsNumber };
    return { type: "per_move", days: a.valueAsNumber };
  };
  const form = h("form", {
    id: "create-form",
    onsubmit: async (event: Event) => {
      event.preventDefault();
      try {
        const game = await must(client.api.POST("/api/v1/games", {
          body: {
            variant: variant.value as Variant["variant"],
            opponent: opponent.value.trim() === "" ? null : opponent.value.trim(),
            color: color.value as "red" | "blue" | "random",
            rated: rated.checked,
            time_control: timeControl(),
            rules: { two_square_limit: twoSquare.valueAsNumber, more_squares_rule: moreSquares.checked },
          },
        }));
        go(`#/game/${game.id}`);
      } catch (error) {
        say(explain(error), "error");
      }
    },
  },
    field("Variant", variant), field("Opponent", opponent), field("Your color", color),
    field("Time control", control), h("div", { class: "row" }, a, b, c, hints),
    field("Two-square limit", twoSquare), field("More-squares rule", moreSquares), field("Rated", rated),
    h("button", { type: "submit", id: "create-game" }, "Create game"),
  );
  return [h("h2", {}, "New game"), form];
}
