/**
 * The words for a page that may use no camera or microphone (plain HTTP from another computer, or
 * a browser without them): what to open instead, the HTTPS address and the trust page. In the lobby
 * before joining, and in the call view of someone who joined without them (a ring accepted there).
 */
import { useEffect, useState } from 'preact/hooks';
import { insecureAdvice } from './media.js';

export function InsecureNote({ joined = false }: { joined?: boolean }) {
  const [advice, setAdvice] = useState<{ text: string; httpsUrl: string | null } | null>(null);
  useEffect(() => void insecureAdvice().then(setAdvice), []);
  if (!advice) return null;
  return (
    <div class="call-problem" role="alert">
      <p>{advice.text}</p>
      {window.isSecureContext ? (
        <p>Open the call in a recent browser (Firefox, Chrome, Edge or Safari), or in Hearth's desktop app.</p>
      ) : advice.httpsUrl ? (
        <p>
          Open the call at the secure address instead: <a href={advice.httpsUrl}>{advice.httpsUrl}</a>. The first time, this browser must trust
          the server's certificate: <a href="/hearth/trust">how to trust this server</a>.
        </p>
      ) : (
        <p>
          Ask the server's administrator to turn on HTTPS (Hearth's secure address), then open the call there; see{' '}
          <a href="/hearth/trust">how to trust this server</a>.
        </p>
      )}
      <p>{joined ? 'You are in the call to watch and listen, without camera or microphone.' : 'You can still join to watch and listen, without camera or microphone.'}</p>
    </div>
  );
}
