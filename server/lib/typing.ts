/**
 * Typing notifications (Zulip's typing.py): nothing stored; `typing` events to
 * the conversation. Channel typing reaches only clients that declared the
 * `stream_typing_notifications` capability. The register section tells clients
 * Zulip's timings.
 */
import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';

/** Zulip's defaults (settings.py TYPING_*). */
export const TYPING = {
  server_typing_started_expiry_period_milliseconds: 45_000,
  server_typing_stopped_wait_period_milliseconds: 5_000,
  server_typing_started_wait_period_milliseconds: 10_000,
} as const;

export const typingSection: StateSection = {
  types: ['typing'],
  fetch: () => ({ ...TYPING }),
};

export function installTypingFilter(app: App): void {
  app.events.addFilter('typing', (queue, event) =>
    (event as { message_type?: string }).message_type === 'stream' && !queue.capability('stream_typing_notifications') ? null : event,
  );
}
