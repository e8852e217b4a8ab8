// Log in or register: one form, two buttons. The server's own words are
// shown when it refuses (a taken name, a short password, too many tries).
import { client } from "./main.js";
import { explain, h, notice, show } from "./dom.js";

export function authScreen(root: HTMLElement, done: () => void): () => void {
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 32 });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 8 });
  const message = notice();
  const submit = (mode: "login" | "register") => async (event: Event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    message.say(mode === "login" ? "Logging in…" : "Creating your account…");
    try {
      if (mode === "login") await client.login(username.value.trim(), password.value);
      else await client.register(username.value.trim(), password.value);
      done();
    } catch (error) {
      message.say(explain(error), "error");
    }
  };
  const form = h(
    "form",
    { class: "card auth", onsubmit: submit("login") },
    h("h1", {}, "Stratego by correspondence"),
    h("p", {}, "Play over days, one move at a time. Log in, or choose a name and a password to register."),
    h("label", { for: "username" }, "Username"),
    username,
    h("label", { for: "password" }, "Password (8 characters or more)"),
    password,
    h("div", { class: "actions" },
      h("button", { type: "submit", id: "login" }, "Log in"),
      h("button", { type: "button", id: "register", class: "secondary", onclick: submit("register") }, "Register"),
    ),
    message.element,
  );
  show(root, form);
  username.focus();
  return () => {};
}
