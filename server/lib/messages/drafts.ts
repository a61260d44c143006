import type { App } from '../../context.js';
import type { Draft } from '../../protocol/draft.js';
import { errors } from '../../errors.js';
import { canAccessUser } from '../people/people.js';
import { v, type Validator } from '../../params/validate.js';
import { LIMITS } from '../../version.js';
import type { DraftRecord, DraftType } from '../../store/records.js';

export interface DraftInput {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export const formatDraft = (d: DraftRecord): Draft => ({
  id: d.id,
  type: d.type,
  to: d.to,
  topic: d.topic,
  content: d.content,
  timestamp: d.timestamp,
});

/** A user's drafts, most recently edited first. */
export function draftsOf(app: App, userId: number): DraftRecord[] {
  return app.store.drafts.data.drafts
    .filter((d) => d.user_id === userId)
    .sort((a, b) => b.timestamp - a.timestamp || b.id - a.id);
}

/** Zulip's RequiredStringConstraint: surrounding whitespace stripped, then at least one character. */
const requiredString: Validator<string> = (x, p) => {
  const s = v.str(x, p).trim();
  if (s === '') throw errors.badRequest(`${p} cannot be blank.`);
  return s;
};

/** The draft dict clients send, as Zulip's DraftData. */
export const draftValidator = v.dict(
  {
    type: v.oneOf(['', 'stream', 'private'] as const),
    to: v.list(v.int),
    topic: v.str,
    content: requiredString,
  },
  { timestamp: v.number },
);

export type RawDraft = ReturnType<typeof draftValidator>;

/**
 * Zulip's further_validated_draft_dict: addressing, timestamp. The content
 * comes already through normalize_body (`normaliseContent`, in the view).
 */
export function validateDraft(app: App, userId: number, d: RawDraft): DraftInput {
  const timestamp = Math.floor(d.timestamp ?? app.clock.now() / 1000);
  if (timestamp < 0) throw errors.badRequest('Timestamp must not be negative.');
  if (d.type === 'stream') {
    const topic = [...d.topic].slice(0, LIMITS.max_topic_length).join('');
    if (topic.includes('\u0000')) throw errors.badRequest('Topic must not contain null bytes');
    if (d.to.length !== 1) throw errors.badRequest('Must specify exactly 1 channel ID for channel messages');
    if (!app.channels.canAccess(userId, d.to[0]!)) throw errors.badRequest('Invalid channel ID');
    return { type: 'stream', to: d.to, topic, content: d.content, timestamp };
  }
  // A direct-message draft without recipients is stored unaddressed, as Zulip does.
  if (d.type === 'private' && d.to.length > 0) {
    const to = [...new Set(d.to)].sort((a, b) => a - b);
    const viewer = app.store.users.get(userId) ?? null;
    for (const id of to) {
      // Someone a restricted guest may not access is as unknown as nobody (lookup.ts).
      const u = app.store.users.get(id);
      if (!u || !canAccessUser(app, viewer, u)) throw errors.badRequest(`Invalid user ID ${id}`);
    }
    return { type: 'private', to, topic: '', content: d.content, timestamp };
  }
  return { type: '', to: [], topic: '', content: d.content, timestamp };
}

