/**
 * Compose's "Video call" and "Voice call": a call link from the organization's call provider, as
 * Zulip's Markdown. With Hearth's own provider (HEARTH, 100) the room belongs to the conversation
 * being written to (a channel topic, or the direct conversation's people): only they may join it.
 */
import { post } from '../store/api.js';
import { store } from '../store/state.js';
import type { TypingTarget } from './typing.js';

/** The providers (Zulip's `video_chat_provider` ids, and Hearth's own). */
export const PROVIDER = { NONE: 0, JITSI_MEET: 1, BIG_BLUE_BUTTON: 4, HEARTH: 100 } as const;

/** Whether the organization's provider makes voice-only calls (Hearth's own, BigBlueButton). */
export const voiceCalls = () => store.videoChatProvider.value === PROVIDER.HEARTH || store.videoChatProvider.value === PROVIDER.BIG_BLUE_BUTTON;

/** The conversation's parameters for `POST /calls/videocall/create`. */
function conversationOf(t: TypingTarget | null): Record<string, unknown> {
  if (!t) return {};
  if (t.kind === 'channel') return { stream_id: t.streamId, topic: t.topic };
  return { user_ids: t.to.filter((id) => id !== store.selfId.value) };
}

/** `[Join video call.](url)` or `[Join voice call.](url)`, the room named after the topic (or the organization). */
export async function videoCallLink(t: TypingTarget | null, voice = false): Promise<string> {
  const topic = t?.kind === 'channel' ? t.topic : '';
  const res = await post<{ url: string }>('/calls/videocall/create', {
    room_name: topic || store.realmName.value || 'Hearth call',
    ...(voice ? { voice_only: true } : {}),
    ...(store.videoChatProvider.value === PROVIDER.HEARTH ? conversationOf(t) : {}),
  });
  // Hearth's rooms get Zulip's current wording (with the full stop); the other providers keep this client's earlier one.
  const stop = store.videoChatProvider.value === PROVIDER.HEARTH ? '.' : '';
  return `[Join ${voice ? 'voice' : 'video'} call${stop}](${res.url})`;
}
