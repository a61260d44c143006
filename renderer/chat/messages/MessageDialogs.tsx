/**
 * The dialogs behind message actions: delete (confirm), move (topic, channel, which messages),
 * report (type and description) and read receipts. Each is a modal <dialog>; on closing, focus
 * returns to the "Message actions" button (or the feed, when the message has gone).
 */
import { useEffect, useState } from 'preact/hooks';
import { Modal } from '../ui/Dialog.js';
import * as act from './message-actions.js';
import { channelName, store, topicLabel, userName, type Message } from '../store/state.js';

const excerpt = (html: string) => (new DOMParser().parseFromString(html, 'text/html').body.textContent ?? '').trim().slice(0, 240);

/** Runs a dialog's call: busy while it runs, the server's message on failure, then closes with focus returned. */
function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (call: () => Promise<unknown>, after?: () => void) => {
    const anchor = act.overlay.value?.anchor;
    setBusy(true);
    setError('');
    try {
      await call();
      act.close(false);
      act.refocus(anchor);
      after?.();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return { busy, error, run };
}

const Actions = ({ busy, label, danger }: { busy: boolean; label: string; danger?: boolean }) => (
  <div class="dialog-actions">
    <button type="button" onClick={() => act.close()}>
      Cancel
    </button>
    <button type="submit" class={danger ? 'danger-button' : 'primary'} disabled={busy}>
      {busy ? 'Working…' : label}
    </button>
  </div>
);

/** The one button of a dialog that only shows something (read receipts, edit history). */
export const CloseActions = () => (
  <div class="dialog-actions">
    <button type="button" class="primary" onClick={() => act.close()}>
      Close
    </button>
  </div>
);

const Problem = ({ error }: { error: string }) =>
  error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;

export function DeleteDialog({ m }: { m: Message }) {
  const { busy, error, run } = useSubmit();
  return (
    <Modal title="Delete message?" onClose={() => act.close()}>
      <form onSubmit={(e) => (e.preventDefault(), void run(() => act.deleteMessage(m.id), () => act.refocus(undefined)))}>
        <p>The message is removed for everyone. This cannot be undone.</p>
        <blockquote class="excerpt">{excerpt(m.content)}</blockquote>
        <Problem error={error} />
        <Actions busy={busy} label="Delete" danger />
      </form>
    </Modal>
  );
}

/** `wholeTopic`: opened from the topic menu, every message of the topic moves (no choice of which). */
export function MoveDialog({ m, wholeTopic }: { m: Message; wholeTopic?: boolean }) {
  const [topic, setTopic] = useState(m.subject);
  const [streamId, setStreamId] = useState(m.stream_id!);
  const [mode, setMode] = useState('change_all');
  const [notifyOld, setNotifyOld] = useState(false);
  const [notifyNew, setNotifyNew] = useState(true);
  const { busy, error, run } = useSubmit();
  const channels = store.subscriptions.value.filter((s) => !s.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Modal title={wholeTopic ? 'Move or rename topic' : 'Move messages'} onClose={() => act.close()}>
      <form
        class="dialog-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => act.moveMessages(m, { topic: topic.trim(), streamId, mode: wholeTopic ? 'change_all' : mode, notifyOld, notifyNew }));
        }}
      >
        <p class="hint">
          {wholeTopic ? 'Every message in' : 'From'} #{channelName(m.stream_id!)} &gt; {topicLabel(m.subject)}
        </p>
        {act.canMoveChannel(m) && (
          <label>
            Channel
            <select value={streamId} onChange={(e) => setStreamId(Number(e.currentTarget.value))}>
              {channels.map((c) => (
                <option key={c.stream_id} value={c.stream_id}>
                  #{c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          Topic
          <input value={topic} autoFocus maxLength={store.maxTopicLength.value} placeholder="general chat" onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
        {!wholeTopic && (
          <label>
            Which messages
            <select value={mode} onChange={(e) => setMode(e.currentTarget.value)}>
              <option value="change_one">Only this message</option>
              <option value="change_later">This message and the later ones in the topic</option>
              <option value="change_all">Every message in the topic</option>
            </select>
          </label>
        )}
        <label class="check">
          <input type="checkbox" checked={notifyOld} onChange={(e) => setNotifyOld(e.currentTarget.checked)} />
          Send a notice to the old topic
        </label>
        <label class="check">
          <input type="checkbox" checked={notifyNew} onChange={(e) => setNotifyNew(e.currentTarget.checked)} />
          Send a notice to the new topic
        </label>
        <Problem error={error} />
        <Actions busy={busy} label="Move" />
      </form>
    </Modal>
  );
}

export function ReportDialog({ m }: { m: Message }) {
  const [type, setType] = useState('spam');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useSubmit();
  const needsWords = type === 'other';
  return (
    <Modal title="Report message" onClose={() => act.close()}>
      <form
        class="dialog-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(
            () => act.report(m.id, type, description.trim()),
            () => act.say(m.id, 'Reported to the moderators. Thank you.'),
          );
        }}
      >
        <p class="hint">The moderators will see this message from {m.sender_full_name || userName(m.sender_id)} and your report.</p>
        <label>
          Reason
          <select value={type} onChange={(e) => setType(e.currentTarget.value)}>
            {act.REPORT_TYPES.map(([key, name]) => (
              <option key={key} value={key}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Details{needsWords ? ' (required)' : ' (optional)'}
          <textarea rows={3} value={description} required={needsWords} maxLength={1000} onInput={(e) => setDescription(e.currentTarget.value)} />
        </label>
        <Problem error={error} />
        <Actions busy={busy} label="Report" />
      </form>
    </Modal>
  );
}

export function ReceiptsDialog({ m }: { m: Message }) {
  const [ids, setIds] = useState<number[] | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    act.readReceipts(m.id).then(setIds, (err: Error) => setError(err.message));
  }, [m.id]);
  const people = (ids ?? []).map((id) => store.users.value.get(id)).filter((u) => !!u);
  return (
    <Modal title="Read receipts" onClose={() => act.close()}>
      <Problem error={error} />
      {!ids && !error && <p role="status">Loading…</p>}
      {ids && (
        <p class="hint" role="status">
          {ids.length === 0 ? 'No one has read this message yet.' : `Read by ${ids.length} ${ids.length === 1 ? 'person' : 'people'}.`} People who do not share
          read receipts are not listed.
        </p>
      )}
      {people.length > 0 && (
        <ul class="receipts" aria-label="Read by">
          {people.map((u) => (
            <li key={u.user_id}>
              <img class="avatar" src={u.avatar_url ?? `/avatar/${u.user_id}`} alt="" width={24} height={24} loading="lazy" />
              {u.full_name}
            </li>
          ))}
        </ul>
      )}
      <CloseActions />
    </Modal>
  );
}
