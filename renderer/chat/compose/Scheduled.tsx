/**
 * The Scheduled messages view (`#scheduled`): messages waiting to be sent, soonest first,
 * each with "Edit time", "Send now" (the delivery time moved to now) and "Delete"; then the
 * person's reminders (`/reminders`, set with "Remind me" on a message), each deletable.
 */
import { useState } from 'preact/hooks';
import { ListPane } from '../ui/ListPane.js';
import { ApiError, del, patch } from '../store/api.js';
import { destinationOf } from './Drafts.js';
import { sanitize } from '../messages/html.js';
import { localInput, whenFmt } from './ScheduleDialog.js';
import { store, type ScheduledMessage } from '../store/state.js';

function ScheduledItem({ m, onError }: { m: ScheduledMessage; onError: (e: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [when, setWhen] = useState(localInput(m.scheduled_delivery_timestamp));
  const [busy, setBusy] = useState(false);
  const dest = destinationOf(m.type, m.to, m.topic) ?? '';
  const label = m.type === 'stream' ? dest : `To ${dest}`;

  async function run(job: () => Promise<unknown>) {
    setBusy(true);
    onError('');
    try {
      await job();
      setEditing(false);
    } catch (err) {
      onError(err instanceof ApiError ? err.message : 'That did not work; try again.');
    } finally {
      setBusy(false);
    }
  }

  const reschedule = (at: number) => run(() => patch(`/scheduled_messages/${m.scheduled_message_id}`, { scheduled_delivery_timestamp: at }));

  return (
    <li>
      <div class="item-head">
        <strong>{label}</strong>
        <span class="muted">Sends {whenFmt.format(m.scheduled_delivery_timestamp * 1000)}</span>
        {m.failed && <span class="error">Not sent: edit the time to try again</span>}
      </div>
      <div class="item-text rendered" dangerouslySetInnerHTML={{ __html: sanitize(m.rendered_content) }} />
      {editing ? (
        <form
          class="item-actions"
          onSubmit={(e) => {
            e.preventDefault();
            const at = new Date(when).getTime() / 1000;
            if (!Number.isNaN(at)) void reschedule(Math.floor(at));
          }}
        >
          <label>
            New time
            <input type="datetime-local" required value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
          </label>
          <button type="submit" class="primary" disabled={busy}>
            Save time
          </button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <div class="item-actions">
          <button type="button" disabled={busy} onClick={() => (setWhen(localInput(m.scheduled_delivery_timestamp)), setEditing(true))}>
            Edit time<span class="visually-hidden"> of the message {label}</span>
          </button>
          <button type="button" disabled={busy} onClick={() => void reschedule(Math.floor(Date.now() / 1000) + 2)}>
            Send now<span class="visually-hidden"> the message {label}</span>
          </button>
          <button type="button" disabled={busy} onClick={() => void run(() => del(`/scheduled_messages/${m.scheduled_message_id}`))}>
            Delete<span class="visually-hidden"> the message {label}</span>
          </button>
        </div>
      )}
    </li>
  );
}

export function Scheduled() {
  const [error, setError] = useState('');
  const scheduled = store.scheduled.value;
  const reminders = store.reminders.value;

  async function deleteReminder(id: number) {
    setError('');
    try {
      await del(`/reminders/${id}`);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  return (
    <ListPane name="scheduled" title="Scheduled messages" error={error}>
      {scheduled.length === 0 && <p class="edge">No scheduled messages. Use "Schedule" next to Send to send a message later.</p>}
      <ul class="rows compose-list" aria-label="Scheduled messages">
        {scheduled.map((m) => (
          <ScheduledItem key={m.scheduled_message_id} m={m} onError={setError} />
        ))}
      </ul>
      <h2 class="list-title">Reminders</h2>
      {reminders.length === 0 && <p class="muted">No reminders. "Remind me" on a message sets one.</p>}
      <ul class="rows compose-list" aria-label="Reminders">
        {reminders.map((r) => (
          <li key={r.reminder_id}>
            <div class="item-head">
              <strong>Reminder</strong>
              <span class="muted">{whenFmt.format(r.scheduled_delivery_timestamp * 1000)}</span>
            </div>
            <div class="item-text rendered" dangerouslySetInnerHTML={{ __html: sanitize(r.rendered_content) }} />
            <div class="item-actions">
              <button type="button" onClick={() => void deleteReminder(r.reminder_id)}>
                Delete<span class="visually-hidden"> reminder for {whenFmt.format(r.scheduled_delivery_timestamp * 1000)}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
    </ListPane>
  );
}
