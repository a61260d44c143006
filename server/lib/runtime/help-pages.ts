/**
 * Hearth's help center (served at /help/ by server/views/help.ts): the Markdown pages in
 * renderer/help/, rendered with marked and sanitised with js-xss against a short allow-list of
 * the tags a documentation page uses. Relative links to another page (`admin-guide.md#backups`)
 * become that page's address (`/help/admin-guide#backups`), so the files read the same on disk,
 * in a repository browser and in Hearth. Headings get GitHub's anchors. Raw HTML is shown as text.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Marked, type Tokens } from 'marked';
import { FilterXSS } from 'xss';
import type { App } from '../../context.js';
import type { HelpPage } from './static-files.js';
import { escapeHtml } from '../../protocol/html.js';
import { friendlyAttrValue } from '../../markdown/sanitize-xss.js';

export type { HelpPage };

export const HELP_DIR = fileURLToPath(new URL('../../../renderer/help/', import.meta.url));

/** A page's name: what follows /help/ (the file without `.md`). */
export const PAGE_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The order of the navigation; pages not listed follow in name order. */
const ORDER = ['index', 'getting-started', 'formatting', 'connecting-apps', 'admin-guide', 'https-and-trust', 'moving-to-zulip'];

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Where a link in a help page goes in Hearth: another page's `.md` file becomes its address. */
export function helpHref(href: string): string {
  const m = /^(?:\.\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/.exec(href);
  if (!m) return href;
  return `/help/${m[1] === 'index' ? '' : m[1]}${m[2] ?? ''}`;
}

const TAGS = ['h1', 'h2', 'h3', 'h4', 'p', 'a', 'ul', 'ol', 'li', 'code', 'pre', 'strong', 'em', 'del', 'blockquote', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'br', 'hr'];
const ATTRIBUTES: Record<string, string[]> = { pre: ['tabindex'], h1: ['id'], h2: ['id'], h3: ['id'], h4: ['id'], a: ['href'], th: ['align'], td: ['align'] };

/** Links to http(s), mailto, in-page anchors and this server's own paths only. */
const safeLink = (href: string) => /^(https?:\/\/|mailto:|#|\/(?!\/))/i.test(href);

function sanitize(html: string): string {
  const whiteList = Object.fromEntries(TAGS.map((t) => [t, ATTRIBUTES[t] ?? []]));
  return new FilterXSS({
    whiteList,
    stripIgnoreTag: false,
    css: false,
    onTagAttr(tag, name, value) {
      if (!whiteList[tag]?.includes(name)) return '';
      if (name === 'href') {
        // The renderer wrote the value escaped; read it as the browser does so it is not escaped twice (`&amp;amp;`).
        const href = friendlyAttrValue(value);
        return safeLink(href) ? `href="${escapeHtml(href)}"` : '';
      }
      if (name === 'id') return /^[\p{L}\p{N}_-]+$/u.test(value) ? `id="${value}"` : '';
      if (name === 'tabindex') return value === '0' ? 'tabindex="0"' : '';
      if (name === 'align') return /^(left|right|center)$/.test(value) ? `align="${value}"` : '';
      return '';
    },
  }).process(html);
}

/** One page's Markdown to its title and sanitised HTML. */
export function renderHelp(name: string, source: string): HelpPage {
  const md = new Marked({ gfm: true, async: false });
  const used = new Map<string, number>();
  let title = '';
  md.use({
    tokenizer: { html: () => undefined, tag: () => undefined },
    renderer: {
      heading(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const seen = used.get(headingSlug(token.text)) ?? 0;
        used.set(headingSlug(token.text), seen + 1);
        const id = seen ? `${headingSlug(token.text)}-${seen}` : headingSlug(token.text);
        if (token.depth === 1 && !title) title = token.text;
        return `<h${token.depth} id="${escapeHtml(id)}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(t: Tokens.Generic[]): string } }, token: Tokens.Link) {
        return `<a href="${escapeHtml(helpHref(token.href))}">${this.parser.parseInline(token.tokens)}</a>`;
      },
      code(token: Tokens.Code) {
        // Focusable, so a block that scrolls sideways can be scrolled from the keyboard.
        return `<pre tabindex="0"><code>${escapeHtml(token.text)}</code></pre>\n`;
      },
      image(token: Tokens.Image) {
        return escapeHtml(token.text);
      },
    },
  });
  const html = sanitize(md.parse(source) as string);
  return { name, title: title || name, html };
}

/** The pages' names, in the navigation's order. */
export async function helpPageNames(): Promise<string[]> {
  const files = await readdir(HELP_DIR).catch(() => [] as string[]);
  const names = files.filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).filter((n) => PAGE_NAME.test(n));
  const rank = (n: string) => (ORDER.includes(n) ? ORDER.indexOf(n) : ORDER.length);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** A page rendered (once per server; on every request while HEARTH_DEV_RENDERER=1), or null when there is none. */
export async function helpPage(app: App, name: string): Promise<HelpPage | null> {
  if (!PAGE_NAME.test(name)) return null;
  const live = process.env.HEARTH_DEV_RENDERER === '1';
  const cache = app.staticFiles.helpPages;
  const cached = cache.get(name);
  if (cached && !live) return cached;
  if (!(await helpPageNames()).includes(name)) return null;
  const page = readFile(`${HELP_DIR}${name}.md`, 'utf8').then((source) => renderHelp(name, source));
  cache.set(name, page);
  return page;
}
