/**
 * Zulip's zuliprc file (what the Zulip web app's "download zuliprc" gives), shared by the
 * organization settings' bots (admin/users/) and one's own API key (Account.tsx): the `site`
 * people can reach, over HTTPS when the server has it, naming this server's authority for the
 * Python library (`cert_bundle`, the file downloaded beside it).
 */
export const zuliprc = (email: string, key: string, site: string, certBundle?: string) =>
  `[api]\nemail=${email}\nkey=${key}\nsite=${site}\n${certBundle ? `cert_bundle=${certBundle}\n` : ''}`;

/** The HTTPS form of a zuliprc site, when the server has HTTPS: same host, the HTTPS port. */
export function httpsSite(site: string, httpsPort: number | null): string {
  if (!httpsPort) return site;
  const u = new URL(site);
  return `https://${u.hostname}:${httpsPort}`;
}

const isLoopbackHost = (hostname: string) => /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i.test(hostname);

/**
 * The `site` a downloaded zuliprc names: the address this page was loaded from, except when
 * that is the server computer's loopback (the desktop window, or a browser on that computer):
 * then the server's first LAN URL, so the bot also runs on the other computers of the office.
 */
export function zuliprcSite(pageOrigin: string, lanUrls: readonly string[]): string {
  const page = new URL(pageOrigin);
  if (!isLoopbackHost(page.hostname)) return page.origin;
  for (const raw of lanUrls) {
    const lan = URL.canParse(raw) ? new URL(raw) : null;
    if (lan && (lan.protocol === 'http:' || lan.protocol === 'https:') && !isLoopbackHost(lan.hostname)) return lan.origin;
  }
  return page.origin;
}

