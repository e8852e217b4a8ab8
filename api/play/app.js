// ../typescript/node_modules/openapi-fetch/dist/index.mjs
var PATH_PARAM_RE = /\{[^{}]+\}/g;
var supportsRequestInitExt = () => {
  return typeof process === "object" && Number.parseInt(process?.versions?.node?.substring(0, 2)) >= 18 && process.versions.undici;
};
function randomID() {
  return Math.random().toString(36).slice(2, 11);
}
function createClient(clientOptions) {
  let {
    baseUrl = "",
    Request: CustomRequest = globalThis.Request,
    fetch: baseFetch = globalThis.fetch,
    querySerializer: globalQuerySerializer,
    bodySerializer: globalBodySerializer,
    pathSerializer: globalPathSerializer,
    headers: baseHeaders,
    requestInitExt = void 0,
    ...baseOptions
  } = { ...clientOptions };
  requestInitExt = supportsRequestInitExt() ? requestInitExt : void 0;
  baseUrl = removeTrailingSlash(baseUrl);
  const globalMiddlewares = [];
  async function coreFetch(schemaPath, fetchOptions) {
    const {
      baseUrl: localBaseUrl,
      fetch = baseFetch,
      Request = CustomRequest,
      headers,
      params = {},
      parseAs = "json",
      querySerializer: requestQuerySerializer,
      bodySerializer = globalBodySerializer ?? defaultBodySerializer,
      pathSerializer: requestPathSerializer,
      body,
      middleware: requestMiddlewares = [],
      ...init
    } = fetchOptions || {};
    let finalBaseUrl = baseUrl;
    if (localBaseUrl) {
      finalBaseUrl = removeTrailingSlash(localBaseUrl) ?? baseUrl;
    }
    let querySerializer = typeof globalQuerySerializer === "function" ? globalQuerySerializer : createQuerySerializer(globalQuerySerializer);
    if (requestQuerySerializer) {
      querySerializer = typeof requestQuerySerializer === "function" ? requestQuerySerializer : createQuerySerializer({
        ...typeof globalQuerySerializer === "object" ? globalQuerySerializer : {},
        ...requestQuerySerializer
      });
    }
    const pathSerializer = requestPathSerializer || globalPathSerializer || defaultPathSerializer;
    const serializedBody = body === void 0 ? void 0 : bodySerializer(
      body,
      // Note: we declare mergeHeaders() both here and below because it’s a bit of a chicken-or-egg situation:
      // bodySerializer() needs all headers so we aren’t dropping ones set by the user, however,
      // the result of this ALSO sets the lowest-priority content-type header. So we re-merge below,
      // setting the content-type at the very beginning to be overwritten.
      // Lastly, based on the way headers work, it’s not a simple “present-or-not” check becauase null intentionally un-sets headers.
      mergeHeaders(baseHeaders, headers, params.header)
    );
    const finalHeaders = mergeHeaders(
      // with no body, we should not to set Content-Type
      serializedBody === void 0 || // if serialized body is FormData; browser will correctly set Content-Type & boundary expression
      serializedBody instanceof FormData ? {} : {
        "Content-Type": "application/json"
      },
      baseHeaders,
      headers,
      params.header
    );
    const finalMiddlewares = [...globalMiddlewares, ...requestMiddlewares];
    const requestInit = {
      redirect: "follow",
      ...baseOptions,
      ...init,
      body: serializedBody,
      headers: finalHeaders
    };
    let id;
    let options;
    let request = new Request(
      createFinalURL(schemaPath, { baseUrl: finalBaseUrl, params, querySerializer, pathSerializer }),
      requestInit
    );
    let response;
    for (const key in init) {
      if (!(key in request)) {
        request[key] = init[key];
      }
    }
    if (finalMiddlewares.length) {
      id = randomID();
      options = Object.freeze({
        baseUrl: finalBaseUrl,
        fetch,
        parseAs,
        querySerializer,
        bodySerializer,
        pathSerializer
      });
      for (const m of finalMiddlewares) {
        if (m && typeof m === "object" && typeof m.onRequest === "function") {
          const result = await m.onRequest({
            request,
            schemaPath,
            params,
            options,
            id
          });
          if (result) {
            if (result instanceof Request) {
              request = result;
            } else if (result instanceof Response) {
              response = result;
              break;
            } else {
              throw new Error("onRequest: must return new Request() or Response() when modifying the request");
            }
          }
        }
      }
    }
    if (!response) {
      try {
        response = await fetch(request, requestInitExt);
      } catch (error2) {
        let errorAfterMiddleware = error2;
        if (finalMiddlewares.length) {
          for (let i = finalMiddlewares.length - 1; i >= 0; i--) {
            const m = finalMiddlewares[i];
            if (m && typeof m === "object" && typeof m.onError === "function") {
              const result = await m.onError({
                request,
                error: errorAfterMiddleware,
                schemaPath,
                params,
                options,
                id
              });
              if (result) {
                if (result instanceof Response) {
                  errorAfterMiddleware = void 0;
                  response = result;
                  break;
                }
                if (result instanceof Error) {
                  errorAfterMiddleware = result;
                  continue;
                }
                throw new Error("onError: must return new Response() or instance of Error");
              }
            }
          }
        }
        if (errorAfterMiddleware) {
          throw errorAfterMiddleware;
        }
      }
      if (finalMiddlewares.length) {
        for (let i = finalMiddlewares.length - 1; i >= 0; i--) {
          const m = finalMiddlewares[i];
          if (m && typeof m === "object" && typeof m.onResponse === "function") {
            const result = await m.onResponse({
              request,
              response,
              schemaPath,
              params,
              options,
              id
            });
            if (result) {
              if (!(result instanceof Response)) {
                throw new Error("onResponse: must return new Response() when modifying the response");
              }
              response = result;
            }
          }
        }
      }
    }
    const contentLength = response.headers.get("Content-Length");
    if (response.status === 204 || request.method === "HEAD" || contentLength === "0" && !response.headers.get("Transfer-Encoding")?.includes("chunked")) {
      return response.ok ? { data: void 0, response } : { error: void 0, response };
    }
    if (response.ok) {
      const getResponseData = async () => {
        if (parseAs === "stream") {
          return response.body;
        }
        if (parseAs === "json" && !contentLength) {
          const raw = await response.text();
          return raw ? JSON.parse(raw) : void 0;
        }
        return await response[parseAs]();
      };
      return { data: await getResponseData(), response };
    }
    let error = await response.text();
    try {
      error = JSON.parse(error);
    } catch {
    }
    return { error, response };
  }
  return {
    request(method, url, init) {
      return coreFetch(url, { ...init, method: method.toUpperCase() });
    },
    /** Call a GET endpoint */
    GET(url, init) {
      return coreFetch(url, { ...init, method: "GET" });
    },
    /** Call a PUT endpoint */
    PUT(url, init) {
      return coreFetch(url, { ...init, method: "PUT" });
    },
    /** Call a POST endpoint */
    POST(url, init) {
      return coreFetch(url, { ...init, method: "POST" });
    },
    /** Call a DELETE endpoint */
    DELETE(url, init) {
      return coreFetch(url, { ...init, method: "DELETE" });
    },
    /** Call a OPTIONS endpoint */
    OPTIONS(url, init) {
      return coreFetch(url, { ...init, method: "OPTIONS" });
    },
    /** Call a HEAD endpoint */
    HEAD(url, init) {
      return coreFetch(url, { ...init, method: "HEAD" });
    },
    /** Call a PATCH endpoint */
    PATCH(url, init) {
      return coreFetch(url, { ...init, method: "PATCH" });
    },
    /** Call a TRACE endpoint */
    TRACE(url, init) {
      return coreFetch(url, { ...init, method: "TRACE" });
    },
    /** Register middleware */
    use(...middleware) {
      for (const m of middleware) {
        if (!m) {
          continue;
        }
        if (typeof m !== "object" || !("onRequest" in m || "onResponse" in m || "onError" in m)) {
          throw new Error("Middleware must be an object with one of `onRequest()`, `onResponse() or `onError()`");
        }
        globalMiddlewares.push(m);
      }
    },
    /** Unregister middleware */
    eject(...middleware) {
      for (const m of middleware) {
        const i = globalMiddlewares.indexOf(m);
        if (i !== -1) {
          globalMiddlewares.splice(i, 1);
        }
      }
    }
  };
}
function serializePrimitiveParam(name, value, options) {
  if (value === void 0 || value === null) {
    return "";
  }
  if (typeof value === "object") {
    throw new Error(
      "Deeply-nested arrays/objects aren’t supported. Provide your own `querySerializer()` to handle these."
    );
  }
  return `${name}=${options?.allowReserved === true ? value : encodeURIComponent(value)}`;
}
function serializeObjectParam(name, value, options) {
  if (!value || typeof value !== "object") {
    return "";
  }
  const values = [];
  const joiner = {
    simple: ",",
    label: ".",
    matrix: ";"
  }[options.style] || "&";
  if (options.style !== "deepObject" && options.explode === false) {
    for (const k in value) {
      values.push(k, options.allowReserved === true ? value[k] : encodeURIComponent(value[k]));
    }
    const final2 = values.join(",");
    switch (options.style) {
      case "form": {
        return `${name}=${final2}`;
      }
      case "label": {
        return `.${final2}`;
      }
      case "matrix": {
        return `;${name}=${final2}`;
      }
      default: {
        return final2;
      }
    }
  }
  for (const k in value) {
    const finalName = options.style === "deepObject" ? `${name}[${k}]` : k;
    values.push(serializePrimitiveParam(finalName, value[k], options));
  }
  const final = values.join(joiner);
  return options.style === "label" || options.style === "matrix" ? `${joiner}${final}` : final;
}
function serializeArrayParam(name, value, options) {
  if (!Array.isArray(value)) {
    return "";
  }
  if (options.explode === false) {
    const joiner2 = { form: ",", spaceDelimited: "%20", pipeDelimited: "|" }[options.style] || ",";
    const final = (options.allowReserved === true ? value : value.map((v) => encodeURIComponent(v))).join(joiner2);
    switch (options.style) {
      case "simple": {
        return final;
      }
      case "label": {
        return `.${final}`;
      }
      case "matrix": {
        return `;${name}=${final}`;
      }
      // case "spaceDelimited":
      // case "pipeDelimited":
      default: {
        return `${name}=${final}`;
      }
    }
  }
  const joiner = { simple: ",", label: ".", matrix: ";" }[options.style] || "&";
  const values = [];
  for (const v of value) {
    if (options.style === "simple" || options.style === "label") {
      values.push(options.allowReserved === true ? v : encodeURIComponent(v));
    } else {
      values.push(serializePrimitiveParam(name, v, options));
    }
  }
  return options.style === "label" || options.style === "matrix" ? `${joiner}${values.join(joiner)}` : values.join(joiner);
}
function createQuerySerializer(options) {
  return function querySerializer(queryParams) {
    const search = [];
    if (queryParams && typeof queryParams === "object") {
      for (const name in queryParams) {
        const value = queryParams[name];
        if (value === void 0 || value === null) {
          continue;
        }
        if (Array.isArray(value)) {
          if (value.length === 0) {
            continue;
          }
          search.push(
            serializeArrayParam(name, value, {
              style: "form",
              explode: true,
              ...options?.array,
              allowReserved: options?.allowReserved || false
            })
          );
          continue;
        }
        if (typeof value === "object") {
          search.push(
            serializeObjectParam(name, value, {
              style: "deepObject",
              explode: true,
              ...options?.object,
              allowReserved: options?.allowReserved || false
            })
          );
          continue;
        }
        search.push(serializePrimitiveParam(name, value, options));
      }
    }
    return search.join("&");
  };
}
function defaultPathSerializer(pathname, pathParams) {
  let nextURL = pathname;
  for (const match of pathname.match(PATH_PARAM_RE) ?? []) {
    let name = match.substring(1, match.length - 1);
    let explode = false;
    let style = "simple";
    if (name.endsWith("*")) {
      explode = true;
      name = name.substring(0, name.length - 1);
    }
    if (name.startsWith(".")) {
      style = "label";
      name = name.substring(1);
    } else if (name.startsWith(";")) {
      style = "matrix";
      name = name.substring(1);
    }
    if (!pathParams || pathParams[name] === void 0 || pathParams[name] === null) {
      continue;
    }
    const value = pathParams[name];
    if (Array.isArray(value)) {
      nextURL = nextURL.replace(match, serializeArrayParam(name, value, { style, explode }));
      continue;
    }
    if (typeof value === "object") {
      nextURL = nextURL.replace(match, serializeObjectParam(name, value, { style, explode }));
      continue;
    }
    if (style === "matrix") {
      nextURL = nextURL.replace(match, `;${serializePrimitiveParam(name, value)}`);
      continue;
    }
    nextURL = nextURL.replace(match, style === "label" ? `.${encodeURIComponent(value)}` : encodeURIComponent(value));
  }
  return nextURL;
}
function defaultBodySerializer(body, headers) {
  if (body instanceof FormData) {
    return body;
  }
  if (headers) {
    const contentType = headers.get instanceof Function ? headers.get("Content-Type") ?? headers.get("content-type") : headers["Content-Type"] ?? headers["content-type"];
    if (contentType === "application/x-www-form-urlencoded") {
      return new URLSearchParams(body).toString();
    }
  }
  return JSON.stringify(body);
}
function createFinalURL(pathname, options) {
  let finalURL = `${options.baseUrl}${pathname}`;
  if (options.params?.path) {
    finalURL = options.pathSerializer(finalURL, options.params.path);
  }
  let search = options.querySerializer(options.params.query ?? {});
  if (search.startsWith("?")) {
    search = search.substring(1);
  }
  if (search) {
    finalURL += `?${search}`;
  }
  return finalURL;
}
function mergeHeaders(...allHeaders) {
  const finalHeaders = new Headers();
  for (const h2 of allHeaders) {
    if (!h2 || typeof h2 !== "object") {
      continue;
    }
    const iterator = h2 instanceof Headers ? h2.entries() : Object.entries(h2);
    for (const [k, v] of iterator) {
      if (v === null) {
        finalHeaders.delete(k);
      } else if (Array.isArray(v)) {
        for (const v2 of v) {
          finalHeaders.append(k, v2);
        }
      } else if (v !== void 0) {
        finalHeaders.set(k, v);
      }
    }
  }
  return finalHeaders;
}
function removeTrailingSlash(url) {
  if (url.endsWith("/")) {
    return url.substring(0, url.length - 1);
  }
  return url;
}

