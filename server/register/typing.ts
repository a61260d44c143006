import type { App } from '../context.js';
import type { StateSection } from '../events/state.js';

/** Zulip's defaults (settings.py TYPING_*). */
const TYPING = {
  server_typing_started_expiry_period_milliseconds: 45_000,
  server_typing_stopped_wait_period_milliseconds: 5_000,
  server_typing_started_wait_period_milliseconds: 10_000,
} as const;

/** The typing timings: Zulip sends them with the organization (want("realm")). */
const typingSection: StateSection = {
  wants: ['realm'],
  fetch: () => ({ ...TYPING }),
};

export const sections = [typingSection];

/** Channel typing reaches only clients that declared the `stream_typing_notifications` capability. */
export function filters(app: App): void {
  app.events.addFilter('typing', (queue, event) =>
    event.message_type === 'stream' && !queue.capability('stream_typing_notifications') ? null : event,
  );
}
