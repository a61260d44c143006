/**
 * The one Marked instance, set up for Zulip's flavour: GFM with line breaks
 * (nl2br), no raw HTML (tags are text), no reference links or setext
 * headings, no `_` emphasis, `~~` strikethrough only; Zulip's fences, mentions, channel links and emoji;
 * links only to safe targets; code blocks in Zulip's `codehilite` markup.
 * Per-render state travels in the options (state.ts), never in the instance.
 */
import { Marked, Renderer, type Tokens } from 'marked';
import { codeBlockHtml, fences, spoiler } from './fences.js';
import { escapeHtml } from '../protocol/html.js';
import { channelLink, emoji, groupMention, userMention, zulipInline } from './inline.js';
import { math } from './math.js';
import { timestamp } from './timestamp.js';
import { stateOf, type RenderState } from './state.js';
import { isImagePath, isUploadHref, safeHref } from './urls.js';
import { linkTitle, previewHtml } from './image-preview.js';
import type { UploadPreview } from './types.js';

const ORIGINAL: UploadPreview = { kind: 'original' };
const NO_PREVIEW: UploadPreview = { kind: 'none' };

/** marked's own rendering of plain text (its escaping), for the unlinked pieces. */
const plainText = Renderer.prototype.text;

function linkHtml(state: RenderState, href: string, title: string | null | undefined, inner: string, raw: string): string {
  const safe = safeHref(href);
  if (!safe) return escapeHtml(raw);
  state.hasLink = true;
  const attr = escapeHtml(safe);
  if (isUploadHref(safe)) {
    state.hasAttachment = true;
    if (!state.uploadPaths.includes(safe)) state.uploadPaths.push(safe);
    // Zulip's inline preview (image-preview.ts): the thumbnail, its placeholder, or the original.
    const preview = state.ctx.uploadPreview ? state.ctx.uploadPreview(safe) : isImagePath(safe) ? ORIGINAL : NO_PREVIEW;
    if (preview.kind !== 'none') {
      state.hasImage = true;
      state.previews.push(previewHtml(preview, attr, linkTitle(inner) ?? decodeName(safe)));
    }
  }
  const label = inner.trim() ? inner : attr;
  return `<a href="${attr}"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
}

function decodeName(href: string): string {
  const last = href.replace(/[?#].*$/, '').split('/').pop() ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Previews of the images linked in a block go right after it, as in Zulip. */
function flushPreviews(state: RenderState): string {
  if (state.previews.length === 0) return '';
  const out = state.previews.join('');
  state.previews.length = 0;
  return out;
}

export function createEngine(): Marked {
  const md = new Marked({ gfm: true, breaks: true, async: false, silent: false });
  md.use({
    extensions: [fences, spoiler, zulipInline, userMention, groupMention, channelLink, emoji, timestamp, math],
    tokenizer: {
      html: () => undefined,
      tag: () => undefined,
      def: () => undefined,
      lheading: () => undefined,
      reflink: () => undefined,
      emStrong(src: string) {
        return src.charCodeAt(0) === 95 || stateOf(this).noEmphasis ? undefined : false;
      },
      del: (src: string) => (src.startsWith('~~') ? false : undefined),
    },
    renderer: {
      code(token: Tokens.Code) {
        return codeBlockHtml(token.text, token.lang, stateOf(this));
      },
      html(token: Tokens.HTML | Tokens.Tag) {
        const text = escapeHtml(token.text);
        return 'block' in token && token.block ? `<p>${text}</p>\n` : text;
      },
      link(token: Tokens.Link) {
        const state = stateOf(this);
        state.linkDepth++;
        try {
          const inner = this.parser.parseInline(token.tokens);
          return linkHtml(state, token.href, token.title, inner, token.raw);
        } finally {
          state.linkDepth--;
        }
      },
      text(token: Tokens.Text | Tokens.Escape) {
        // The organization's linkifiers, on plain text outside links and code.
        const state = stateOf(this);
        if (!state.ctx.linkify || state.linkDepth > 0 || ('tokens' in token && token.tokens) || ('escaped' in token && token.escaped)) return false;
        const pieces = state.ctx.linkify(token.text);
        if (!pieces) return false;
        state.hasLink = true;
        return pieces
          .map((p) => {
            const safe = p.url === undefined ? undefined : safeHref(p.url);
            if (!safe) return plainText.call(this, { type: 'text', raw: p.text, text: p.text });
            const url = escapeHtml(safe);
            return `<a href="${url}" title="${url}">${escapeHtml(p.text)}</a>`;
          })
          .join('');
      },
      image(token: Tokens.Image) {
        // Zulip has no image syntax: `![alt](url)` is `!` and a link.
        return `!${linkHtml(stateOf(this), token.href, token.title, escapeHtml(token.text), token.raw.slice(1))}`;
      },
      paragraph(token: Tokens.Paragraph) {
        const body = this.parser.parseInline(token.tokens);
        return `<p>${body}</p>\n${flushPreviews(stateOf(this))}`;
      },
      br() {
        return '<br>\n';
      },
      checkbox(token: Tokens.Checkbox) {
        return token.checked ? '[x] ' : '[ ] ';
      },
    },
  });
  return md;
}

export { flushPreviews };
