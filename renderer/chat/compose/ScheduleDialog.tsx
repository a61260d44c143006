/**
 * Choosing when: Zulip's "Schedule message" choices (today at 9 AM or 4 PM while they are
 * ahead, tomorrow at 9 AM and 4 PM, Monday on Fridays and Saturdays) and a custom date and
 * time. A modal `<dialog>`: focus moves in, Escape closes, focus returns. Used by "Send
 * later" in the compose box and by "Remind me" (reminders.tsx, with a note).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../store/api.js';

/** Zulip's web app refuses times sooner than this. */
const MIN_DELAY_S = 5 * 60;

const dayTimeFmt = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
export const whenFmt = new Intl.DateTimeFormat(undefined, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The suggested times for a moment, as Zulip's get_filtered_send_opts picks them. */
export function suggestedTimes(now: Date): { label: string; at: number }[] {
  const at = (days: number, hour: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, hour).getTime() / 1000;
  const opt = (name: string, days: number, hour: number) => {
    const t = at(days, hour);
    return { label: `${name} at ${dayTimeFmt.format(new Date(t * 1000))}`, at: t };
  };
  const out: { label: string; at: number }[] = [];
  const h = now.getHours();
  if (h <= 8) out.push(opt('Today', 0, 9));
  if (h <= 15) out.push(opt('Today', 0, 16));
  out.push(opt('Tomorrow', 1, 9), opt('Tomorrow', 1, 16));
  const day = now.getDay();
  if (day >= 5) out.push(opt('Monday', 8 - day, 9), opt('Monday', 8 - day, 16));
  return out;
}

/** `YYYY-MM-DDTHH:MM` in local time, for datetime-local inputs. */
export function localInput(seconds: number): string {
  const d = new Date(seconds * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

interface Props {
  title: string;
  /** The button for the custom time ("Schedule", "Set reminder"). */
  action: string;
  /** Offers a note (reminders). */
  withNote?: boolean;
  /** The suggested times (default: Zulip's "Schedule message" ones, suggestedTimes). */
  times?: { label: string; at: number }[];
  onPick: (at: number, note: string) => Promise<void>;
  onClose: () => void;
}

export function ScheduleDialog({ title, action, withNote, times, onPick, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const nowS = Math.floor(Date.now() / 1000);
  const [custom, setCustom] = useState(localInput(nowS + 3600));
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  async function pick(at: number) {
    if (at < Math.floor(Date.now() / 1000) + MIN_DELAY_S) {
      setError('Choose a time at least 5 minutes from now.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      await onPick(at, note.trim());
      ref.current?.close();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'That did not work; try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} class="schedule-dialog" aria-labelledby="schedule-title" onClose={onClose}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          const at = new Date(custom).getTime() / 1000;
          if (Number.isNaN(at)) setError('Choose a date and time.');
          else void pick(Math.floor(at));
        }}
      >
        <h2 id="schedule-title">{title}</h2>
        {withNote && (
          <label>
            Note (optional)
            <textarea rows={2} maxLength={1000} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          </label>
        )}
        <ul class="times" aria-label="Suggested times">
          {(times ?? suggestedTimes(new Date())).map((t) => (
            <li key={t.at}>
              <button type="button" disabled={busy} onClick={() => void pick(t.at)}>
                {t.label}
              </button>
            </li>
          ))}
        </ul>
        <label>
          Custom time
          <input type="datetime-local" required value={custom} min={localInput(nowS)} onInput={(e) => setCustom(e.currentTarget.value)} />
        </label>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={() => ref.current?.close()}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            {action}
          </button>
        </div>
      </form>
    </dialog>
  );
}
