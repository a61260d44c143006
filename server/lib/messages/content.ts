/** A message's text as sent: checked and trimmed as Zulip's normalize_body does. */
import { errors } from '../../errors.js';
import { LIMITS } from '../../version.js';

const TRUNCATED = '\n[message truncated]';

/** Zulip's normalize_body: trailing whitespace off, empty refused, over 10,000 characters truncated. */
export function normaliseContent(raw: string): string {
  if (raw.includes('\u0000')) throw errors.badRequest('Message must not contain null bytes');
  const body = raw.trimEnd();
  if (body.trim() === '') throw errors.badRequest('Message must not be empty');
  const chars = [...body];
  if (chars.length <= LIMITS.max_message_length) return body;
  return chars.slice(0, LIMITS.max_message_length - TRUNCATED.length).join('') + TRUNCATED;
}
