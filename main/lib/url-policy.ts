/**
 * Which URLs the Hearth window may show and which it may hand to the system browser. Every
 * check parses the URL (WHATWG URL) and compares parts; none looks at substrings, so
 * `http://127.0.0.1:9991.evil.example/` or `http://127.0.0.1:9991@evil.example/` are not the server.
 */

function parse(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/** The origin (`http://host:port`) of the embedded server's URL. */
export function originOf(serverUrl: string): string {
  const u = parse(serverUrl);
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new Error(`not an http URL: ${serverUrl}`);
  return u.origin;
}

/** Whether the window may navigate to `raw`: the embedded server's own origin, without credentials. */
export function isServerUrl(raw: string, serverOrigin: string): boolean {
  const u = parse(raw);
  if (!u) return false;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  if (u.username || u.password) return false;
  return u.origin === serverOrigin;
}

/** Sites the pages link to (help, the Zulip apps for phones and desktops): https only. */
export const EXTERNAL_HOSTS: readonly string[] = [
  'zulip.com',
  'www.zulip.com',
  'chat.zulip.org',
  'github.com',
  'apps.apple.com',
  'play.google.com',
  'f-droid.org',
];

/**
 * Whether `raw` may be opened in the system browser: https on an allow-listed host (default
 * port, no credentials), or one of the server's own LAN URLs (to open the web page in a browser).
 */
export function isAllowedExternalUrl(raw: string, lanOrigins: readonly string[] = []): boolean {
  const u = parse(raw);
  if (!u || u.username || u.password) return false;
  if ((u.protocol === 'http:' || u.protocol === 'https:') && lanOrigins.includes(u.origin)) return true;
  return u.protocol === 'https:' && u.port === '' && EXTERNAL_HOSTS.includes(u.hostname);
}

/**
 * The organization settings' address (`/admin/`, the first-run setup while there is no organization),
 * with the one-time setup token in the fragment (never sent to the server or logged).
 */
export function setupUrl(serverUrl: string, setupToken: string | null): string {
  const u = new URL('/admin/', originOf(serverUrl));
  if (setupToken) u.hash = `setup_token=${encodeURIComponent(setupToken)}`;
  return u.toString();
}

/**
 * What the window opens: the first-run setup (with the token) while the server has no organization
 * yet, else the chat at `/`, whose top bar leads to the organization settings.
 */
export function startUrl(serverUrl: string, setupToken: string | null): string {
  return setupToken ? setupUrl(serverUrl, setupToken) : new URL('/', originOf(serverUrl)).toString();
}

/** The URL the window loads for a server bound to `host:port` (a wildcard bind is reached on loopback). */
export function localServerUrl(host: string, port: number): string {
  const reach = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `http://${reach}:${port}`;
}
