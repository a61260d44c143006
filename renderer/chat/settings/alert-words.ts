/**
 * Alert words highlighted in a message, as Zulip's web app marks them (`.alert-word`):
 * only in messages the server flagged `has_alert_word`, case-insensitive, a word standing
 * alone between spaces or punctuation, never inside code or a link's address.
 */
import { alertWordPattern } from '../../../server/protocol/alert-words.js';

const SKIP: ReadonlySet<string> = new Set(['CODE', 'PRE', 'A', 'MARK', 'SCRIPT', 'STYLE']);
const done = new Map<string, string>();

function patternOf(words: readonly string[]): RegExp | null {
  const kept = words.filter((w) => w.trim());
  return kept.length ? alertWordPattern(kept, 'giu') : null;
}

/** `html` (already sanitised) with each alert word wrapped in `<mark class="alert-word">`. */
export function highlightAlertWords(html: string, words: readonly string[]): string {
  const key = `${words.join('\u0000')}\u0001${html}`;
  const hit = done.get(key);
  if (hit !== undefined) return hit;
  const re = patternOf(words);
  let out = html;
  if (re) {
    const t = document.createElement('template');
    t.innerHTML = html;
    const walker = document.createTreeWalker(t.content, NodeFilter.SHOW_TEXT);
    const texts: Text[] = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      let skip = false;
      for (let p = n.parentElement; p; p = p.parentElement) if (SKIP.has(p.tagName)) skip = true;
      if (!skip) texts.push(n as Text);
    }
    for (const text of texts) {
      const s = text.data;
      re.lastIndex = 0;
      const parts: (string | HTMLElement)[] = [];
      let at = 0;
      for (let m = re.exec(s); m; m = re.exec(s)) {
        const lead = m[1] ?? '';
        const word = m[2] ?? '';
        const start = m.index + lead.length;
        parts.push(s.slice(at, start));
        const mark = document.createElement('mark');
        mark.className = 'alert-word';
        mark.textContent = word;
        parts.push(mark);
        at = start + word.length;
      }
      if (!parts.length) continue;
      parts.push(s.slice(at));
      text.replaceWith(...parts);
    }
    out = t.innerHTML;
  }
  if (done.size > 2_000) done.clear();
  done.set(key, out);
  return out;
}
