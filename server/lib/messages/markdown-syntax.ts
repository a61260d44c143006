/** Markdown that server-written messages (Notification Bot notices, reminders, reports) build. */
import type { UserRecord } from '../../store/records.js';

/** Zulip's silent_mention_syntax_for_user. */
export const silentMention = (u: Pick<UserRecord, 'full_name' | 'id'>) => `@_**${u.full_name}|${u.id}**`;

/** A code fence longer than any the text uses (Zulip's get_unused_fence). */
export function unusedFence(text: string): string {
  let length = 3;
  for (const m of text.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, m[1]!.length + 1);
  return '`'.repeat(length);
}
