/**
 * A direct call ringing this person: a dialog with Accept and Decline, a ring every few seconds (the
 * person's sound setting allowing) and a desktop notification where the browser allows one. It
 * closes when the call is answered elsewhere, cancelled or missed ('ring_end'). Accept joins at once
 * with the default camera and microphone (join.ts, loaded then).
 */
import { useEffect } from 'preact/hooks';
import { notifyIncomingCall, playSound } from '../notifications.js';
import { store, userName } from '../store/state.js';
import { Modal } from '../ui/Dialog.js';
import { declineCall } from './call-api.js';
import { notice, ringing } from './call-store.js';

const RING_EVERY_MS = 2_500;
/** Joining from a ring: in the call view's chunk, loaded on Accept. */
const loadJoin = () => import('./join.js');

export function IncomingCall() {
  const ring = ringing.value;
  useEffect(() => {
    if (!ring) return;
    const sounds = store.userSettings.value.enable_sounds !== false;
    const ringOnce = () => sounds && playSound('chime-up');
    ringOnce();
    const timer = setInterval(ringOnce, RING_EVERY_MS);
    const n = notifyIncomingCall(userName(ring.caller_id), ring.is_video);
    return () => {
      clearInterval(timer);
      n?.close();
    };
  }, [ring?.room_id]);
  if (!ring) return null;

  async function accept() {
    if (!ring) return;
    ringing.value = null;
    // The call's code is loaded now (a chunk of its own); it joins with the default devices and
    // says in the call view what went wrong with them.
    try {
      await (await loadJoin()).acceptRing(ring);
    } catch (err) {
      notice(`Could not open the call: ${String(err)}`);
    }
  }

  function decline() {
    if (!ring) return;
    ringing.value = null;
    void declineCall(ring.room_id).catch(() => undefined);
  }

  return (
    <Modal title={ring.is_video ? 'Incoming video call' : 'Incoming voice call'} onClose={decline} class="incoming-call">
      <p>{userName(ring.caller_id)} is calling you.</p>
      <div class="call-actions">
        <button type="button" class="primary" onClick={() => void accept()}>
          Accept
        </button>
        <button type="button" class="danger-button" onClick={decline}>
          Decline
        </button>
      </div>
    </Modal>
  );
}
