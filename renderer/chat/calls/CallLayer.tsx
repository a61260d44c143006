/**
 * Calls over the chat (App.tsx draws this outside the routed view, so moving around the chat never
 * ends a call): the lobby or the call itself, drawn in full or as a small box; the incoming-call
 * dialog. Opens the call the address names (`/calls/hearth/<room_id>`), and call links clicked in
 * messages open here instead of in a new tab. After a re-register (a new event queue: the server
 * restarted), the call joins its signalling again with the same client_id. The lobby and the call
 * view (with the WebRTC code) are a chunk of their own, loaded the first time a call is opened.
 */
import { useEffect } from 'preact/hooks';
import { onReload, queueId } from '../store/events.js';
import { announce } from '../ui/Toast.js';
import { Lazy } from '../ui/Lazy.js';
import { activeCall, CALL_PATH, callNotice, callRoomOfLink, callSize, closeCall, lobby, openFromAddress, openLobby } from './call-store.js';
import { IncomingCall } from './IncomingCall.js';

/** The call view's chunk (the lobby, the call, WebRTC): loaded when a call is first opened. */
const loadCallView = () => import('./CallView.js').then((m) => m.CallView);

function useCallWatchers(): void {
  useEffect(() => {
    openFromAddress();
    const onPop = () => {
      if (CALL_PATH.test(location.pathname)) openFromAddress();
      else if (lobby.value) closeCall();
      else if (activeCall.value) callSize.value = 'mini';
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]');
      const room = a instanceof HTMLAnchorElement ? callRoomOfLink(a) : null;
      if (!room) return;
      e.preventDefault();
      openLobby(room);
    };
    const rejoin = () => {
      const q = queueId();
      if (q) activeCall.value?.rejoin(q);
    };
    const leave = () => activeCall.value?.leave();
    window.addEventListener('popstate', onPop);
    document.addEventListener('click', onClick, true);
    window.addEventListener('pagehide', leave);
    onReload.add(rejoin);
    return () => {
      window.removeEventListener('popstate', onPop);
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('pagehide', leave);
      onReload.delete(rejoin);
    };
  }, []);
  const notice = callNotice.value;
  useEffect(() => {
    if (notice) announce(notice.text);
  }, [notice?.seq]);
}

export function CallLayer() {
  useCallWatchers();
  const s = activeCall.value;
  const room = lobby.value;
  const size = callSize.value;
  return (
    <>
      {(s || room) && (
        <div class={`call-layer ${s ? size : 'full'}`} role="region" aria-label="Call">
          <Lazy load={loadCallView} what="the call" props={{ roomId: room }} />
        </div>
      )}
      <IncomingCall />
    </>
  );
}
