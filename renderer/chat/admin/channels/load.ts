/** What the Channels section reads: every channel (sorted by name), the default channels, the people who may be subscribed. */
import type { Channel } from '../../../../server/protocol/channel.js';
import type { User } from '../../../../server/protocol/user.js';
import { get } from '../api.js';

export interface ChannelsData {
  channels: Channel[];
  defaults: ReadonlySet<number>;
  /** Active people who are not bots: "Subscribe everyone now". */
  people: number[];
}

export async function loadChannels(): Promise<ChannelsData> {
  const [streams, defaults, users] = await Promise.all([
    get<{ streams?: Channel[] }>('/streams', { include_all: true }),
    get<{ default_streams?: Channel[] }>('/default_streams').catch(() => ({ default_streams: [] as Channel[] })),
    get<{ members?: User[] }>('/users'),
  ]);
  return {
    channels: (streams.streams ?? []).sort((a, b) => a.name.localeCompare(b.name)),
    defaults: new Set<number>((defaults.default_streams ?? []).map((s) => s.stream_id)),
    people: (users.members ?? []).filter((u) => u.is_active && !u.is_bot).map((u) => u.user_id),
  };
}
