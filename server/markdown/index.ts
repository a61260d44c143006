/**
 * Zulip-flavoured Markdown: `renderMessage` for messages (mentions, links,
 * uploads reported to the caller) and `renderDescription` for channel,
 * folder, organization and profile texts (no mentions). Output is always
 * sanitised. Input that breaks the parser (a stack overflow from thousands
 * of nested quotes or lists) falls back to escaped text, never an error.
 */
import type { Tokens } from 'marked';
import { createEngine, flushPreviews } from './engine.js';
import { escapeHtml } from '../protocol/html.js';
import type { GroupMentionToken, MentionToken } from './inline.js';
import { putTrustedBack } from './trusted-html.js';
import { sanitizeXss as sanitize } from './sanitize-xss.js';
import { newState, optionsWith, type RenderState } from './state.js';
import type { RenderContext, RenderResult } from './types.js';

export type { RenderContext, RenderResult, RenderUser } from './types.js';

const engine = createEngine();

/** Content that could not be parsed: escaped text, line breaks kept. */
export function escapedParagraphs(content: string): string {
  return content
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/**
 * Mentions inside quotes are silent (Zulip quotes other people's words
 * without notifying anyone); the others fill the mention sets.
 */
function collectMentions(tokens: Tokens.Generic[], quoted: boolean, state: RenderState): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'zulipMention': {
        const t = token as MentionToken;
        if (quoted) t.silent = true;
        if (t.silent) break;
        if (t.kind === 'user') state.mentionedUserIds.add(t.userId!);
        else if (t.kind === 'channel') state.channelWildcard = true;
        else state.topicWildcard = true;
        break;
      }
      case 'zulipGroupMention': {
        const t = token as GroupMentionToken;
        if (quoted) t.silent = true;
        if (!t.silent) state.mentionedGroupIds.add(t.groupId);
        break;
      }
      case 'blockquote':
        collectMentions(token.tokens ?? [], true, state);
        break;
      case 'list':
        for (const item of (token as Tokens.List).items) collectMentions(item.tokens, quoted, state);
        break;
      case 'table': {
        const table = token as Tokens.Table;
        for (const cell of table.header) collectMentions(cell.tokens, quoted, state);
        for (const row of table.rows) for (const cell of row) collectMentions(cell.tokens, quoted, state);
        break;
      }
      case 'zulipSpoiler':
        collectMentions(token.header as Tokens.Generic[], quoted, state);
        collectMentions(token.tokens ?? [], quoted, state);
        break;
      default:
        if (token.tokens) collectMentions(token.tokens, quoted, state);
    }
  }
}

// Characters that can start Markdown, links, mentions, emoji, math or entities anywhere in a line.
const SPECIAL = /[\\`*_~[\]:@&|\u0000-\u0009\u000b-\u001f\u007f]|www\.|\$\$/i;
// What a line may not start with: lists, quotes, headings, rules, setext underlines, code indents.
const LINE_START = /^(?:[-+=#>]|\d+[.)])/;

/**
 * The HTML of text with no Markdown in it (the common chat line), built
 * without the parser: one paragraph, lines joined by `<br>`. Undefined when
 * the content needs the parser. Tests check it against the parser's output.
 */
export function plainHtml(content: string): string | undefined {
  if (content.length > 2000 || SPECIAL.test(content)) return undefined;
  const lines = content.split('\n');
  for (const line of lines) {
    if (line === '' || line.trim() !== line || LINE_START.test(line)) return undefined;
  }
  return `<p>${lines.map(escapeHtml).join('<br>\n')}</p>`;
}

/** More `*` than this and emphasis is left as text (marked's matching is quadratic in them). */
const MAX_EMPHASIS_MARKS = 1000;

function countOf(s: string, ch: string, limit: number): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0 && n <= limit; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

function renderHtml(content: string, state: RenderState): string {
  if (content.length > MAX_EMPHASIS_MARKS) state.noEmphasis = countOf(content, '*', MAX_EMPHASIS_MARKS) > MAX_EMPHASIS_MARKS;
  const options = optionsWith(engine, state);
  const tokens = engine.lexer(content, options);
  if (state.mentionTokens > 0) collectMentions(tokens, false, state);
  const html = engine.parser(tokens, options) + flushPreviews(state);
  return html.endsWith('\n') ? html.slice(0, -1) : html;
}

/** Longer content is not parsed at all (callers cap messages at 10,000 characters). */
const MAX_PARSED_CHARS = 50_000;

/** Renders and sanitises; on a parser failure, the escaped text and an empty state. */
function render(content: string, ctx: RenderContext, mentions: boolean): { html: string; state: RenderState } {
  const state = newState(ctx, mentions);
  if (content.length > MAX_PARSED_CHARS) return { html: escapedParagraphs(content), state };
  // A line the linkifiers match needs the parser's text rendering.
  const plain = ctx.linkify?.(content) ? undefined : plainHtml(content);
  if (plain !== undefined) return { html: plain, state };
  try {
    // Math and highlighted code are put back after sanitising (trusted-html.ts says why that is safe).
    return { html: putTrustedBack(sanitize(renderHtml(content, state)), state), state };
  } catch {
    // Too deep for the parser (RangeError: stack overflow) or any other
    // failure on hostile input: show the text as typed.
    return { html: escapedParagraphs(content), state: newState(ctx, mentions) };
  }
}

/** A message: sanitised HTML plus what the content mentions and links. */
export function renderMessage(content: string, ctx: RenderContext): RenderResult {
  const { html, state } = render(content, ctx, true);
  return {
    html,
    mentionedUserIds: state.mentionedUserIds,
    mentionedGroupIds: state.mentionedGroupIds,
    channelWildcard: state.channelWildcard,
    topicWildcard: state.topicWildcard,
    isMeMessage: content.startsWith('/me '),
    uploadPaths: state.uploadPaths,
    hasLink: state.hasLink,
    hasImage: state.hasImage,
    hasAttachment: state.hasAttachment,
  };
}

const NO_CONTEXT: RenderContext = {
  usersByName: () => [],
  userById: () => undefined,
  groupByName: () => undefined,
  channelByName: () => undefined,
};

/**
 * A description (channel, folder, organization, profile field): the same
 * Markdown without mentions; channel links and custom emoji when `ctx` gives them.
 */
export function renderDescription(text: string, ctx: RenderContext = NO_CONTEXT): string {
  if (!text.trim()) return '';
  return render(text, ctx, false).html;
}

/** The parser's unsanitised HTML, never the plain fast path (tests and benchmarks). */
export function renderFullHtml(content: string, ctx: RenderContext): string {
  const state = newState(ctx, true);
  return putTrustedBack(renderHtml(content, state), state);
}
