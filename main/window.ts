import { BrowserWindow, app, session, shell, type WebContents } from 'electron';
import { ALLOWED_PERMISSIONS, CONTENT_SECURITY_POLICY, hearthWindowOptions, withPolicy } from './lib/window-options.js';
import { isAllowedExternalUrl, isServerUrl } from './lib/url-policy.js';

/**
 * Guards every web contents of the app: the CSP header on the server's responses, no
 * permissions beyond the allow-list, navigation only within the server's origin, and new
 * windows never opened (allow-listed links go to the system browser).
 */
export function installGuards(getOrigin: () => string | null, getLanOrigins: () => string[]): void {
  // Every web contents the app ever creates gets the navigation and new-window guards.
  app.on('web-contents-created', (_event, contents) => guardContents(contents, getOrigin, getLanOrigins));
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    const origin = getOrigin();
    const headers = { ...details.responseHeaders };
    if (origin && isServerUrl(details.url, origin)) Object.assign(headers, withPolicy(headers, CONTENT_SECURITY_POLICY));
    callback({ responseHeaders: headers });
  });
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(ALLOWED_PERMISSIONS.includes(permission)));
  ses.setPermissionCheckHandler((_wc, permission) => ALLOWED_PERMISSIONS.includes(permission));
}

export function guardContents(wc: WebContents, getOrigin: () => string | null, getLanOrigins: () => string[]): void {
  const allowed = (url: string) => {
    const origin = getOrigin();
    return origin !== null && isServerUrl(url, origin);
  };
  wc.on('will-navigate', (event, url) => {
    if (!allowed(url)) event.preventDefault();
  });
  wc.on('will-redirect', (event, url) => {
    if (!allowed(url)) event.preventDefault();
  });
  wc.on('will-attach-webview', (event) => event.preventDefault());
  wc.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url, getLanOrigins())) void shell.openExternal(url);
    return { action: 'deny' };
  });
}

/** The Hearth window: the chat, or the first-run setup (its contents are guarded by installGuards' web-contents-created hook). */
export function createHearthWindow(preloadPath: string, iconPath: string | undefined): BrowserWindow {
  const win = new BrowserWindow(hearthWindowOptions(preloadPath, iconPath));
  win.once('ready-to-show', () => win.show());
  return win;
}
