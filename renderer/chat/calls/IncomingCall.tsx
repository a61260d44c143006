/**
 * A direct call ringing this person: a dialog with Accept and Decline, a ring every few seconds (the
 * person's sound setting allowing) and a desktop notification where the browser allows one. It
 * closes when the call is answered elsewhere, cancelled or missed ('ring_end').
 */
import { useEffect } from 'preact/hooks';
import { notifyIncomingCall, playSound } from '../notifications.js';
import { queueId } from '../store/events.js';
import { store, userName } from '../store/state.js';
import { Modal } from '../ui/Dialog.js';
import { declineCall } from './call-api.js';
import { joinCall, ringing } from './call-store.js';
import { mediaPossible, openMedia } from './media.js';

const RING_EVERY_MS = 2_500;

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
    const m = mediaPossible() ? await openMedia({ video: ring.is_video }) : null;
    joinCall(ring.room_id, m?.stream ?? new MediaStream(), undefined, queueId());
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
