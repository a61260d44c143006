/** Settings, Muted users: whom you muted and since when, with Unmute. */
import { del } from '../store/api.js';
import { store, userName } from '../store/state.js';
import { fail, ok } from './save.js';

export function MutedUsers() {
  const muted = [...store.mutedUsers.value].sort((a, b) => userName(a[0]).localeCompare(userName(b[0])));
  return (
    <section class="card" aria-labelledby="muted-title">
      <h2 id="muted-title">Muted users</h2>
      <p class="hint">Their new messages arrive already read and never notify you. Mute someone from their profile card.</p>
      <ul class="rows" aria-label="Muted users">
        {muted.map(([id, ts]) => (
          <li key={id}>
            <span class="grow">{userName(id)}</span>
            <span class="muted">since {new Date(ts * 1000).toLocaleDateString()}</span>
            <button type="button" class="small" onClick={() => void del(`/users/me/muted_users/${id}`).then(() => ok(), fail)}>
              Unmute {userName(id)}
            </button>
          </li>
        ))}
        {muted.length === 0 && <li class="muted">You have not muted anyone.</li>}
      </ul>
    </section>
  );
}
