/**
 * The Drafts view (`#drafts`): every saved draft, newest first, with where it was going;
 * "Restore" opens its conversation with the text in the message box, "Delete" removes it.
 */
import { useState } from 'preact/hooks';
import { ListPane } from '../ui/ListPane.js';
import { deleteDraft, restoreRequest, viewOfDraft } from './draft-sync.js';
import { go } from '../store/router.js';
import { whenFmt } from './ScheduleDialog.js';
import { channelName, store, topicLabel, userName, type Draft } from '../store/state.js';

/** "#general > lunch", "Mel, Ann" or "yourself"; null when there is no address. */
export function destinationOf(type: string, to: number | number[], topic?: string): string | null {
  const ids = Array.isArray(to) ? to : [to];
  if (type === 'stream') return `#${channelName(ids[0]!)} > ${topicLabel(topic)}`;
  if (type === 'private' || type === 'direct') {
    const others = ids.filter((id) => id !== store.selfId.value);
    return others.length ? others.map(userName).join(', ') : 'yourself';
  }
  return null;
}

export function Drafts() {
  const [error, setError] = useState('');
  const drafts = [...store.drafts.value.values()].sort((a, b) => b.timestamp - a.timestamp);

  function restore(d: Draft) {
    restoreRequest.value = d;
    go(viewOfDraft(d));
  }

  async function remove(d: Draft) {
    setError('');
    try {
      await deleteDraft(d.id);
      const next = new Map(store.drafts.value);
      next.delete(d.id);
      store.drafts.value = next;
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <ListPane name="drafts" title="Drafts" error={error}>
      {drafts.length === 0 && <p class="edge">No drafts. What you type in a message box is kept here until it is sent.</p>}
      <ul class="rows compose-list" aria-label="Drafts">
        {drafts.map((d) => {
          const dest = destinationOf(d.type, d.to, d.topic);
          const label = dest ? `to ${dest}` : 'without a recipient';
          return (
            <li key={d.id}>
              <div class="item-head">
                <strong>{dest ? (d.type === 'stream' ? dest : `To ${dest}`) : 'No recipient yet'}</strong>
                <time class="muted">{whenFmt.format(d.timestamp * 1000)}</time>
              </div>
              <p class="item-text">{d.content}</p>
              <div class="item-actions">
                <button type="button" onClick={() => restore(d)}>
                  Restore<span class="visually-hidden"> draft {label}</span>
                </button>
                <button type="button" onClick={() => void remove(d)}>
                  Delete<span class="visually-hidden"> draft {label}</span>
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </ListPane>
  );
}
