/**
 * Joining a call (in the call view's chunk): from the lobby with the chosen devices, or straight
 * from a ring with the default ones. What went wrong with the camera or microphone (none, refused,
 * a page that may use neither) travels with the call, so the call view says it as the lobby does.
 */
import { queueId } from '../store/events.js';
import { activeCall, lobby, page, ringing, showAddress } from './call-store.js';
import { CallSession, type MediaNotes } from './call-session.js';
import { mediaPossible, openMedia } from './media.js';

/** Joins the room with the chosen media. */
export function joinCall(roomId: string, local: MediaStream, cameraId: string | undefined, queue: string | undefined, notes?: MediaNotes): CallSession {
  activeCall.value?.leave();
  const s = new CallSession(roomId, page.clientId, local, cameraId, notes);
  activeCall.value = s;
  lobby.value = null;
  if (ringing.value?.room_id === roomId) ringing.value = null;
  showAddress(roomId);
  if (queue) void s.join(queue);
  else s.problem.value = 'The chat is not connected: try again in a moment.';
  return s;
}

/** An accepted ring: joins at once with the default microphone (and camera, for a video call). */
export async function acceptRing(ring: { room_id: string; is_video: boolean }): Promise<void> {
  const possible = mediaPossible();
  const m = possible ? await openMedia({ video: ring.is_video }).catch(() => null) : null;
  const problems = m ? [m.micProblem, m.cameraProblem].filter((p): p is string => p !== null) : [];
  if (possible && !m) problems.push('The camera and microphone could not be started: you join without them.');
  joinCall(ring.room_id, m?.stream ?? new MediaStream(), undefined, queueId(), { problems, noMedia: !possible });
}
