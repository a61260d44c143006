/**
 * What the Settings section reads: one register call for everything it shows (its event queue is
 * deleted straight away), and the organization's channels for the channel pickers.
 */
import type { Channel } from '../../../../server/protocol/channel.js';
import type { RegisterState } from '../../../../server/protocol/register.js';
import { del, get, post } from '../api.js';

/** A linkifier (`realm_linkifiers`). */
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/** The register answer's organization settings this section reads, beyond what the protocol names. */
export interface SettingsState extends RegisterState {
  realm_description?: string;
  realm_user_settings_defaults?: { email_address_visibility?: number };
  realm_enable_spectator_access?: boolean;
  realm_enable_read_receipts?: boolean;
  realm_moderation_request_channel_id?: number | null;
  realm_new_stream_announcements_stream_id?: number | null;
  realm_available_video_chat_providers?: Record<string, { id: number; name: string }>;
  realm_icon_url?: string;
  realm_welcome_message_custom_text?: string;
  realm_linkifiers?: Linkifier[];
  /** Days messages are kept (-1: forever); channels may have their own. */
  realm_message_retention_days?: number;
  /** STUN/TURN servers for Hearth's calls (RTCIceServer dictionaries). */
  realm_hearth_call_ice_servers?: { urls: string | string[]; username?: string; credential?: string }[];
  /** Channel IDs, or (older servers) channel objects. */
  realm_default_streams?: (number | Channel)[];
}

/** One register call for everything the section shows; its queue is deleted straight away. */
export async function fetchSettings(): Promise<SettingsState> {
  const state = await post<SettingsState>('/register', {
    fetch_event_types: ['realm', 'realm_user_settings_defaults', 'custom_profile_fields', 'default_streams', 'channel_folders', 'realm_linkifiers'],
    event_types: ['heartbeat'],
    apply_markdown: true,
  });
  if (state.queue_id) void del('/events', { queue_id: state.queue_id }).catch(() => undefined);
  return state;
}

/** The organization's channels, by name. */
export async function fetchChannels(): Promise<Channel[]> {
  const res = await get<{ streams?: Channel[] }>('/streams');
  return (res.streams ?? []).sort((a, b) => a.name.localeCompare(b.name));
}

/** The channels as the cards see them: null while loading, or why they could not be loaded. */
export type ChannelList = { channels: Channel[] | null; error: string | null };

/** Images the organization uploads (its icon, custom emoji). */
export const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

/** Resolves once the image at `src` is loaded (or failed), so an `<img>` given it next shows it at once. */
export async function preloadImage(src: string): Promise<void> {
  const img = new Image();
  img.src = src;
  await img.decode().catch(() => undefined);
}
