/**
 * "View edit history" (Zulip's message edit history): every version of a message, oldest
 * first, with who changed it and when; a content change shows the new text as the server
 * rendered it (through DOMPurify), a move names the old and new topic or channel.
 */
import { useEffect, useState } from 'preact/hooks';
import { Modal } from '../ui/Dialog.js';
import { sanitize } from './html.js';
import { toggleSpoiler } from './spoiler.js';
import * as act from './message-actions.js';
import { CloseActions } from './MessageDialogs.js';
import { channelName, topicLabel, userName, type Message } from '../store/state.js';
import { fullTimeOf } from '../ui/time.js';

function kindOf(e: act.HistoryEntry, first: boolean): string {
  if (first) return 'Original message';
  const edited = e.prev_rendered_content !== undefined;
  const moved = e.prev_topic !== undefined || e.prev_stream !== undefined;
  return edited && moved ? 'Edited and moved' : moved ? 'Moved' : 'Edited';
}

function Version({ e, first }: { e: act.HistoryEntry; first: boolean }) {
  const who = e.user_id === null ? 'someone' : userName(e.user_id);
  const showBody = first || e.prev_rendered_content !== undefined;
  return (
    <li class="version">
      <p class="version-head">
        <strong>{kindOf(e, first)}</strong> {first ? 'from' : 'by'} {who}{' '}
        <time dateTime={new Date(e.timestamp * 1000).toISOString()}>{fullTimeOf(e.timestamp)}</time>
      </p>
      {e.prev_stream !== undefined && e.stream !== undefined && (
        <p class="hint">
          Channel: #{channelName(e.prev_stream)} → #{channelName(e.stream)}
        </p>
      )}
      {e.prev_topic !== undefined && (
        <p class="hint">
          Topic: {topicLabel(e.prev_topic)} → {topicLabel(e.topic)}
        </p>
      )}
      {showBody && e.rendered_content !== undefined && (
        // Styled as the message is (code, math, quotes); a spoiler opens by its header here too.
        <div
          class="content rendered"
          onClick={(ev) => toggleSpoiler(ev.target)}
          onKeyDown={(ev) => (ev.key === 'Enter' || ev.key === ' ') && toggleSpoiler(ev.target) && ev.preventDefault()}
          dangerouslySetInnerHTML={{ __html: sanitize(e.rendered_content) }}
        />
      )}
    </li>
  );
}

export function EditHistoryDialog({ m }: { m: Message }) {
  const [entries, setEntries] = useState<act.HistoryEntry[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    act.editHistory(m.id).then(setEntries, (err: Error) => setError(err.message));
  }, [m.id, m.last_edit_timestamp]);
  return (
    <Modal title="Edit history" wide onClose={() => act.close()}>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {!entries && !error && <p role="status">Loading…</p>}
      {entries && (
        <ol class="edit-history" aria-label="Versions, oldest first">
          {entries.map((e, i) => (
            <Version key={`${e.timestamp}-${i}`} e={e} first={i === 0} />
          ))}
        </ol>
      )}
      <CloseActions />
    </Modal>
  );
}
