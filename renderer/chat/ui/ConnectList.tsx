/**
 * How people connect: each LAN address as a link and a QR code for phones (setup, the Status
 * section, the join page). The codes are drawn offline by uqr, bundled (no CDN).
 */
import { encode } from 'uqr';
import { useEffect, useRef } from 'preact/hooks';
import { openOutside } from './external.js';

/** A canvas with the QR code of `text` (module size 5 px, quiet zone of 4 modules). */
export function Qr({ text }: { text: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current!;
    const qr = encode(text, { ecc: 'M', border: 4 });
    const scale = 5;
    canvas.width = canvas.height = qr.size * scale;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#000';
    qr.data.forEach((row, y) => row.forEach((dark, x) => dark && ctx.fillRect(x * scale, y * scale, scale, scale)));
  }, [text]);
  return <canvas ref={ref} role="img" aria-label={`QR code for ${text}`} class="qr" />;
}

export function ConnectList({ urls }: { urls: readonly string[] }) {
  return (
    <div class="connect">
      <p>People on this network open one of these addresses in a browser, or enter it as the server URL in the Zulip app (desktop or phone: scan the code).</p>
      <ul class="connect-list">
        {urls.map((url) => (
          <li key={url}>
            <a href={url} target="_blank" rel="noopener noreferrer" onClick={openOutside}>
              {url}
            </a>
            <Qr text={url} />
          </li>
        ))}
      </ul>
    </div>
  );
}
