/**
 * What one render carries through marked: the caller's lookups and what the
 * content turned out to hold. Passed as a per-call option (`hearth`), so the
 * shared Marked instance keeps no per-message state.
 */
import type { Marked } from 'marked';
import type { RenderContext } from './types.js';

export interface RenderState {
  ctx: RenderContext;
  /** Mentions and wildcards are recognised (messages), not in descriptions. */
  mentions: boolean;
  /** Mention tokens made; the quote pass runs only when there are some. */
  mentionTokens: number;
  mentionedUserIds: Set<number>;
  mentionedGroupIds: Set<number>;
  channelWildcard: boolean;
  topicWildcard: boolean;
  uploadPaths: string[];
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
  /** Inline image previews waiting for the end of their paragraph. */
  previews: string[];
  /** Emphasis off: too many `*` for marked's delimiter matching (quadratic) to stay quick. */
  noEmphasis: boolean;
  /** Quote/spoiler fences open around the block being lexed. */
  fenceDepth: number;
  /** Spoiler fences open around the block being lexed (Zulip's default code language does not reach inside). */
  spoilerDepth: number;
  /** Links being rendered around the current text (no linkifier links inside a link). */
  linkDepth: number;
  /** The token list of the inline run being lexed (set by the inline tokenizers). */
  run: unknown;
  /** Per start marker: where it was found, counted from the end of the run (-1: none left). */
  starts: Map<string, { run: unknown; fromEnd: number }>;
  /** The math of this render (math.ts), made on the first formula. */
  math: MathState | undefined;
  /** Trusted HTML (math, highlighted code) waiting for its placeholders (trusted-html.ts), made on the first. */
  trusted: { nonce: string; html: string[] } | undefined;
}

/** What the math bounds count over one render. */
export interface MathState {
  outputChars: number;
  macroTokens: number;
  /** Milliseconds KaTeX has taken. */
  ms: number;
}

export function newState(ctx: RenderContext, mentions: boolean): RenderState {
  return {
    ctx,
    mentions,
    mentionTokens: 0,
    mentionedUserIds: new Set(),
    mentionedGroupIds: new Set(),
    channelWildcard: false,
    topicWildcard: false,
    uploadPaths: [],
    hasLink: false,
    hasImage: false,
    hasAttachment: false,
    previews: [],
    noEmphasis: false,
    fenceDepth: 0,
    spoilerDepth: 0,
    linkDepth: 0,
    run: undefined,
    starts: new Map(),
    math: undefined,
    trusted: undefined,
  };
}

type Options = Marked['defaults'] & { hearth?: RenderState };

/** The render state from a lexer's, tokenizer's or parser's options. */
export function stateOf(holder: { options: unknown }): RenderState {
  const s = (holder.options as Options).hearth;
  if (!s) throw new Error('markdown: render state missing');
  return s;
}

/** The options for one render: the instance's defaults plus the state. */
export const optionsWith = (md: Marked, state: RenderState): Options => ({ ...md.defaults, hearth: state });

/**
 * Index of `marker` in `src`, a suffix of the inline run being lexed. marked
 * asks each extension where its syntax may start after every text token;
 * scanning again each time is quadratic on long text without the marker, so
 * the position is remembered (from the end of the run) until it is passed.
 */
export function nextStart(state: RenderState, marker: string, src: string): number {
  const cached = state.starts.get(marker);
  if (cached && cached.run === state.run && state.run !== undefined) {
    if (cached.fromEnd < 0) return -1;
    if (cached.fromEnd <= src.length) return src.length - cached.fromEnd;
  }
  const i = src.indexOf(marker);
  const fromEnd = i < 0 ? -1 : src.length - i;
  if (cached) {
    cached.run = state.run;
    cached.fromEnd = fromEnd;
  } else state.starts.set(marker, { run: state.run, fromEnd });
  return i;
}
