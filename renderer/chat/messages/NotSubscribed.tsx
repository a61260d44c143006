/**
 * A channel one is not subscribed to, opened from "Browse channels" or a link: says so, with a
 * Subscribe button (as Zulip's web app). One may still write there; replies will not notify.
 */
import { useState } from 'preact/hooks';
import { ApiError, post } from '../store/api.js';
import { channelName, store } from '../store/state.js';

export function NotSubscribed({ streamId }: { streamId: number }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  if (!store.ready.value || store.subscriptions.value.some((s) => s.stream_id === streamId)) return null;
  // A channel this person cannot see (private, deleted, a mistyped link): no Subscribe, which would
  // create a new channel of that name.
  if (!store.channels.value.has(streamId)) {
    return (
      <p class="not-subscribed" role="note">
        This channel does not exist, or you cannot see it.
      </p>
    );
  }
  const name = channelName(streamId);
  async function subscribe() {
    setBusy(true);
    setError('');
    try {
      await post('/users/me/subscriptions', { subscriptions: [{ name }] });
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not subscribe.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <p class="not-subscribed" role="note">
      You are not subscribed to #{name}; you will not be notified of new messages here.{' '}
      <button type="button" class="primary" disabled={busy} onClick={() => void subscribe()}>
        Subscribe
      </button>
      {error && <span role="alert"> {error}</span>}
    </p>
  );
}
