/**
 * Under a message that links to a Hearth call: who is in the call and a Join button, while anyone
 * is (asked once when the message is shown, then kept current by 'room' events).
 */
import { useEffect } from 'preact/hooks';
import { userName } from '../store/state.js';
import { roomOfUrl, roomState } from './call-api.js';
import { noteRoomPeople, openLobby, roomPeople } from './call-store.js';

/** The rooms of this server's call links in a message's HTML. */
function roomsIn(html: string): string[] {
  if (!html.includes('/calls/hearth/')) return [];
  const rooms = new Set<string>();
  for (const m of html.matchAll(/href="([^"]+)"/g)) {
    const url = new URL(m[1]!.replace(/&amp;/g, '&'), location.href);
    const room = url.origin === location.origin ? roomOfUrl(url.pathname) : null;
    if (room) rooms.add(room);
  }
  return [...rooms];
}

function RoomLine({ room }: { room: string }) {
  useEffect(() => {
    roomState(room).then(
      (r) => noteRoomPeople(room, [...new Set(r.participants.map((p) => p.user_id))]),
      () => undefined,
    );
  }, [room]);
  const people = roomPeople.value.get(room) ?? [];
  if (!people.length) return null;
  return (
    <p class="call-link-state">
      <span>In this call: {people.map(userName).join(', ')}</span>
      <button type="button" onClick={() => openLobby(room)}>
        Join
      </button>
    </p>
  );
}

export function CallLinkState({ html }: { html: string }) {
  const rooms = roomsIn(html);
  return (
    <>
      {rooms.map((r) => (
        <RoomLine key={r} room={r} />
      ))}
    </>
  );
}
