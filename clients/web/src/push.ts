// Web Push for this browser: a service worker (sw.ts, served at
// /play/sw.js) shows the server's notices while no page is open. The
// browser's subscription is sent to POST /me/push-subscriptions, and
// found again in GET /me/push-subscriptions by its endpoint.
import { must } from "stratego-client";
import { explain, h } from "./dom.js";
import { client } from "./main.js";

export function pushControls(): HTMLElement {
  const box = h("div", { id: "push" });
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    box.append(h("p", {}, "This browser cannot receive push notifications."));
    return box;
  }
  const state = h("p", { id: "push-state" }, "Checking…");
  const button = h("button", { type: "button", class: "secondary", id: "push-toggle", disabled: true }, "…");
  box.append(state, button);

  const current = async () => {
    const registration = await navigator.serviceWorker.getRegistration("/play/");
    const subscription = await registration?.pushManager.getSubscription();
    if (!subscription) return null;
    const list = await must(client.api.GET("/api/v1/me/push-subscriptions"));
    const known = list.subscriptions.find((s) => s.endpoint === subscription.endpoint);
    return { subscription, known };
  };
  const refresh = async () => {
    try {
      const found = await current();
      const on = found?.known !== undefined;
      state.textContent = on
        ? "This browser is notified of your moves, challenges and results."
        : Notification.permission === "denied"
          ? "Notifications are blocked for this site in the browser's settings."
          : "This browser is not notified.";
      button.textContent = on ? "Stop notifying this browser" : "Notify this browser";
      button.disabled = Notification.permission === "denied";
      button.onclick = () => void (on ? turnOff() : turnOn());
    } catch (error) {
      state.textContent = explain(error);
    }
  };
  const turnOn = async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") return void refresh();
      const registration = await navigator.serviceWorker.register("/play/sw.js", { scope: "/play/" });
      await navigator.serviceWorker.ready;
      const { public_key } = await must(client.api.GET("/api/v1/push/vapid-public-key"));
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(public_key) }));
      const json = subscription.toJSON();
      await must(client.api.POST("/api/v1/me/push-subscriptions", {
        body: {
          endpoint: subscription.endpoint,
          expirationTime: subscription.expirationTime,
          keys: { p256dh: json.keys?.["p256dh"] ?? "", auth: json.keys?.["auth"] ?? "" },
        },
      }));
    } catch (error) {
      state.textContent = explain(error);
      return;
    }
    await refresh();
  };
  const turnOff = async () => {
    try {
      const found = await current();
      if (found?.known) {
        await must(client.api.DELETE("/api/v1/me/push-subscriptions/{id}", { params: { path: { id: found.known.id } } }));
      }
      await found?.subscription.unsubscribe();
    } catch (error) {
      state.textContent = explain(error);
      return;
    }
    await refresh();
  };
  void refresh();
  return box;
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const bytes = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}
