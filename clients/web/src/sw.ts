// The service worker of /play: shows the notices the server pushes
// (docs/notifications.md: squares, names, times and results, never a
// rank) and opens the game when one is clicked.
/// <reference lib="webworker" />
export {};
declare const self: ServiceWorkerGlobalScope;

interface Notice {
  type: string;
  data: { game_id?: string | null; opponent?: string | null; deadline?: string | null; result?: { winner: string | null } | null };
}

const TITLES: Record<string, string> = {
  your_move: "Your move",
  challenge_received: "A new challenge",
  game_started: "A game started",
  deadline_soon: "A deadline is near",
  draw_offered: "A draw is offered",
  rematch_offered: "A rematch is offered",
  game_over: "A game is over",
};

self.addEventListener("push", (event) => {
  let notice: Notice;
  try {
    notice = event.data?.json() as Notice;
  } catch {
    return;
  }
  const opponent = notice.data.opponent ? ` against ${notice.data.opponent}` : "";
  const deadline = notice.data.deadline ? `; deadline ${new Date(notice.data.deadline).toLocaleString()}` : "";
  const game = notice.data.game_id ?? "";
  event.waitUntil(
    self.registration.showNotification(TITLES[notice.type] ?? "Stratego", {
      body: `Stratego${opponent}${deadline}`,
      tag: game === "" ? notice.type : `game-${game}`,
      data: { url: game === "" ? "/play/#/" : `/play/#/game/${game}` },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data as { url?: string } | null)?.url ?? "/play/#/";
  event.waitUntil(self.clients.openWindow(url));
});
