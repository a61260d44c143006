/**
 * URL rules of the renderer: which link targets are safe, Zulip's narrow
 * links (`/#narrow/channel/ID-name/topic/...`) and upload paths.
 */

/** Schemes a link may use; anything else renders as plain text. */
const SAFE_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:', 'tel:', 'sms:']);

// Control characters and whitespace that browsers strip inside a scheme.
const STRIPPED = /[\u0000-\u0020\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\ufeff]/g;

/**
 * The link target if it is safe (http, https, mailto, tel, sms, a path on
 * this server, or a fragment), else undefined. Protocol-relative `//host`
 * links and every other scheme (javascript:, data:, vbscript:, file:...) are refused.
 */
export function safeHref(raw: string): string | undefined {
  const href = raw.trim();
  if (!href) return undefined;
  if (href.startsWith('#')) return href;
  if (href.startsWith('/')) return href.startsWith('//') || href.startsWith('/\\') ? undefined : href;
  const compact = href.replace(STRIPPED, '');
  const colon = compact.indexOf(':');
  if (colon < 0) return undefined;
  const scheme = compact.slice(0, colon + 1).toLowerCase();
  if (!/^[a-z][a-z0-9+.-]*:$/.test(scheme) || !SAFE_SCHEMES.has(scheme)) return undefined;
  // A scheme spelled with hidden characters or entities is not the scheme it looks like.
  if (href.slice(0, colon + 1).toLowerCase() !== scheme) return undefined;
  return href;
}

const HASH_REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/** Zulip's hash-component encoding (`encode_hash_component`): percent-encoding with `%` → `.`. */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/[%().]/g, (c) => HASH_REPLACEMENTS[c]!);
}

/** `ID-name` with spaces as dashes, as in Zulip's `encode_stream`. */
export function channelSlug(id: number, name: string): string {
  return `${id}-${encodeHashComponent(name.replace(/ /g, '-'))}`;
}

export const channelNarrow = (id: number, name: string) => `/#narrow/channel/${channelSlug(id, name)}`;

export const topicNarrow = (id: number, name: string, topic: string) =>
  `${channelNarrow(id, name)}/topic/${encodeHashComponent(topic)}`;

/** A link to a file uploaded here (`/user_uploads/...`; `/user_uploads/temporary/` links are not claims). */
export const isUploadHref = (href: string) =>
  href.startsWith('/user_uploads/') && !href.startsWith('/user_uploads/temporary/');

const IMAGE_EXT = /\.(bmp|gif|jpe?g|png|webp|avif)$/i;

export const isImagePath = (href: string) => IMAGE_EXT.test(href.replace(/[?#].*$/, ''));
