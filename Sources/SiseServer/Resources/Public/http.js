// Every request the page makes goes through `request`: same-origin credentials, the CSRF token on
// every change, JSON (or text) read once, and a refusal thrown as an Error carrying the server's
// own message (already in the page's language) and the status.
export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)(?:__Host-)?sise_csrf=([0-9a-f]{32})/);
  return match ? match[1] : "";
}

// `options`: `body` (a string, a File…), `type` (its Content-Type; JSON when `json` is given),
// `json` (a value sent as JSON), `signal` (an AbortController's), `text` (read the answer as text).
export async function request(method, path, options = {}) {
  const headers = { "Accept": options.text ? "*/*" : "application/json" };
  if (method !== "GET") headers["X-CSRF-Token"] = csrfToken();
  let body = options.body;
  if (options.json !== undefined) { body = JSON.stringify(options.json); headers["Content-Type"] = "application/json"; }
  else if (options.type) headers["Content-Type"] = options.type;
  const response = await fetch(path, { method, credentials: "same-origin", headers, body, signal: options.signal });
  const answer = options.text ? await response.text() : await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = answer && answer.error && answer.error.message;
    const error = new Error(message || `${method} ${path}: ${response.status}`);
    error.status = response.status;
    error.fromServer = Boolean(message);
    // The body's field the refusal is about (`price`…), when the server names one.
    error.field = (answer && answer.error && answer.error.field) || null;
    // When the server says to come back (429, 503 with Retry-After), in seconds.
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return answer;
}

export const get = (path, options) => request("GET", path, options);