// ../typescript/dist/session.js
function memoryStore(initial = null) {
  let session = initial;
  return {
    get: () => session,
    set: (next) => {
      session = next;
    }
  };
}
var AUTH_PATHS = ["/api/v1/auth/login", "/api/v1/auth/register", "/api/v1/auth/refresh"];
var Tokens = class {
  baseUrl;
  store;
  exclusive;
  fetcher;
  refreshing = null;
  copies = /* @__PURE__ */ new WeakMap();
  constructor(baseUrl, store2, exclusive2, fetcher) {
    this.baseUrl = baseUrl;
    this.store = store2;
    this.exclusive = exclusive2;
    this.fetcher = fetcher;
  }
  /** The middleware openapi-fetch runs around every request. */
  middleware() {
    return {
      onRequest: ({ request }) => {
        const session = this.store.get();
        if (session !== null && !isAuthPath(request.url)) {
          request.headers.set("Authorization", `Bearer ${session.access_token}`);
        }
        this.copies.set(request, request.clone());
        return request;
      },
      onResponse: async ({ request, response }) => {
        if (response.status !== 401 || isAuthPath(request.url))
          return response;
        const sent = bearerOf(request);
        const copy = this.copies.get(request);
        if (sent === null || copy === void 0)
          return response;
        const session = await this.renew(sent);
        if (session === null)
          return response;
        copy.headers.set("Authorization", `Bearer ${session.access_token}`);
        return this.fetcher(copy);
      }
    };
  }
  /**
   * A session whose access token is newer than `stale`: the store's, when
   * another request (or tab) already renewed it, or a fresh pair from
   * `/auth/refresh`. Null, and the store emptied, when the refresh token
   * is refused: the user must log in again.
   */
  renew(stale) {
    if (this.refreshing === null) {
      this.refreshing = this.exclusive(() => this.refresh(stale)).finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }
  async refresh(stale) {
    const current = this.store.get();
    if (current === null)
      return null;
    if (current.access_token !== stale)
      return current;
    const answer = await this.fetcher(`${this.baseUrl}/api/v1/auth/refresh`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: current.refresh_token })
    });
    if (!answer.ok) {
      if (answer.status === 401 && this.store.get()?.refresh_token === current.refresh_token) {
        this.store.set(null);
      }
      return null;
    }
    const pair = await answer.json();
    if (this.store.get()?.refresh_token !== current.refresh_token)
      return this.store.get();
    const next = { ...current, access_token: pair.access_token, refresh_token: pair.refresh_token };
    this.store.set(next);
    return next;
  }
};
function isAuthPath(url) {
  const path = new URL(url).pathname;
  return AUTH_PATHS.some((auth) => path.endsWith(auth));
}
function bearerOf(request) {
  const header = request.headers.get("Authorization");
  return header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : null;
}

