/**
 * The Hearth window's options, in one place: every window Hearth opens is built from
 * `secureWebPreferences`, so isolation cannot be forgotten on one of them. Plain data (no
 * Electron import) so it is tested under Node.
 */
import { escapeHtml } from '../../server/protocol/html.js';

export interface SecureWebPreferences {
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  experimentalFeatures: false;
  navigateOnDragDrop: false;
  spellcheck: boolean;
  preload: string;
}

export function secureWebPreferences(preloadPath: string): SecureWebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: true,
    preload: preloadPath,
  };
}

export interface HearthWindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  title: string;
  show: boolean;
  icon?: string;
  autoHideMenuBar: boolean;
  backgroundColor: string;
  webPreferences: SecureWebPreferences;
}

/** The Hearth window: 1024×768 at least (room for the chat's sidebar, messages and people beside each other; the app fits any size). */
export function hearthWindowOptions(preloadPath: string, iconPath?: string): HearthWindowOptions {
  return {
    width: 1200,
    height: 820,
    minWidth: 1024,
    minHeight: 768,
    title: 'Hearth',
    show: false,
    ...(iconPath ? { icon: iconPath } : {}),
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

/**
 * Content-Security-Policy added to every response the window loads from the embedded server:
 * only the server's own scripts, styles, images and API; no plugins, no framing, no inline script.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "frame-src 'none'",
].join('; ');

/**
 * Response headers with `policy` added as one more Content-Security-Policy: a policy the server
 * already sent (in any letter case) is kept, and the browser enforces both.
 */
export function withPolicy(headers: Record<string, string[]>, policy: string): Record<string, string[]> {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === 'content-security-policy') ?? 'Content-Security-Policy';
  return { ...headers, [key]: [...(headers[key] ?? []), policy] };
}

/** Permissions the pages may ask for (none: they need no camera, notifications or location). */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];


/**
 * A self-contained page shown while the server starts (the window opens at once rather than when
 * the server is ready: the first start after an update reads a long history once, which takes
 * a while). No script; light or dark as the system is.
 */
export function startingPageUrl(): string {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="color-scheme" content="light dark">
<title>Hearth: starting</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#fafafa;color:#222}
main{max-width:30em;padding:2em;text-align:center}h1{font-size:1.3em;font-weight:600;margin:.8em 0 .3em}p{margin:0;color:#555}
.spin{width:28px;height:28px;margin:auto;border:3px solid #ccc;border-top-color:#c2410c;border-radius:50%;animation:s 1s linear infinite}
@keyframes s{to{transform:rotate(1turn)}}@media (prefers-reduced-motion:reduce){.spin{animation:none}}
@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#eee}p{color:#bbb}.spin{border-color:#555;border-top-color:#fb923c}}</style>
</head><body><main role="status"><div class="spin" aria-hidden="true"></div><h1>Starting Hearth…</h1>
<p>The chat opens here in a moment. The first start after an update reads the message history once, which takes up to a minute for years of it.</p></main></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}

/** A self-contained page explaining that the server could not start (shown in the window, never swallowed). */
export function errorPageUrl(title: string, detail: string): string {
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Hearth: ${escapeHtml(title)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:3em auto;max-width:40em;color:#222}
h1{font-size:1.4em;color:#a40000}pre{white-space:pre-wrap;background:#f5f5f5;padding:1em;border-radius:6px}</style>
</head><body><h1>${escapeHtml(title)}</h1><pre>${escapeHtml(detail)}</pre>
<p>Fix the problem and start Hearth again. The data folder is not changed.</p></body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}
