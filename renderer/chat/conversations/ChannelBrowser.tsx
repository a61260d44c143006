/**
 * All channels one may see: subscribe and unsubscribe; mute, pin and colour one's own;
 * create a channel (name, description, public or private) where the organization allows.
 */
import { useState } from 'preact/hooks';
import { ListPane } from '../ui/ListPane.js';
import { ApiError, del, post } from '../store/api.js';
import { sanitize } from '../messages/html.js';
import { go } from '../store/router.js';
import { store, type Subscription } from '../store/state.js';

const setProperty = (s: Subscription, property: string, value: unknown) =>
  post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: s.stream_id, property, value }] });

function CreateChannel({ onError }: { onError: (m: string) => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [busy, setBusy] = useState(false);
  async function create(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      await post('/users/me/subscriptions', { subscriptions: [{ name: name.trim(), description }], invite_only: isPrivate });
      const made = [...store.channels.value.values()].find((c) => c.name.toLowerCase() === name.trim().toLowerCase());
      setName('');
      setDescription('');
      if (made) go({ kind: 'channel', streamId: made.stream_id });
    } catch (err) {
      onError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="card create-channel" onSubmit={create} aria-labelledby="create-title">
      <h2 id="create-title">Create a channel</h2>
      <label>
        Channel name
        <input required maxLength={60} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Description
        <input maxLength={1024} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      </label>
      <label class="check">
        <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate(e.currentTarget.checked)} />
        Private: only people who are added can read it
      </label>
      <button type="submit" class="primary" disabled={busy || !name.trim()}>
        Create channel
      </button>
    </form>
  );
}

export function ChannelBrowser() {
  const [error, setError] = useState('');
  const subscribed = new Map(store.subscriptions.value.map((s) => [s.stream_id, s]));
  const all = [...store.channels.value.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const run = (p: Promise<unknown>) => p.catch((err: unknown) => setError(err instanceof ApiError ? err.message : String(err)));
  return (
    <ListPane name="channels" title="Channels" error={error}>
      {store.canCreateChannels.value && <CreateChannel onError={setError} />}
      <ul class="channel-list">
        {all.map((c) => {
          const sub = subscribed.get(c.stream_id);
          return (
            <li key={c.stream_id} class="card">
              <h2>
                <a href={`#narrow/channel/${c.stream_id}`}>#{c.name}</a> {c.invite_only && <span class="badge">private</span>}
              </h2>
              {c.rendered_description ? (
                <div class="rendered" dangerouslySetInnerHTML={{ __html: sanitize(c.rendered_description) }} />
              ) : (
                c.description && <p>{c.description}</p>
              )}
              <div class="row">
                {sub ? (
                  <>
                    <button type="button" onClick={() => run(del('/users/me/subscriptions', { subscriptions: [c.name] }))}>
                      Unsubscribe from {c.name}
                    </button>
                    <label class="check">
                      <input type="checkbox" checked={sub.is_muted} onChange={(e) => run(setProperty(sub, 'is_muted', e.currentTarget.checked))} />
                      Mute
                    </label>
                    <label class="check">
                      <input type="checkbox" checked={sub.pin_to_top} onChange={(e) => run(setProperty(sub, 'pin_to_top', e.currentTarget.checked))} />
                      Pin to top
                    </label>
                    <label class="check">
                      Colour
                      <input type="color" value={sub.color} onChange={(e) => run(setProperty(sub, 'color', e.currentTarget.value))} />
                    </label>
                  </>
                ) : (
                  <button type="button" class="primary" onClick={() => run(post('/users/me/subscriptions', { subscriptions: [{ name: c.name }] }))}>
                    Subscribe to {c.name}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </ListPane>
  );
}