// ../typescript/dist/stream.js
async function* frames(body, onRetry = () => {
}) {
  const reader = body.getReader();
  try {
    yield* parse(reader, onRetry);
  } finally {
    reader.cancel().catch(() => {
    });
  }
}
async function* parse(reader, onRetry) {
  const decoder = new TextDecoder();
  let buffer = "";
  let frame = { id: null, event: "message", data: "" };
  let hasData = false;
  for (; ; ) {
    const { done, value } = await reader.read();
    if (done)
      return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = lineEnd(buffer)) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1);
      if (line === "") {
        if (hasData)
          yield frame;
        frame = { id: frame.id, event: "message", data: "" };
        hasData = false;
        continue;
      }
      if (line.startsWith(":"))
        continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value2 = colon < 0 ? "" : line.slice(colon + 1);
      if (value2.startsWith(" "))
        value2 = value2.slice(1);
      if (field === "data") {
        frame.data = hasData ? `${frame.data}
${value2}` : value2;
        hasData = true;
      } else if (field === "event") {
        frame.event = value2;
      } else if (field === "id" && !value2.includes("\0")) {
        frame.id = value2;
      } else if (field === "retry" && /^\d+$/.test(value2)) {
        onRetry(Number(value2));
      }
    }
  }
}
function lineEnd(buffer) {
  const cr = buffer.indexOf("\r");
  const lf = buffer.indexOf("\n");
  if (cr < 0)
    return lf;
  if (lf < 0)
    return cr === buffer.length - 1 ? -1 : cr;
  return Math.min(cr, lf);
}
var MAX_DELAY_MILLIS = 3e4;
function follow(open, onFrame, onState = () => {
}, lastEventId = null) {
  const stop = new AbortController();
  let retry = 3e3;
  let failures = 0;
  let last = lastEventId;
  const wait = (millis) => new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, millis);
    stop.signal.addEventListener("abort", done, { once: true });
  });
  const run = async () => {
    while (!stop.signal.aborted) {
      let reason = "the stream ended";
      let delay = retry;
      try {
        const { response, data } = await open(last, stop.signal);
        if (!response.ok)
          await response.body?.cancel().catch(() => {
          });
        if ([401, 403, 404].includes(response.status)) {
          onState({ state: "closed", reason: `the server answered ${response.status}` });
          return;
        }
        if (response.status === 429) {
          const seconds = Number(response.headers.get("Retry-After"));
          delay = (Number.isFinite(seconds) && seconds > 0 ? seconds : 15) * 1e3;
          reason = "too many streams are open";
        } else if (!response.ok || data === null || data === void 0) {
          reason = `the server answered ${response.status}`;
        } else {
          onState({ state: "open" });
          for await (const frame of frames(data, (millis) => retry = millis)) {
            failures = 0;
            if (frame.id !== null)
              last = frame.id;
            onFrame(frame);
          }
        }
      } catch (error) {
        if (stop.signal.aborted)
          break;
        reason = error instanceof Error ? error.message : String(error);
      }
      if (stop.signal.aborted)
        break;
      failures += 1;
      delay = Math.min(MAX_DELAY_MILLIS, delay * 2 ** Math.max(0, failures - 1));
      onState({ state: "reconnecting", inMillis: delay, reason });
      await wait(delay);
    }
    onState({ state: "closed", reason: "closed by the page" });
  };
  void run();
  return { close: () => stop.abort() };
}

