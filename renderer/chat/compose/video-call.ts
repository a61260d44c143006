/** Compose's "Video call": a call link from the organization's video call provider, as Markdown. */
import { post } from '../store/api.js';
import { store } from '../store/state.js';

/** `[Join video call](url)`, the room named after the topic (or the organization). */
export async function videoCallLink(topic: string): Promise<string> {
  const res = await post<{ url: string }>('/calls/videocall/create', { room_name: topic || store.realmName.value || 'Hearth call' });
  return `[Join video call](${res.url})`;
}
