/**
 * Zulip's global times: `<time:2017-06-05T22:30:00+02:00>`, `<time:1496701800>`
 * (Unix seconds) or a date V8 can read (`<time:31 Dec 2017>`, taken as UTC
 * when no zone is given) become `<time datetime="...Z">text</time>`; anything
 * else stays as its escaped original text (Zulip 12, feature level 451: no
 * more `<span class="timestamp-error">`).
 */
import type { Tokens, TokenizerAndRendererExtension } from 'marked';
import { escapeHtml } from '../protocol/html.js';

const TIME_RE = /^<time:([^>\n]*?)>/;
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const UNIX = /^-?\d{1,12}(?:\.\d+)?$/;

/** Milliseconds since the epoch, or NaN. */
function parseTime(text: string): number {
  const s = text.trim();
  if (UNIX.test(s)) return Number(s) * 1000;
  const iso = ISO.exec(s);
  if (iso) return Date.parse(iso[1] || s.length <= 10 ? s.replace(' ', 'T') : `${s.replace(' ', 'T')}Z`);
  if (!/\d/.test(s)) return NaN;
  return Date.parse(/\b(UTC|GMT|Z)\b|[+-]\d{2}:?\d{2}$/i.test(s) ? s : `${s} UTC`);
}

export function resolveTimestamp(src: string): Tokens.Generic | undefined {
  const m = TIME_RE.exec(src);
  if (!m) return undefined;
  const ms = parseTime(m[1]!);
  const valid = Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
  return { type: 'zulipTime', raw: m[0], text: m[1]!, datetime: valid ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined };
}

export const timestamp: TokenizerAndRendererExtension = {
  name: 'zulipTime',
  renderer(token) {
    const { raw, text, datetime } = token as Tokens.Generic;
    if (!datetime) return escapeHtml(raw);
    return `<time datetime="${datetime}">${escapeHtml(text)}</time>`;
  },
};