// ../typescript/dist/index.js
var ProblemError = class extends Error {
  status;
  problem;
  constructor(status, problem) {
    super(typeof problem.detail === "string" ? problem.detail : `the server answered ${status}`);
    this.status = status;
    this.problem = problem;
  }
};
async function must(call) {
  const { data, error, response } = await call;
  if (error === void 0 && response.ok)
    return data;
  const problem = typeof error === "object" && error !== null ? error : {};
  throw new ProblemError(response.status, problem);
}
function createStrategoClient(options) {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  const store2 = options.store ?? memoryStore();
  const exclusive2 = options.exclusive ?? ((work) => work());
  const tokens = new Tokens(options.baseUrl, store2, exclusive2, fetcher);
  const api = createClient({ baseUrl: options.baseUrl, fetch: fetcher });
  api.use(tokens.middleware());
  const enter = (username, pair) => {
    const session = { username, access_token: pair.access_token, refresh_token: pair.refresh_token };
    store2.set(session);
    return session;
  };
  const parsed = (frame, use) => {
    if (frame.data !== "")
      use(JSON.parse(frame.data));
  };
  return {
    api,
    session: () => store2.get(),
    register: async (username, password) => enter(username, await must(api.POST("/api/v1/auth/register", { body: { username, password } }))),
    login: async (username, password) => enter(username, await must(api.POST("/api/v1/auth/login", { body: { username, password } }))),
    logout: async () => {
      const session = store2.get();
      store2.set(null);
      if (session !== null) {
        await api.POST("/api/v1/auth/logout", { body: { refresh_token: session.refresh_token } });
      }
    },
    watchGame: (id, onView, onState) => follow((last, signal) => api.GET("/api/v1/games/{id}/stream", {
      params: {
        path: { id },
        header: last === null ? {} : { "Last-Event-ID": Number(last) }
      },
      parseAs: "stream",
      signal
    }), (frame) => parsed(frame, onView), onState),
    watchEvents: (after, onEvent, onState) => follow((last, signal) => api.GET("/api/v1/events/stream", {
      params: {
        query: after === null ? {} : { after },
        header: last === null ? {} : { "Last-Event-ID": Number(last) }
      },
      parseAs: "stream",
      signal
    }), (frame) => parsed(frame, onEvent), onState)
  };
}

// src/dom.ts
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === void 0 || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value);
    else if (value === true) element.setAttribute(name, "");
    else element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === void 0 || child === false) continue;
    element.append(child);
  }
  return element;
}
function show(parent, ...children) {
  parent.replaceChildren(...children.filter((c) => c !== null && c !== void 0 && c !== false));
}
function explain(error) {
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
function notice() {
  const element = h("p", { class: "notice", role: "status", "aria-live": "polite" });
  return {
    element,
    say: (text, kind = "info") => {
      element.textContent = text;
      element.className = `notice ${kind}`;
    }
  };
}
function until(iso, now = Date.now()) {
  if (!iso) return "—";
  const seconds = Math.max(0, Math.round((Date.parse(iso) - now) / 1e3));
  if (seconds === 0) return "now";
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor(seconds % 86400 / 3600);
  const minutes = Math.floor(seconds % 3600 / 60);
  if (days > 0) return `in ${days} d ${hours} h`;
  if (hours > 0) return `in ${hours} h ${minutes} min`;
  return `in ${Math.max(1, minutes)} min`;
}

// src/auth.ts
function authScreen(root, done) {
  const username = h("input", { id: "username", name: "username", autocomplete: "username", required: true, minlength: 3, maxlength: 32 });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 8 });
  const message = notice();
  const submit = (mode) => async (event) => {
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
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", id: "login" }, "Log in"),
      h("button", { type: "button", id: "register", class: "secondary", onclick: submit("register") }, "Register")
    ),
    message.element
  );
  show(root, form);
  username.focus();
  return () => {
  };
}

