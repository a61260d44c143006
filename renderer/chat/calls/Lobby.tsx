/**
 * Before joining a call: who is in it, the microphone and camera to use with a preview, then
 * "Join" or "Join without video". Clear words when the browser refuses the camera, when there is
 * none (the person joins with sound only), and when the page is not a secure context (plain HTTP
 * from another computer: the HTTPS address and the trust page).
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from '../store/api.js';
import { queueId } from '../store/events.js';
import { userName } from '../store/state.js';
import { roomState, type CallRoom } from './call-api.js';
import { closeCall } from './call-store.js';
import { InsecureNote } from './InsecureNote.js';
import { joinCall } from './join.js';
import { listDevices, mediaPossible, openMedia, stopStream, type Devices } from './media.js';

interface Found {
  room: CallRoom;
  names: string[];
}

export function Lobby({ roomId }: { roomId: string }) {
  const [found, setFound] = useState<Found | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [devices, setDevices] = useState<Devices>({ mics: [], cameras: [] });
  const [micId, setMicId] = useState<string | undefined>(undefined);
  const [cameraId, setCameraId] = useState<string | undefined>(undefined);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [opening, setOpening] = useState(true);
  const preview = useRef<HTMLVideoElement>(null);
  const kept = useRef<MediaStream | null>(null);
  const possible = mediaPossible();
  const ids = useId();
  const video = found?.room.is_video !== false;

  useEffect(() => {
    roomState(roomId).then(
      (r) => setFound({ room: r.room, names: r.participants.map((p) => p.full_name || userName(p.user_id)) }),
      (err: unknown) => setRefused(err instanceof ApiError ? err.message : 'The call could not be found.'),
    );
  }, [roomId]);

  // The preview: asked again whenever the chosen devices change.
  useEffect(() => {
    if (!possible || !found) return;
    let cancelled = false;
    setOpening(true);
    stopStream(kept.current);
    openMedia({ video, micId, cameraId }).then(
      async (m) => {
        if (cancelled) return stopStream(m.stream);
        kept.current = m.stream;
        setStream(m.stream);
        setProblems([m.micProblem, m.cameraProblem].filter((p): p is string => p !== null));
        setDevices(await listDevices().catch(() => ({ mics: [], cameras: [] })));
        setOpening(false);
      },
      () => setOpening(false),
    );
    return () => {
      cancelled = true;
    };
  }, [possible, found, micId, cameraId]);

  useEffect(() => () => stopStream(kept.current), []);
  useEffect(() => {
    if (preview.current && preview.current.srcObject !== stream) preview.current.srcObject = stream;
  }, [stream]);

  function join(withVideo: boolean) {
    const s = kept.current ?? new MediaStream();
    if (!withVideo) for (const t of s.getVideoTracks()) (t.stop(), s.removeTrack(t));
    kept.current = null;
    joinCall(roomId, s, cameraId, queueId(), { problems, noMedia: !possible });
  }

  const hasCamera = Boolean(stream?.getVideoTracks().length);
  // The devices in use (the browser's default until one is chosen).
  const micInUse = micId ?? stream?.getAudioTracks()[0]?.getSettings().deviceId ?? '';
  const cameraInUse = cameraId ?? stream?.getVideoTracks()[0]?.getSettings().deviceId ?? '';
  const conversation = found?.room.conversation;
  return (
    <section class="call-lobby" aria-labelledby="call-lobby-title">
      <h2 id="call-lobby-title">{found ? (found.room.is_video ? 'Video call' : 'Voice call') : 'Call'}</h2>
      {refused && (
        <p class="call-problem" role="alert">
          {refused}
        </p>
      )}
      {found && (
        <p class="call-who">
          {conversation?.type === 'private' ? 'A direct call. ' : ''}
          {found.names.length ? `In the call: ${found.names.join(', ')}.` : 'No one is in the call yet.'}
        </p>
      )}
      {!possible && found && <InsecureNote />}
      {possible && found && (
        <>
          {video && (
            <div class="call-preview">
              <video ref={preview} autoplay playsInline muted class="mirrored" hidden={!hasCamera} aria-label="Your camera" />
              {!hasCamera && <p>{opening ? 'Starting the camera…' : 'No camera picture.'}</p>}
            </div>
          )}
          {problems.map((p) => (
            <p key={p} class="call-problem" role="alert">
              {p}
            </p>
          ))}
          <div class="call-devices">
            <div>
              <label for={`${ids}-mic`}>Microphone</label>
              <select id={`${ids}-mic`} value={micInUse} onChange={(e) => setMicId(e.currentTarget.value || undefined)} disabled={!devices.mics.length}>
                {!devices.mics.length && <option value="">No microphone</option>}
                {devices.mics.map((d, i) => (
                  <option key={d.deviceId} value={d.deviceId}>
                    {d.label || `Microphone ${i + 1}`}
                  </option>
                ))}
              </select>
            </div>
            {video && (
              <div>
                <label for={`${ids}-camera`}>Camera</label>
                <select id={`${ids}-camera`} value={cameraInUse} onChange={(e) => setCameraId(e.currentTarget.value || undefined)} disabled={!devices.cameras.length}>
                  {!devices.cameras.length && <option value="">No camera</option>}
                  {devices.cameras.map((d, i) => (
                    <option key={d.deviceId} value={d.deviceId}>
                      {d.label || `Camera ${i + 1}`}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
        </>
      )}
      <div class="call-actions">
        {found && (
          <>
            <button type="button" class="primary" disabled={possible && opening} onClick={() => join(video && hasCamera)}>
              {possible ? 'Join' : 'Join to watch and listen'}
            </button>
            {possible && video && hasCamera && (
              <button type="button" onClick={() => join(false)}>
                Join without video
              </button>
            )}
          </>
        )}
        <button type="button" onClick={closeCall}>
          {refused ? 'Back to the chat' : 'Cancel'}
        </button>
      </div>
    </section>
  );
}
