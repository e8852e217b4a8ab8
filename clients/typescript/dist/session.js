/** A store that keeps the session in memory only. */
export function memoryStore(initial = null) {
    let session = initial;
    return {
        get: () => session,
        set: (next) => {
            session = next;
        },
    };
}
const AUTH_PATHS = ["/api/v1/auth/login", "/api/v1/auth/register", "/api/v1/auth/refresh"];
export class Tokens {
    baseUrl;
    store;
    exclusive;
    fetcher;
    refreshing = null;
    copies = new WeakMap();
    constructor(baseUrl, store, exclusive, fetcher) {
        this.baseUrl = baseUrl;
        this.store = store;
        this.exclusive = exclusive;
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
                if (sent === null || copy === undefined)
                    return response;
                const session = await this.renew(sent);
                if (session === null)
                    return response;
                copy.headers.set("Authorization", `Bearer ${session.access_token}`);
                return this.fetcher(copy);
            },
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
            body: JSON.stringify({ refresh_token: current.refresh_token }),
        });
        if (!answer.ok) {
            if (answer.status === 401 && this.store.get()?.refresh_token === current.refresh_token) {
                this.store.set(null);
            }
            return null;
        }
        const pair = (await answer.json());
        // Logged out (or in as someone else) meanwhile: that choice stands.
        if (this.store.get()?.refresh_token !== current.refresh_token)
            return this.store.get();
        const next = { ...current, access_token: pair.access_token, refresh_token: pair.refresh_token };
        this.store.set(next);
        return next;
    }
}
function isAuthPath(url) {
    const path = new URL(url).pathname;
    return AUTH_PATHS.some((auth) => path.endsWith(auth));
}
function bearerOf(request) {
    const header = request.headers.get("Authorization");
    return header?.startsWith("Bearer ") ? header.slice("Bearer ".length) : null;
}