// src/board.ts
var FILES = "abcdefghij";
var LAKES = /* @__PURE__ */ new Set(["c5", "d5", "g5", "h5", "c6", "d6", "g6", "h6"]);
var MARKS = {
  flag: "F",
  spy: "S",
  scout: "2",
  miner: "3",
  sergeant: "4",
  lieutenant: "5",
  captain: "6",
  major: "7",
  colonel: "8",
  general: "9",
  marshal: "10",
  bomb: "B"
};
function squaresFor(viewer) {
  const ranks = viewer === "red" ? [10, 9, 8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const files = viewer === "red" ? [...FILES] : [...FILES].reverse();
  return ranks.flatMap((rank) => files.map((file) => `${file}${rank}`));
}
function pieceLabel(shown, viewer) {
  const whose = viewer === null ? shown.color : shown.color === viewer ? "your" : "enemy";
  if (shown.piece === null) return `${whose} piece, rank unknown`;
  return `${whose} ${shown.piece}${shown.revealed ? " (revealed)" : ""}`;
}
function drawBoard(options) {
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
    const classes = [];
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

// src/history.ts
var other = (color) => color === "red" ? "blue" : "red";
function positionAt(present, moves, ply) {
  const board = new Map(present.map((p) => [p.square, { ...p }]));
  for (const move of [...moves].reverse()) {
    if (move.ply <= ply) break;
    if (move.rescue) board.delete(move.rescue.square);
    const attacker = board.get(move.to) ?? { square: move.to, color: move.color, piece: move.piece, revealed: false };
    const battle = move.battle;
    if (battle === null) {
      board.delete(move.to);
      board.set(move.from, { ...attacker, square: move.from });
      continue;
    }
    const restoredAttacker = { square: move.from, color: move.color, piece: battle.attacker ?? move.piece, revealed: true };
    const restoredDefender = { square: move.to, color: other(move.color), piece: battle.defender, revealed: true };
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
function moveText(move, viewer) {
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

// src/push.ts
function pushControls() {
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
      const on = found?.known !== void 0;
      state.textContent = on ? "This browser is notified of your moves, challenges and results." : Notification.permission === "denied" ? "Notifications are blocked for this site in the browser's settings." : "This browser is not notified.";
      button.textContent = on ? "Stop notifying this browser" : "Notify this browser";
      button.disabled = Notification.permission === "denied";
      button.onclick = () => void (on ? turnOff() : turnOn());
    } catch (error) {
      state.textContent = explain(error);
    }
  };
  const turnOn = async () => {
    try {
      if (await Notification.requestPermission() !== "granted") return void refresh();
      const registration = await navigator.serviceWorker.register("/play/sw.js", { scope: "/play/" });
      await navigator.serviceWorker.ready;
      const { public_key } = await must(client.api.GET("/api/v1/push/vapid-public-key"));
      const subscription = await registration.pushManager.getSubscription() ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64Url(public_key) });
      const json = subscription.toJSON();
      await must(client.api.POST("/api/v1/me/push-subscriptions", {
        body: {
          endpoint: subscription.endpoint,
          expirationTime: subscription.expirationTime,
          keys: { p256dh: json.keys?.["p256dh"] ?? "", auth: json.keys?.["auth"] ?? "" }
        }
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
function fromBase64Url(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/");
  const bytes = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  const out = new Uint8Array(new ArrayBuffer(bytes.length));
  for (let i = 0; i < bytes.length; i++) out[i] = bytes.charCodeAt(i);
  return out;
}

// src/lobby.ts
function lobbyScreen(root) {
  const me = client.session()?.username ?? "";
  const message = notice();
  const games = h("section", { class: "card", id: "games" }, h("h2", {}, "Your games"));
  const challenges = h("section", { class: "card", id: "challenges" });
  const open = h("section", { class: "card", id: "open-games" });
  const side = h("section", { class: "card", id: "account-side" });
  const create = h("section", { class: "card", id: "create" });
  show(root, h("div", { class: "lobby" }, message.element, games, challenges, open, create, side));
  const act = (work, after) => async () => {
    try {
      await work();
      after ? after() : void load();
    } catch (error) {
      message.say(explain(error), "error");
    }
  };
  const waitsForMe = (game) => {
    const seat = game.players.red?.username === me ? "red" : game.players.blue?.username === me ? "blue" : null;
    if (seat === null) return false;
    if (game.status === "setup") return !game.setup_done[seat];
    return game.status === "playing" && game.turn === seat;
  };
  const opponentOf = (game) => {
    const other2 = [game.players.red, game.players.blue, game.opponent, game.creator].find(
      (player) => player !== null && player !== void 0 && player.username !== me
    );
    return other2?.username ?? "an open seat";
  };
  const stateOf = (game) => {
    if (game.status === "finished" && game.result) {
      const winner = game.result.winner;
      const seat = game.players.red?.username === me ? "red" : "blue";
      const verdict = winner === null ? "Draw" : winner === seat ? "Won" : "Lost";
      return `${verdict} (${game.result.reason.replaceAll("_", " ")})`;
    }
    if (waitsForMe(game)) return game.status === "setup" ? "Your setup" : "Your move";
    return { waiting: "Waiting for an opponent", setup: "Opponent's setup", playing: "Their move", finished: "Finished", aborted: "Aborted" }[game.status];
  };
  async function load() {
    try {
      const [mine, waiting] = await Promise.all([
        must(client.api.GET("/api/v1/games", { params: { query: { mine: true, limit: 100 } } })),
        must(client.api.GET("/api/v1/games", { params: { query: { status: "waiting", limit: 100 } } }))
      ]);
      const sorted = [...mine.games].sort((a, b) => {
        const first = Number(waitsForMe(b)) - Number(waitsForMe(a));
        if (first !== 0) return first;
        const live = Number(b.status === "playing" || b.status === "setup") - Number(a.status === "playing" || a.status === "setup");
        if (live !== 0) return live;
        return (a.deadline ?? "9999").localeCompare(b.deadline ?? "9999") || b.updated_at.localeCompare(a.updated_at);
      });
      show(games, h("h2", {}, "Your games"), sorted.length === 0 ? h("p", {}, "No games yet: create one below or join an open one.") : h("ul", { class: "games" }, sorted.map((game) => h(
        "li",
        { class: waitsForMe(game) ? "game mine" : "game", "data-game": game.id },
        h("a", { href: `#/game/${game.id}` }, `${game.variant} against ${opponentOf(game)}`),
        h("span", { class: "state" }, stateOf(game)),
        game.deadline && (game.status === "playing" || game.status === "setup") ? h("span", { class: "deadline" }, `deadline ${until(game.deadline)}`) : null
      ))));
      const toMe = mine.games.filter((g) => g.status === "waiting" && g.opponent?.username === me && g.creator.username !== me);
      show(challenges, h("h2", {}, "Challenges to you"), toMe.length === 0 ? h("p", {}, "None.") : h("ul", { class: "games" }, toMe.map((game) => h(
        "li",
        { class: "game", "data-game": game.id },
        h("span", {}, `${game.creator.username} challenges you to ${game.variant} (${timeControlText(game.time_control)}${game.rated ? ", rated" : ""})`),
        h("button", { type: "button", class: "accept", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/join", { params: { path: { id: game.id } } })), () => go(`#/game/${game.id}`)) }, "Accept"),
        h("button", { type: "button", class: "secondary decline", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/decline", { params: { path: { id: game.id } } }))) }, "Decline")
      ))));
      const joinable = waiting.games.filter((g) => g.opponent === null && g.creator.username !== me);
      show(open, h("h2", {}, "Open games"), joinable.length === 0 ? h("p", {}, "None right now.") : h("ul", { class: "games" }, joinable.map((game) => h(
        "li",
        { class: "game", "data-game": game.id },
        h("span", {}, `${game.creator.username}: ${game.variant}, ${timeControlText(game.time_control)}`),
        h("button", { type: "button", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/join", { params: { path: { id: game.id } } })), () => go(`#/game/${game.id}`)) }, "Join")
      ))));
      document.title = `${sorted.filter(waitsForMe).length > 0 ? `(${sorted.filter(waitsForMe).length}) ` : ""}Stratego`;
    } catch (error) {
      message.say(explain(error), "error");
    }
  }
  async function drawSide() {
    try {
      const [vacation, tournaments] = await Promise.all([
        must(client.api.GET("/api/v1/me/vacation")),
        must(client.api.GET("/api/v1/tournaments", { params: { query: { limit: 10 } } }))
      ]);
      show(
        side,
        h("h2", {}, "Vacation"),
        h("p", { id: "vacation" }, vacation.on_vacation ? `You are on vacation until ${new Date(vacation.ends_at ?? vacation.until ?? "").toLocaleString()}: your clocks are stopped.` : `Not on vacation; ${vacation.remaining_days} of ${vacation.allowance_days} days left this year.`),
        h("h2", {}, "Tournaments"),
        tournaments.tournaments.length === 0 ? h("p", {}, "No tournaments.") : h("ul", { class: "games" }, tournaments.tournaments.map((t) => h(
          "li",
          {},
          h("span", {}, `${t.name}: ${t.system}, ${t.variant}, ${t.players}/${t.max_players} players, ${t.status}${t.status === "running" ? `, round ${t.current_round} of ${t.round_count}` : ""}`),
          t.status === "open" ? h("button", { type: "button", class: "secondary", onclick: act(() => must(client.api.POST("/api/v1/tournaments/{id}/join", { params: { path: { id: t.id } } }))) }, "Join") : null
        ))),
        h("h2", {}, "Notifications"),
        pushControls()
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
function timeControlText(control) {
  switch (control.type) {
    case "per_move":
      return `${control.days} d per move`;
    case "fischer":
      return `${control.initial_days} d + ${control.increment_days} d per move (at most ${control.max_days} d)`;
    case "moves_in_days":
      return `${control.moves} moves in ${control.days} d`;
  }
}
function createForm(variants, say) {
  const field = (label, input) => h("label", {}, h("span", {}, label), input);
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
    const labels = { per_move: ["days per move", "", ""], fischer: ["initial days", "increment days", "most days"], moves_in_days: ["moves", "days", ""] }[control.value];
    hints.textContent = labels.filter(Boolean).join(" / ");
    b.hidden = labels[1] === "";
    c.hidden = labels[2] === "";
  };
  control.addEventListener("change", relabel);
  relabel();
  const timeControl = () => {
    if (control.value === "fischer") return { type: "fischer", initial_days: a.valueAsNumber, increment_days: b.valueAsNumber, max_days: c.valueAsNumber };
    if (control.value === "moves_in_days") return { type: "moves_in_days", moves: a.valueAsNumber, days: b.valueAsNumber };
    return { type: "per_move", days: a.valueAsNumber };
  };
  const form = h(
    "form",
    {
      id: "create-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          const game = await must(client.api.POST("/api/v1/games", {
            body: {
              variant: variant.value,
              opponent: opponent.value.trim() === "" ? null : opponent.value.trim(),
              color: color.value,
              rated: rated.checked,
              time_control: timeControl(),
              rules: { two_square_limit: twoSquare.valueAsNumber, more_squares_rule: moreSquares.checked }
            }
          }));
          go(`#/game/${game.id}`);
        } catch (error) {
          say(explain(error), "error");
        }
      }
    },
    field("Variant", variant),
    field("Opponent", opponent),
    field("Your color", color),
    field("Time control", control),
    h("div", { class: "row" }, a, b, c, hints),
    field("Two-square limit", twoSquare),
    field("More-squares rule", moreSquares),
    field("Rated", rated),
    h("button", { type: "submit", id: "create-game" }, "Create game")
  );
  return [h("h2", {}, "New game"), form];
}

// src/setup.ts
function turned(square) {
  const file = String.fromCharCode("a".charCodeAt(0) + "j".charCodeAt(0) - square.charCodeAt(0));
  return `${file}${11 - Number(square.slice(1))}`;
}
function problemText(problem) {
  switch (problem.problem) {
    case "wrong_count":
      return `${problem.piece}: the army has ${problem.expected}, the setup has ${problem.found}`;
    case "outside_zone":
      return `${problem.square} is outside your setup zone`;
    case "lake":
      return `${problem.square} is a lake`;
    case "duplicate_square":
      return `${problem.square} holds two pieces`;
    case "bad_square":
      return `${problem.square} is not a square`;
    case "unknown_piece":
      return `${problem.piece} (at ${problem.square}) is not a piece of this variant`;
  }
}
function setupScreen(root, view, done) {
  const me = view.you;
  const placement = /* @__PURE__ */ new Map();
  let chosen = null;
  let variant = null;
  let saved = [];
  const message = notice();
  const problems = h("ul", { class: "problems", id: "setup-problems" });
  const area = h("div", { class: "setup" });
  show(root, h(
    "section",
    { class: "card" },
    h("h2", {}, `Set up your army (${me}) for ${view.variant}`),
    h("p", { class: "hint" }, "Drag pieces onto your zone, or choose a piece in the tray and then a square. Choose two placed pieces to swap them; choose a placed piece and then its tray entry to take it back."),
    area,
    message.element,
    problems
  ));
  const zone = () => new Set((variant?.setup_zones[me] ?? []).filter((s) => !LAKES.has(s)));
  const left = (piece) => (variant?.army.find((a) => a.piece === piece)?.count ?? 0) - [...placement.values()].filter((p) => p === piece).length;
  const place = (from, to) => {
    if (!zone().has(to)) return;
    if (from.startsWith("piece:")) {
      const piece = from.slice("piece:".length);
      if (left(piece) <= 0) return;
      placement.set(to, piece);
    } else if (from !== to && placement.has(from)) {
      const moving = placement.get(from);
      const there = placement.get(to);
      if (there === void 0) placement.delete(from);
      else placement.set(from, there);
      placement.set(to, moving);
    }
  };
  const onSquare = (square) => {
    if (chosen === null) {
      if (placement.has(square)) chosen = square;
    } else {
      place(chosen, square);
      chosen = chosen.startsWith("piece:") && left(chosen.slice(6)) > 0 ? chosen : null;
    }
    draw();
  };
  const onTray = (piece) => {
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
      for (let n = 0; n < entry.count; n++) placement.set(squares.pop(), entry.piece);
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
        body: { placement: Object.fromEntries(placement) }
      }));
      message.say("Setup accepted.");
      done();
    } catch (error) {
      const list = error instanceof ProblemError && Array.isArray(error.problem["problems"]) ? error.problem["problems"] : [];
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
        body: { name: name.value.trim(), variant: view.variant, color: me, placement: Object.fromEntries(placement) }
      }));
      message.say(`Saved as "${name.value.trim()}".`);
      await loadSaved();
    } catch (error) {
      message.say(explain(error), "error");
    }
  };
  const use = (choice) => {
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
  function draw() {
    if (variant === null) return;
    const tray = h(
      "div",
      { class: "tray", role: "toolbar", "aria-label": "Pieces to place" },
      variant.army.map((entry) => h("button", {
        type: "button",
        class: `tray-piece${chosen === `piece:${entry.piece}` ? " selected" : ""}`,
        "data-piece": entry.piece,
        draggable: "true",
        "aria-label": `${entry.piece}, ${left(entry.piece)} left`,
        onclick: () => onTray(entry.piece),
        ondragstart: ((event) => event.dataTransfer?.setData("text/plain", `piece:${entry.piece}`))
      }, h("span", { class: `piece ${me}` }, MARKS[entry.piece]), ` ${entry.piece} × ${left(entry.piece)}`))
    );
    const pieces = [...placement].map(([square, piece]) => ({ square, color: me, piece, revealed: false }));
    const board = drawBoard({ pieces, viewer: me, zone: zone(), selected: chosen, onSquare, onDrop: (from, to) => {
      place(from, to);
      draw();
    } });
    const pick = h(
      "select",
      { id: "saved-setups", "aria-label": "Saved setups" },
      h("option", { value: "" }, saved.length ? "a saved setup…" : "no saved setups"),
      saved.map((s) => h("option", { value: s.id }, s.name))
    );
    pick.addEventListener("change", () => use(pick.value));
    show(area, board, h(
      "div",
      { class: "setup-side" },
      tray,
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", id: "random-setup", class: "secondary", onclick: random }, "Random"),
        h("button", { type: "button", class: "secondary", onclick: () => {
          placement.clear();
          draw();
        } }, "Clear"),
        h("button", { type: "button", id: "submit-setup", onclick: () => void submit() }, "Submit setup")
      ),
      h("div", { class: "actions" }, pick, name, h("button", { type: "button", class: "secondary", onclick: () => void save() }, "Save"))
    ));
  }
  void must(client.api.GET("/api/v1/variants")).then((list) => {
    variant = list.variants.find((v) => v.variant === view.variant) ?? null;
    draw();
    return loadSaved();
  }).catch((error) => message.say(explain(error), "error"));
  return () => {
  };
}

// src/game.ts
function gameScreen(root, id) {
  const path = { params: { path: { id } } };
  let view = null;
  let moves = [];
  let selected = null;
  let step = null;
  let setupOpen = false;
  let sending = false;
  const message = notice();
  const streamState2 = h("span", { class: "stream", id: "game-stream" }, "connecting…");
  const boardArea = h("div", { class: "board-area" });
  const side = h("div", { class: "side" });
  const historyArea = h("section", { class: "card history", id: "history" });
  const typed = h("input", { id: "move-input", placeholder: "e.g. e4 e5", autocomplete: "off", "aria-label": "Type a move: from-square and to-square" });
  const moveForm = h("form", { class: "move-form", onsubmit: (event) => {
    event.preventDefault();
    const squares = typed.value.toLowerCase().match(/[a-j](?:10|[1-9])/g) ?? [];
    if (squares.length !== 2) return message.say("Type two squares, such as e4 e5.", "error");
    void move(squares[0], squares[1]);
  } }, h("label", { for: "move-input" }, "Move"), typed, h("button", { type: "submit" }, "Play"));
  const playArea = h("div", { class: "game" }, h("div", {}, boardArea, moveForm, message.element), side);
  show(root, h("div", {}, h("p", { class: "crumbs" }, h("a", { href: "#/" }, "← Lobby"), " · stream: ", streamState2), playArea, historyArea));
  const me = () => view?.you ?? null;
  const myTurn = () => view !== null && view.legal_moves !== void 0;
  async function move(from, to) {
    if (view === null || sending) return;
    sending = true;
    step = null;
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
  const act = (work, done = "", then = accept) => async () => {
    try {
      const game = await work();
      if (done) message.say(done);
      then(game);
    } catch (error) {
      message.say(explain(error), "error");
    }
  };
  function onSquare(square) {
    if (view === null || !myTurn() || step !== null) return;
    const legal = view.legal_moves ?? [];
    if (selected !== null && legal.some((m) => m.from === selected && m.to === square)) {
      void move(selected, square);
      return;
    }
    selected = legal.some((m) => m.from === square) ? square : null;
    drawBoardArea();
  }
  function drawBoardArea() {
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
  function drawSide() {
    if (view === null) return;
    const v = view;
    const you = me();
    const name = (color) => v.players[color]?.username ?? "open seat";
    const status = v.status === "finished" && v.result ? `Game over: ${v.result.winner === null ? "a draw" : v.result.winner === you ? "you won" : you ? "you lost" : `${v.result.winner} won`} (${v.result.reason.replaceAll("_", " ")}).` : v.status === "playing" ? myTurn() ? "Your move." : `${v.turn === you ? "Your" : "Their"} move.` : v.status === "aborted" ? "This game was aborted." : v.status === "waiting" ? "Waiting for an opponent to accept." : "Setting up.";
    const clock = (color) => {
      const c = v.clocks?.[color];
      if (!c) return null;
      const days = Math.floor(c.remaining_seconds / 86400);
      const hours = Math.floor(c.remaining_seconds % 86400 / 3600);
      return h(
        "li",
        { class: c.running ? "running" : "" },
        `${name(color)} (${color}): ${days} d ${hours} h left`,
        c.on_vacation ? `, on vacation${c.until ? ` until ${new Date(c.until).toLocaleDateString()}` : ""}` : "",
        c.running && c.deadline ? `, deadline ${until(c.deadline)}` : ""
      );
    };
    const captured = (color) => `${color}: ${v.captured[color].map((p) => p ?? "?").join(", ") || "none"}`;
    const draw = v.status === "playing" && you !== null ? v.draw_offer === null ? h("button", { type: "button", class: "secondary", id: "offer-draw", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/draw", { ...path, body: { action: "offer" } })), "Draw offered.") }, "Offer a draw") : v.draw_offer === you ? h("span", {}, "You offered a draw.") : h(
      "span",
      { id: "draw-offer" },
      "Your opponent offers a draw: ",
      h("button", { type: "button", id: "accept-draw", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/draw", { ...path, body: { action: "accept" } }))) }, "Accept"),
      h("button", { type: "button", class: "secondary", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/draw", { ...path, body: { action: "decline" } }))) }, "Decline")
    ) : null;
    const resign = (v.status === "playing" || v.status === "setup") && you !== null ? h("button", { type: "button", class: "danger", id: "resign", onclick: () => {
      if (confirm("Resign this game?")) void act(() => must(client.api.POST("/api/v1/games/{id}/resign", path)))();
    } }, "Resign") : null;
    const rematch = v.status === "finished" && you !== null && v.tournament === null ? h("button", { type: "button", id: "rematch", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/rematch", { ...path, body: {} })), "", (game) => go(`#/game/${game.id}`)) }, "Offer a rematch") : null;
    const abort = v.status === "waiting" && v.creator.username === client.session()?.username ? h("button", { type: "button", class: "secondary", onclick: act(() => must(client.api.POST("/api/v1/games/{id}/abort", path)), "Aborted.") }, "Cancel this game") : null;
    show(side, h(
      "section",
      { class: "card" },
      h("h2", {}, `${name("red")} (red) vs ${name("blue")} (blue)`),
      h("p", { class: "status", id: "status" }, status),
      h("p", { class: "hint" }, `${v.variant}, ${timeControlText(v.time_control)}${v.rated ? ", rated" : ""}${v.tournament ? ", tournament game" : ""}; version ${v.version}, ply ${v.ply}`),
      h("ul", { class: "clocks" }, clock("red"), clock("blue")),
      h("p", {}, "Captured — ", captured("red"), "; ", captured("blue")),
      h("div", { class: "actions" }, draw, resign, rematch, abort),
      v.status === "playing" || v.status === "finished" ? pictures() : null
    ));
  }
  function pictures() {
    const open = (kind) => async () => {
      try {
        const answer = kind === "export" ? await client.api.GET("/api/v1/games/{id}/export", { ...path, parseAs: "blob" }) : await client.api.GET(kind === "board.svg" ? "/api/v1/games/{id}/board.svg" : "/api/v1/games/{id}/board.png", { ...path, parseAs: "blob" });
        const blob = await must(Promise.resolve(answer));
        const url = URL.createObjectURL(blob);
        const link = h("a", { href: url, download: `${id}-${kind}${kind === "export" ? ".json" : ""}` });
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 1e4);
      } catch (error) {
        message.say(explain(error), "error");
      }
    };
    return h(
      "p",
      { class: "links" },
      "Download: ",
      h("button", { type: "button", class: "link", onclick: open("board.svg") }, "board (SVG)"),
      " ",
      h("button", { type: "button", class: "link", onclick: open("board.png") }, "board (PNG)"),
      " ",
      h("button", { type: "button", class: "link", onclick: open("export") }, "record (JSON)")
    );
  }
  function drawHistory() {
    const last = moves.length;
    const at = step ?? last;
    const go2 = (ply) => () => {
      step = ply === null || ply >= last ? null : Math.max(0, ply);
      drawBoardArea();
      drawHistory();
    };
    show(
      historyArea,
      h("h2", {}, "History"),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "secondary", id: "history-start", onclick: go2(0), disabled: at === 0 }, "« First"),
        h("button", { type: "button", class: "secondary", id: "history-back", onclick: go2(at - 1), disabled: at === 0 }, "◀ Back"),
        h("span", { id: "history-ply" }, step === null ? `now (ply ${last})` : `after ply ${at} of ${last}`),
        h("button", { type: "button", class: "secondary", id: "history-forward", onclick: go2(at + 1), disabled: step === null }, "Next ▶"),
        h("button", { type: "button", class: "secondary", onclick: go2(null), disabled: step === null }, "Now »")
      ),
      h("ol", { class: "moves", start: 1 }, moves.map((m) => h("li", { class: m.ply === at ? "current" : "" }, moveText(m, me()).replace(/^\d+\. /, ""))))
    );
  }
  async function loadMoves() {
    if (view === null) return;
    if (view.ply === 0) {
      moves = [];
    } else {
      const history = await must(client.api.GET("/api/v1/games/{id}/moves", path));
      if (view === null || history.version !== view.version) return;
      moves = history.moves;
    }
    if (step !== null && step > moves.length) step = null;
    drawHistory();
  }
  function accept(next) {
    if (view !== null && next.version < view.version) return;
    const plyChanged = view === null || view.ply !== next.ply;
    view = next;
    if (view.status === "setup" && view.you && !view.setup_done[view.you]) {
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
  const follow2 = client.watchGame(id, accept, (state) => {
    streamState2.textContent = state.state === "open" ? "live" : state.state === "reconnecting" ? `reconnecting (${state.reason})…` : `closed (${state.reason})`;
    streamState2.dataset["state"] = state.state;
  });
  void must(client.api.GET("/api/v1/games/{id}", path)).then(accept).catch((error) => message.say(explain(error), "error"));
  return () => follow2.close();
}

// src/main.ts
var SESSION_KEY = "stratego.session";
var store = {
  get() {
    const raw = localStorage.getItem(SESSION_KEY);
    if (raw === null) return null;
    try {
      return JSON.parse(raw);
    } catch {
      return null;
    }
  },
  set(session) {
    if (session === null) {
      localStorage.removeItem(SESSION_KEY);
      queueMicrotask(() => {
        if (shownUser !== null) route();
      });
    } else {
      localStorage.setItem(SESSION_KEY, JSON.stringify(session));
    }
  }
};
var exclusive = (work) => "locks" in navigator ? navigator.locks.request("stratego-refresh", work) : work();
var client = createStrategoClient({ baseUrl: location.origin, store, exclusive });
var main = document.getElementById("main");
var account = document.getElementById("account");
var streamState = document.getElementById("stream-state");
var leave = () => {
};
var shownUser = null;
var events = null;
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}
function route() {
  leave();
  const session = client.session();
  shownUser = session?.username ?? null;
  drawAccount(session);
  if (session === null) {
    events?.close();
    events = null;
    leave = authScreen(main, () => go("#/"));
    return;
  }
  followEvents();
  const game = /^#\/game\/([0-9a-f-]{36})$/.exec(location.hash);
  leave = game ? gameScreen(main, game[1]) : lobbyScreen(main);
}
function drawAccount(session) {
  if (session === null) {
    show(account);
    return;
  }
  show(
    account,
    h("a", { href: "#/" }, "Lobby"),
    h("span", { class: "who" }, session.username),
    h("button", {
      type: "button",
      onclick: async () => {
        await client.logout().catch(() => void 0);
        go("#/");
      }
    }, "Log out")
  );
}
function followEvents() {
  if (events !== null) return;
  events = client.watchEvents(
    null,
    (event) => window.dispatchEvent(new CustomEvent("stratego:event", { detail: event })),
    (state) => {
      streamState.textContent = state.state === "open" ? "live" : state.state === "reconnecting" ? "reconnecting…" : "offline";
      streamState.dataset["state"] = state.state;
      if (state.state === "closed" && client.session() === null) route();
    }
  );
}
window.addEventListener("hashchange", route);
window.addEventListener("storage", (event) => {
  if (event.key === SESSION_KEY && (client.session()?.username ?? null) !== shownUser) {
    events?.close();
    events = null;
    route();
  }
});
route();
export {
  client,
  go
};
