/**
 * Zulip's inline syntax as marked extensions: user mentions (`@**Name**`,
 * `@**Name|id**`, `@**|id**`, silent `@_**Name**`, wildcards), group
 * mentions (`@*group*`), channel/topic/message links (`#**channel**`,
 * `#**channel>topic**`, `#**channel>topic@id**`) and `:emoji:`. A mention
 * or link that names nothing known is left to the other rules (so it reads
 * as the text, as in Zulip); the HTML is Zulip's.
 */
import type { Tokens, TokenizerAndRendererExtension } from 'marked';
import { emojiByName } from '../lib/emoji/unicode.js';
import { escapeHtml } from '../protocol/html.js';
import { inlineMath } from './math.js';
import { nextStart, stateOf, type RenderState } from './state.js';
import { resolveTimestamp } from './timestamp.js';
import { channelNarrow, topicNarrow } from './urls.js';

const CHANNEL_WILDCARDS: ReadonlySet<string> = new Set(['all', 'everyone', 'stream', 'channel']);
/** What Zulip shows for the empty topic in links. */
const EMPTY_TOPIC_NAME = 'general chat';

export interface MentionToken extends Tokens.Generic {
  type: 'zulipMention';
  kind: 'user' | 'channel' | 'topic';
  userId?: number;
  name: string;
  silent: boolean;
}

export interface GroupMentionToken extends Tokens.Generic {
  type: 'zulipGroupMention';
  groupId: number;
  name: string;
  silent: boolean;
}

