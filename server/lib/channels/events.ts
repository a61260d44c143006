/**
 * What channel events say, as pure functions: a `stream` update's body and the `default_streams`
 * list (also the register's `realm_default_streams`). Sending them, inside a transaction, is
 * server/actions/channel-events.ts.
 */
import type { App } from '../../context.js';
import type { StreamUpdateEvent } from '../../events/types.js';
import type { ChannelRecord } from '../../store/channel-records.js';

/** Extra fields some `stream` updates carry (Zulip's EventStreamUpdate). */
type UpdateExtra = Pick<StreamUpdateEvent, 'rendered_description' | 'history_public_to_subscribers' | 'is_web_public'>;

export const streamUpdate = (channel: ChannelRecord, property: string, value: unknown, extra: UpdateExtra = {}): StreamUpdateEvent => ({
  type: 'stream',
  op: 'update',
  stream_id: channel.id,
  name: channel.name,
  property,
  value,
  ...extra,
});

export const defaultChannelIds = (app: App): number[] =>
  app.store.channels.data.channels
    .filter((c) => c.is_default_stream)
    .map((c) => c.id)
    .sort((a, b) => a - b);
