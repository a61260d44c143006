/**
 * In a call: a tile for everyone (names, speaking ring, muted and camera-off marks), the controls
 * (mute, camera, share the screen, leave; "Back to the chat" makes the call a small box so the
 * person can read on), the participant list, and a line read out when someone joins or leaves.
 */
import { channelName, store, topicLabel, userName } from '../store/state.js';
import { callSize, closeCall } from './call-store.js';
import type { CallSession, Peer } from './call-session.js';
import { InsecureNote } from './InsecureNote.js';
import { Tile } from './Tile.js';

const STATUS: Partial<Record<RTCPeerConnectionState, string>> = {
  new: 'Connecting…',
  connecting: 'Connecting…',
  disconnected: 'Connection interrupted…',
  failed: 'Connection lost',
};

function where(s: CallSession): string {
  const c = s.room.value?.conversation;
  if (!c) return '';
  if (c.type === 'stream') return `#${channelName(c.stream_id)} > ${topicLabel(c.topic)}`;
  const others = c.user_ids.filter((id) => id !== store.selfId.value);
  return others.length ? `with ${others.map(userName).join(', ')}` : 'with yourself';
}

function Controls({ s }: { s: CallSession }) {
  const m = s.mine.value;
  const canShare = typeof navigator.mediaDevices?.getDisplayMedia === 'function';
  return (
    <div class="call-controls" role="toolbar" aria-label="Call controls">
      <button type="button" aria-pressed={!m.audio} onClick={() => s.setMuted(m.audio)}>
        {m.audio ? 'Mute' : 'Unmute'}
      </button>
      <button type="button" aria-pressed={!m.video} onClick={() => void s.setCamera(!m.video)}>
        {m.video ? 'Turn camera off' : 'Turn camera on'}
      </button>
      {canShare && (
        <button type="button" aria-pressed={m.screen} onClick={() => void s.shareScreen(!m.screen)}>
          {m.screen ? 'Stop sharing' : 'Share screen'}
        </button>
      )}
      <button type="button" onClick={() => (callSize.value = callSize.value === 'full' ? 'mini' : 'full')}>
        {callSize.value === 'full' ? 'Back to the chat' : 'Open the call'}
      </button>
      <button type="button" class="danger-button" onClick={closeCall}>
        Leave
      </button>
    </div>
  );
}

/** What kept the camera or microphone out (as the lobby says it), until the person dismisses it. */
function MediaNotes({ s }: { s: CallSession }) {
  const n = s.mediaNotes.value;
  if (!n.problems.length && !n.noMedia) return null;
  return (
    <div class="call-media-notes">
      {n.noMedia && <InsecureNote joined />}
      {n.problems.map((p) => (
        <p key={p} class="call-problem" role="alert">
          {p}
        </p>
      ))}
      <button type="button" onClick={() => (s.mediaNotes.value = { problems: [], noMedia: false })}>
        Dismiss
      </button>
    </div>
  );
}

export function CallRoom({ s }: { s: CallSession }) {
  const peers: Peer[] = [...s.peers.value.values()];
  const me = store.users.value.get(store.selfId.value)?.full_name ?? 'You';
  const m = s.mine.value;
  const phase = s.phase.value;
  const mini = callSize.value === 'mini';
  return (
    <section class="call-room" aria-labelledby="call-room-title">
      <header class="call-head">
        <h2 id="call-room-title">{s.room.value?.is_video === false ? 'Voice call' : 'Video call'}</h2>
        <span class="call-where">{where(s)}</span>
      </header>
      <p class="visually-hidden" aria-live="polite">
        {s.announcement.value}
      </p>
      {phase === 'joining' && <p role="status">Joining…</p>}
      {s.problem.value && (
        <p class="call-problem" role="alert">
          {s.problem.value}
        </p>
      )}
      {phase !== 'refused' && !mini && <MediaNotes s={s} />}
      {s.outcome.value && (
        <p class="call-outcome" role="status">
          {s.outcome.value}
        </p>
      )}
      {phase === 'in' && !peers.length && !s.outcome.value && <p class="call-alone">Waiting for others to join…</p>}
      {/* Refused (a full call, no access): the words and the way back, no tiles. */}
      {phase !== 'refused' && (
        <ul class={`call-tiles count-${Math.min(peers.length + 1, 6)}`} aria-label="Call tiles">
          <Tile name={me} stream={s.preview.value} audio={m.audio} video={m.video} screen={m.screen} self />
          {peers.map((p) => (
            <Tile
              key={p.client_id}
              clientId={p.client_id}
              name={p.full_name || userName(p.user_id)}
              stream={p.stream}
              audio={p.audio}
              video={p.video}
              screen={p.screen}
              status={STATUS[p.connection]}
            />
          ))}
        </ul>
      )}
      {phase === 'in' && <Controls s={s} />}
      {phase !== 'in' && (
        <div class="call-controls">
          <button type="button" onClick={closeCall}>
            Back to the chat
          </button>
        </div>
      )}
      {!mini && phase !== 'refused' && (
        <section class="call-people" aria-labelledby="call-people-title">
          <h3 id="call-people-title">In the call ({peers.length + 1})</h3>
          <ul>
            <li>
              {me} (you){m.audio ? '' : ' · Muted'}
            </li>
            {peers.map((p) => (
              <li key={p.client_id}>
                {p.full_name || userName(p.user_id)}
                {p.audio ? '' : ' · Muted'}
                {p.video || p.screen ? '' : ' · Camera off'}
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
