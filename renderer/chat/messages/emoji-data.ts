/**
 * Emoji for reactions and the picker: Unicode emoji from the server's emoji data
 * (`server_emoji_data_url`, Zulip's `{code_to_names}`), fetched on the picker's first use and
 * kept for the page's life; the organization's custom emoji (`realm_emoji`, images); and the
 * emoji this browser used last (localStorage: names only, no credential).
 */
import { getStaticFile } from '../store/api.js';
import { store } from '../store/state.js';
import { once } from '../store/once.js';

export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
  /** Every name it answers to (search). */
  names: string[];
}

/** Zulip's default "popular" set (+1, tada, smile, heart, working_on_it, octopus). */
const POPULAR = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419'];
const RECENT_KEY = 'hearth.recentEmoji';
const RECENT_MAX = 16;

/** Text of a Unicode emoji code ("1f44d", "1f468-200d-1f373"); BMP symbols get VS16 for emoji presentation. */
export function unicodeOf(code: string): string {
  try {
    return code
      .split('-')
      .map((h) => parseInt(h, 16))
      .map((cp) => String.fromCodePoint(cp) + (cp < 0x1f000 && cp !== 0x200d && cp !== 0x20e3 ? '\ufe0f' : ''))
      .join('');
  } catch {
    return '';
  }
}

/** The image of a custom emoji (by its ID), or undefined. */
export const realmEmojiUrl = (id: string) => store.realmEmoji.value[id]?.source_url;

/** Zulip's canonical names for 👍 and 👎 are `+1` and `-1` (`_1` here): read out as words. */
const SPOKEN: Record<string, string> = { '+1': 'thumbs up', '-1': 'thumbs down', _1: 'thumbs down' };

/** A name as people read it: "thumbs up", "red heart". */
export const labelOf = (name: string) => SPOKEN[name] ?? name.replace(/_/g, ' ');

/** Smileys first, then the other pictographs, then older symbols; otherwise in code order. */
function rank(code: string): number {
  const cp = parseInt(code, 16);
  const smiley = (cp >= 0x1f600 && cp <= 0x1f64f) || (cp >= 0x1f910 && cp <= 0x1f92f) || (cp >= 0x1f970 && cp <= 0x1f97f);
  return (smiley ? 0 : cp >= 0x1f000 ? 1 : 2) * 0x200000 + cp;
}

/** The Unicode emoji (fetched once, same origin whatever host the server named). */
export const unicodeEmoji = once(async (): Promise<EmojiChoice[]> => {
  const url = store.serverEmojiDataUrl.value;
  const res = await getStaticFile(url ? new URL(url, location.href).pathname : '/static/generated/emoji/emoji_api.json');
  if (!res.ok) throw new Error(`Emoji could not be loaded (HTTP ${res.status}).`);
  const data = (await res.json()) as { code_to_names: Record<string, string[]> };
  return Object.entries(data.code_to_names)
    .filter(([, names]) => names.length > 0)
    .map(([code, names]): EmojiChoice => ({ name: names[0]!, code, type: 'unicode_emoji', names }))
    .sort((a, b) => rank(a.code) - rank(b.code));
});

/** The organization's custom emoji that are in use, by name. */
export function customEmoji(): EmojiChoice[] {
  return Object.values(store.realmEmoji.value)
    .filter((e) => !e.deactivated)
    .map((e): EmojiChoice => ({ name: e.name, code: String(e.id), type: 'realm_emoji', names: [e.name] }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function popular(all: EmojiChoice[]): EmojiChoice[] {
  return POPULAR.map((c) => all.find((e) => e.code === c)).filter((e): e is EmojiChoice => !!e);
}

/** Emoji whose names contain every word of the query; names starting with it first. */
export function searchEmoji(all: EmojiChoice[], query: string): EmojiChoice[] {
  const q = query.trim().toLowerCase().replace(/^:|:$/g, '').replace(/[\s-]+/g, '_');
  if (!q) return all;
  const words = q.split('_').filter(Boolean);
  const hits = all.filter((e) => e.names.some((n) => words.every((w) => n.includes(w))));
  const starts = (e: EmojiChoice) => (e.names.some((n) => n.startsWith(q)) ? 0 : 1);
  return hits.sort((a, b) => starts(a) - starts(b));
}

export function recentEmoji(): EmojiChoice[] {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as EmojiChoice[];
    return Array.isArray(list) ? list.filter((e) => e && typeof e.code === 'string' && (e.type !== 'realm_emoji' || realmEmojiUrl(e.code))) : [];
  } catch {
    return [];
  }
}

export function noteRecentEmoji(e: EmojiChoice): void {
  const next = [{ name: e.name, code: e.code, type: e.type, names: [e.name] }, ...recentEmoji().filter((x) => !(x.code === e.code && x.type === e.type))];
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(next.slice(0, RECENT_MAX)));
  } catch {
    /* storage full or off: recents are a nicety */
  }
}
