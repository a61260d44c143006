/**
 * The call view's chunk (loaded when a call is first opened or a ring accepted; CallLayer.tsx
 * draws it): the lobby, or the call this page is in.
 */
import { activeCall } from './call-store.js';
import { CallRoom } from './CallRoom.js';
import { Lobby } from './Lobby.js';

export function CallView({ roomId }: { roomId: string | null }) {
  const s = activeCall.value;
  if (s) return <CallRoom s={s} />;
  return roomId ? <Lobby roomId={roomId} /> : null;
}
