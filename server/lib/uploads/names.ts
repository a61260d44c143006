/**
 * Names, paths and types of uploaded files: the URL-safe name in a file's
 * path (Zulip's sanitize_name), the display name, the `path_id` layout,
 * the content type and whether a type may be shown inline.
 */
import { randomBytes } from 'node:crypto';
import { extname } from 'node:path';

/** Largest name kept (bytes are cheap, but Content-Disposition and file systems are not). */
const MAX_NAME_CHARS = 200;

/** Control characters and the separators no file name should carry. */
const UNSAFE_DISPLAY = /[\u0000-\u001f\u007f-\u009f/\\]/g;

/**
 * The name people see: what the client sent, without any directory part,
 * control characters or separators; `uploaded-file` when nothing is left.
 */
export function displayName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  const clean = base.normalize('NFC').replace(UNSAFE_DISPLAY, '').trim().slice(0, MAX_NAME_CHARS);
  return clean === '' || clean === '.' || clean === '..' ? 'uploaded-file' : clean;
}

/**
 * The name in the file's URL (Zulip's sanitize_name): NFKC, only letters,
 * digits, `_`, `.` and `-` (runs of spaces and dashes become one `-`), no
 * leading dots; `uploaded-file` when nothing is left.
 */
export function safeName(raw: string): string {
  let s = displayName(raw).normalize('NFKC');
  s = s.replace(/[^\p{L}\p{N}_.\s-]/gu, '').trim();
  s = s.replace(/[-\s]+/g, '-').replace(/^\.+/, '');
  s = s.slice(0, MAX_NAME_CHARS);
  return s === '' || /^[.-]+$/.test(s) ? 'uploaded-file' : s;
}

const TOKEN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A fresh path (Zulip's layout `{realm}/{2 hex}/{24 random}/{name}`) and where its bytes go on disk. */
export function newUploadPath(realmId: number, name: string): { pathId: string; storage: string } {
  const bytes = randomBytes(25);
  const bucket = bytes[0]!.toString(16).padStart(2, '0');
  let token = '';
  for (let i = 1; i < 25; i++) token += TOKEN_CHARS[bytes[i]! & 63];
  return { pathId: `${realmId}/${bucket}/${token}/${safeName(name)}`, storage: `${bucket}/${token}` };
}

/** The shape of every path Hearth hands out; anything else is not a file of ours. */
export const PATH_ID = /^(\d{1,10})\/([0-9a-f]{2})\/([A-Za-z0-9_-]{24})\/([^/\\\u0000]{1,400})$/;

/** The URL of a stored file: the name segment percent-encoded, so the URL is plain ASCII. */
export function uploadUrl(pathId: string): string {
  const i = pathId.lastIndexOf('/');
  return `/user_uploads/${pathId.slice(0, i)}/${encodeURIComponent(pathId.slice(i + 1))}`;
}

/**
 * The `path_id` of a `/user_uploads/...` reference as it appears in a message
 * (relative or absolute URL, name encoded or not); null when it is not one.
 */
export function pathIdFromReference(ref: string): string | null {
  let path = ref.trim();
  const abs = /^https?:\/\/[^/]+(\/.*)$/i.exec(path);
  if (abs) path = abs[1]!;
  path = path.replace(/[?#].*$/, '');
  const m = /^\/user_uploads\/(.+)$/.exec(path);
  if (!m) return null;
  const segments = m[1]!.split('/');
  try {
    const decoded = segments.map((s) => decodeURIComponent(s));
    if (decoded.some((s) => s.includes('/'))) return null;
    const pathId = decoded.join('/');
    return PATH_ID.test(pathId) ? pathId : null;
  } catch {
    return null;
  }
}

const BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.apng': 'image/apng',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The stored content type: the client's (Zulip keeps the browser's), lower-cased
 * and without parameters, or a guess from the name when it sent none or a generic one.
 */
export function contentTypeFor(clientType: string | null | undefined, name: string): string {
  const t = (clientType ?? '').split(';')[0]!.trim().toLowerCase();
  if (MIME.test(t) && t !== 'application/octet-stream') return t;
  return BY_EXTENSION[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Types a browser may show in place (Zulip's INLINE_MIME_TYPES, without PDF and
 * plain text): images that cannot carry script, audio and video. Everything else,
 * SVG and HTML included, is served as a download.
 */
const INLINE: ReadonlySet<string> = new Set([
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/webm',
]);

export const isInlineType = (contentType: string) => INLINE.has(contentType);

/** RFC 6266 Content-Disposition with an ASCII fallback and the UTF-8 name (RFC 8187). */
export function contentDisposition(inline: boolean, name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Types a page could run or apply if it loaded the file (`<script src>`, a worker, a style sheet,
 * WebAssembly, XSLT): with nosniff, a browser does so only for these types.
 */
const ACTIVE = /script|^text\/css$|^application\/wasm$|xsl/;

/**
 * The type a file is served with: its stored type, except that a type a page could run is served
 * as bytes (application/octet-stream). A member's upload then can never be loaded as script or
 * style by a page of this origin, whatever an injected tag asks for. The stored type (kept for the
 * export and the API) is unchanged.
 */
export const servedType = (stored: string): string => (ACTIVE.test(stored) ? 'application/octet-stream' : stored);
