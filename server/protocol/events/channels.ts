/**
 * Event kinds of the channels area (Zulip's EventStreamCreate, EventStreamDelete, EventStreamUpdate,
 * EventSubscriptionAdd/Remove/Update/PeerAdd/PeerRemove, EventDefaultStreams, EventChannelFolder*,
 * EventUserTopic, EventMutedTopics). Fields marked internal steer the server's queue filters
 * (server/register/channels.ts) and are removed there: clients never see them.
 */
import type { Dicts, WireDicts } from './dicts.js';

export interface StreamCreateEvent<D extends Dicts = WireDicts> {
  type: 'stream';
  op: 'create';
  streams: D['channel'][];
  /** Internal: stands in for an unarchiving, for clients without `archived_channels`. */
  for_unarchiving?: boolean;
}

export interface StreamDeleteEvent {
  type: 'stream';
  op: 'delete';
  streams: { stream_id: number }[];
  stream_ids: number[];
  /** Internal: stands in for an archiving, for clients without `archived_channels`. */
  for_archiving?: boolean;
}

export interface StreamUpdateEvent {
  type: 'stream';
  op: 'update';
  stream_id: number;
  name: string;
  property: string;
  value: unknown;
  /** With property description. */
  rendered_description?: string;
  /** With property invite_only. */
  history_public_to_subscribers?: boolean;
  is_web_public?: boolean;
}

export interface SubscriptionAddEvent<D extends Dicts = WireDicts> {
  type: 'subscription';
  op: 'add';
  subscriptions: D['subscription'][];
  /** Internal: see StreamCreateEvent. */
  for_unarchiving?: boolean;
}

export interface SubscriptionRemoveEvent {
  type: 'subscription';
  op: 'remove';
  subscriptions: { name: string; stream_id: number }[];
}

export interface SubscriptionUpdateEvent {
  type: 'subscription';
  op: 'update';
  stream_id: number;
  property: string;
  value: unknown;
}

export interface SubscriptionPeerEvent {
  type: 'subscription';
  op: 'peer_add' | 'peer_remove';
  stream_ids: number[];
  user_ids: number[];
  /** Internal: see StreamCreateEvent. */
  for_unarchiving?: boolean;
  /** Internal: peers announced with an archived channel's create, for `archived_channels` clients only. */
  for_archived_channel?: boolean;
}

export interface DefaultStreamsEvent {
  type: 'default_streams';
  default_streams: number[];
}

export type ChannelFolderEvent<D extends Dicts = WireDicts> =
  | { type: 'channel_folder'; op: 'add'; channel_folder: D['channelFolder'] }
  | { type: 'channel_folder'; op: 'update'; channel_folder_id: number; data: D['channelFolderChange'] }
  | { type: 'channel_folder'; op: 'reorder'; order: number[] };

export interface UserTopicEvent {
  type: 'user_topic';
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

export interface MutedTopicsEvent {
  type: 'muted_topics';
  muted_topics: [string, string, number][];
}

export type ChannelsAreaEvent<D extends Dicts = WireDicts> =
  | StreamCreateEvent<D>
  | StreamDeleteEvent
  | StreamUpdateEvent
  | SubscriptionAddEvent<D>
  | SubscriptionRemoveEvent
  | SubscriptionUpdateEvent
  | SubscriptionPeerEvent
  | DefaultStreamsEvent
  | ChannelFolderEvent<D>
  | UserTopicEvent
  | MutedTopicsEvent;