/** Mentions start the text or follow a space or an opening mark (Zulip's BEFORE_MENTION_ALLOWED_REGEX). */
function mayStartHere(tokens: Tokens.Generic[], allowed: RegExp): boolean {
  const prev = tokens[tokens.length - 1];
  if (!prev) return true;
  const ch = (prev.raw as string).slice(-1);
  return ch === '' || allowed.test(ch);
}
const BEFORE_MENTION = /[\s'"({[/<]/;
const BEFORE_CHANNEL = /[\s'"(,:<]/;

const USER_RE = /^@(_?)\*\*([^*\n]+)\*\*/;
const GROUP_RE = /^@(_?)\*([^*\n]+)\*/;
const ID_SYNTAX = /^(.+)?\|(\d+)$/;

function resolveUser(state: RenderState, src: string, tokens: Tokens.Generic[]): MentionToken | undefined {
  if (!state.mentions) return undefined;
  const m = USER_RE.exec(src);
  if (!m || !mayStartHere(tokens, BEFORE_MENTION)) return undefined;
  const silent = m[1] === '_';
  const name = m[2]!;
  const base = { type: 'zulipMention' as const, raw: m[0], silent };
  if (CHANNEL_WILDCARDS.has(name)) return { ...base, kind: 'channel', name };
  if (name === 'topic') return { ...base, kind: 'topic', name };
  const byId = ID_SYNTAX.exec(name);
  let user;
  if (byId) {
    user = state.ctx.userById(Number(byId[2]));
    if (byId[1] !== undefined && user && user.full_name !== byId[1]) return undefined;
  } else {
    let found = state.ctx.usersByName(name);
    if (found.length > 1) found = found.filter((u) => u.is_active !== false);
    user = found.length === 1 ? found[0] : undefined;
  }
  if (!user) return undefined;
  // Zulip shows a deactivated user's mention, silently.
  if (user.is_active === false) return { ...base, silent: true, kind: 'user', userId: user.id, name: user.full_name };
  return { ...base, kind: 'user', userId: user.id, name: user.full_name };
}

export const userMention: TokenizerAndRendererExtension = {
  name: 'zulipMention',
  renderer(token) {
    const t = token as MentionToken;
    const text = escapeHtml(t.silent ? t.name : `@${t.name}`);
    const silent = t.silent ? ' silent' : '';
    if (t.kind === 'topic') return `<span class="topic-mention${silent}">${text}</span>`;
    if (t.kind === 'channel') {
      return `<span class="user-mention channel-wildcard-mention${silent}" data-user-id="*">${text}</span>`;
    }
    return `<span class="user-mention${silent}" data-user-id="${t.userId}">${text}</span>`;
  },
};

function resolveGroup(state: RenderState, src: string, tokens: Tokens.Generic[]): GroupMentionToken | undefined {
  const m = GROUP_RE.exec(src);
  if (!m || !mayStartHere(tokens, BEFORE_MENTION)) return undefined;
  const group = state.mentions ? state.ctx.groupByName(m[2]!) : undefined;
  if (!group) return undefined;
  const silent = m[1] === '_' || group.deactivated === true;
  return { type: 'zulipGroupMention', raw: m[0], groupId: group.id, name: group.name, silent };
}

export const groupMention: TokenizerAndRendererExtension = {
  name: 'zulipGroupMention',
  renderer(token) {
    const t = token as GroupMentionToken;
    const cls = t.silent ? 'user-group-mention silent' : 'user-group-mention';
    const text = escapeHtml(t.silent ? t.name : `@${t.name}`);
    return `<span class="${cls}" data-user-group-id="${t.groupId}">${text}</span>`;
  },
};

const CHANNEL_RE = /^#\*\*([^*\n]+)\*\*/;

function resolveChannel(state: RenderState, src: string, tokens: Tokens.Generic[]): Tokens.Generic | undefined {
  const m = CHANNEL_RE.exec(src);
  if (!m || !mayStartHere(tokens, BEFORE_CHANNEL)) return undefined;
  const body = m[1]!;
  const gt = body.indexOf('>');
  const channelName = gt < 0 ? body : body.slice(0, gt);
  const channel = state.ctx.channelByName(channelName);
  if (!channel) return undefined;
  if (gt < 0) return { type: 'zulipChannelLink', raw: m[0], channelId: channel.id, channel: channel.name };
  let topic = body.slice(gt + 1);
  const near = /@(\d+)$/.exec(topic);
  if (near) topic = topic.slice(0, near.index);
  const messageId = near ? Number(near[1]) : undefined;
  const withId = messageId === undefined ? state.ctx.topicWith?.(channel.id, topic) : undefined;
  return { type: 'zulipChannelLink', raw: m[0], channelId: channel.id, channel: channel.name, topic, messageId, withId };
}

export const channelLink: TokenizerAndRendererExtension = {
  name: 'zulipChannelLink',
  renderer(token) {
    const { channelId, channel, topic, messageId, withId } = token as Tokens.Generic;
    if (topic === undefined) {
      const href = escapeHtml(channelNarrow(channelId, channel));
      return `<a class="stream" data-stream-id="${channelId}" href="${href}">#${escapeHtml(channel)}</a>`;
    }
    const topicHtml = topic === '' ? `<em>${EMPTY_TOPIC_NAME}</em>` : escapeHtml(topic);
    const label = `#${escapeHtml(channel)} &gt; ${topicHtml}`;
    const href = topicNarrow(channelId, channel, topic);
    if (messageId !== undefined) {
      return `<a class="message-link" href="${escapeHtml(`${href}/near/${messageId}`)}">${label} @ 💬</a>`;
    }
    const target = withId === undefined ? href : `${href}/with/${withId}`;
    return `<a class="stream-topic" data-stream-id="${channelId}" href="${escapeHtml(target)}">${label}</a>`;
  },
};

const EMOJI_RE = /^:([\w\-+]+):/;

function resolveEmoji(state: RenderState, src: string): Tokens.Generic | undefined {
  const m = EMOJI_RE.exec(src);
  if (!m) return undefined;
  const name = m[1]!;
  const custom = state.ctx.realmEmoji?.(name);
  if (custom) return { type: 'zulipEmoji', raw: m[0], name, url: custom.source_url };
  const unicode = emojiByName(name);
  return unicode ? { type: 'zulipEmoji', raw: m[0], name, code: unicode.code } : undefined;
}

export const emoji: TokenizerAndRendererExtension = {
  name: 'zulipEmoji',
  renderer(token) {
    const { name, code, url } = token as Tokens.Generic;
    const title = escapeHtml(name.replace(/_/g, ' '));
    if (url) return `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(url)}" title="${title}">`;
    return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${escapeHtml(name)}:</span>`;
  },
};

/**
 * marked's text rule looks ahead to the end of the text for an e-mail
 * address at every stop (`*`, `_`, `[`...), which is quadratic on long runs
 * of them; so text is cut at most every TEXT_WINDOW characters, at a
 * character no URL or address contains (or hard, in a run with none).
 */
const TEXT_WINDOW = 400;
const BOUNDARY = /[\s*_~`<>[\]()"]/;

function textBoundary(src: string): number {
  for (let i = TEXT_WINDOW; i > TEXT_WINDOW / 2; i--) if (BOUNDARY.test(src[i]!)) return i;
  return TEXT_WINDOW;
}

/**
 * The one tokenizer for all of the above and `$$` math (math.ts; one call per position instead of
 * five), dispatching on the first character; its start is the nearest `@*`,
 * `@_*`, `#**`, `:` or `$$` (`<` stops text by itself; not a bare `@`, which would hide e-mail addresses
 * from the autolinker).
 */
export const zulipInline: TokenizerAndRendererExtension = {
  name: 'zulipInline',
  level: 'inline',
  start(src: string) {
    const state = stateOf(this.lexer);
    let best = -1;
    for (const marker of ['@*', '@_*', ':', '#**', '$$']) {
      const i = nextStart(state, marker, src);
      if (i >= 0 && (best < 0 || i < best)) best = i;
    }
    if (src.length > TEXT_WINDOW && (best < 0 || best > TEXT_WINDOW)) best = textBoundary(src);
    return best;
  },
  tokenizer(src, tokens) {
    const state = stateOf(this.lexer);
    state.run = tokens;
    const c = src.charCodeAt(0);
    const list = tokens as Tokens.Generic[];
    let t: Tokens.Generic | undefined;
    if (c === 64) {
      t = resolveUser(state, src, list) ?? resolveGroup(state, src, list);
      if (t) state.mentionTokens++;
    } else if (c === 58) t = resolveEmoji(state, src);
    else if (c === 35) t = resolveChannel(state, src, list);
    else if (c === 60) t = resolveTimestamp(src);
    else if (c === 36) t = inlineMath(src, list);
    return t;
  },
};
