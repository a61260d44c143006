/**
 * The banner while the server is away: out of reach ("Reconnecting…") or taking connections
 * without answering ("Hearth is not answering"), with the next try's countdown and "Try now".
 */
import { useEffect, useState } from 'preact/hooks';
import { retryNow } from './store/events.js';
import { store } from './store/state.js';

export function ConnectionBanner() {
  const state = store.connection.value;
  const retryAt = store.retryAt.value;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (state === 'connected') return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [state]);
  if (state === 'connected') return null;
  const seconds = retryAt === null ? 0 : Math.max(0, Math.ceil((retryAt - now) / 1000));
  return (
    <div class="banner" role="status">
      <span>
        {state === 'not-answering' ? 'Hearth is not answering.' : 'Reconnecting…'} Your messages will appear when the server answers
        again. {retryAt === null ? 'Trying now…' : `Trying again in ${seconds} s.`}
      </span>
      {/* Never disabled: it stays in the Tab order while a try is under way (then a click waits for it). */}
      <button type="button" class="small" onClick={retryNow}>
        Try now
      </button>
    </div>
  );
}
