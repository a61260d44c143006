import type { RealmRecord } from '../../store/records.js';

/** Largest accepted organization icon (Zulip's MAX_ICON_FILE_SIZE_MIB). */
export const MAX_ICON_BYTES = 5 * 1024 * 1024;

/** Image types accepted as an icon, recognised by their first bytes (never by the name the client sent). */
const SIGNATURES: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', ext: 'gif', test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

export function sniffImage(head: Buffer): { type: string; ext: string } | null {
  const hit = SIGNATURES.find((s) => s.test(head));
  return hit ? { type: hit.type, ext: hit.ext } : null;
}

export const DEFAULT_ICON_URL = '/static/hearth-icon.png';

/** Path under the server root where an uploaded icon is served (no auth: the login page shows it). */
export const iconPath = (file: string) => `/realm_icon/${file}`;

/** `icon_url` (relative, so it holds for every address clients use) and `icon_source` (G default, U uploaded). */
export function realmIconFields(realm: RealmRecord): { icon_url: string; icon_source: 'G' | 'U' } {
  const icon = realm.settings.icon;
  return icon ? { icon_url: iconPath(icon.file), icon_source: 'U' } : { icon_url: DEFAULT_ICON_URL, icon_source: 'G' };
}
