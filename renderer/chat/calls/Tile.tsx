/** One person's tile in a call: their video (or their initials with the camera off), name, muted mark and speaking ring. */
import { useEffect, useRef } from 'preact/hooks';
import { useSpeaking } from './speaking.js';

interface Props {
  name: string;
  stream: MediaStream | null;
  audio: boolean;
  video: boolean;
  screen: boolean;
  /** This page's own tile: its video mirrored (not for a shared screen) and never played aloud. */
  self?: boolean;
  /** "Connecting…", "Connection lost". */
  status?: string;
  clientId?: string;
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

export function Tile({ name, stream, audio, video, screen, self, status, clientId }: Props) {
  const ref = useRef<HTMLVideoElement>(null);
  const speaking = useSpeaking(stream, !audio);
  const showVideo = Boolean(stream) && (video || screen);
  useEffect(() => {
    const v = ref.current;
    if (!v || v.srcObject === stream) return;
    v.srcObject = stream;
    void v.play().catch(() => undefined);
  }, [stream]);
  const label = `${name}${self ? ' (you)' : ''}`;
  return (
    <li
      class={`call-tile${speaking ? ' speaking' : ''}${showVideo ? '' : ' no-video'}`}
      aria-label={`${label}${audio ? '' : ', muted'}${video || screen ? '' : ', camera off'}${screen ? ', sharing the screen' : ''}${speaking ? ', speaking' : ''}`}
      data-client-id={clientId}
    >
      {/* Remote sound plays through this element, so it stays mounted with the camera off. */}
      <video ref={ref} autoplay playsInline muted={self} class={self && !screen ? 'mirrored' : undefined} hidden={!showVideo} />
      {!showVideo && (
        <span class="call-initials" aria-hidden="true">
          {initials(name)}
        </span>
      )}
      <span class="call-name">
        {label}
        {!audio && <span class="call-muted"> · Muted</span>}
        {screen && <span> · Sharing the screen</span>}
      </span>
      {status && <span class="call-status">{status}</span>}
    </li>
  );
}
