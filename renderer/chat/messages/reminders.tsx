/**
 * "Remind me" about a message, as Zulip's message menu offers it: pick a time (in 20 minutes,
 * in 1 hour, tomorrow morning, or a custom one) and maybe a note, then `POST /reminders`; the
 * Notification Bot sends a direct message then. `remindMe(messageId, back)` opens the dialog
 * from anywhere (the message actions menu); focus returns to `back` (else where it was) when
 * the dialog closes.
 */
import { render } from 'preact';
import { post } from '../store/api.js';
import { ScheduleDialog } from '../compose/ScheduleDialog.js';
import { announce } from '../ui/Toast.js';

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** Zulip's reminder presets: in 20 minutes, in 1 hour, tomorrow at 9 AM. */
export function reminderTimes(now: Date): { label: string; at: number }[] {
  const s = Math.floor(now.getTime() / 1000);
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9);
  return [
    { label: 'In 20 minutes', at: s + 20 * 60 },
    { label: 'In 1 hour', at: s + 3600 },
    { label: `Tomorrow at ${timeFmt.format(tomorrow)}`, at: tomorrow.getTime() / 1000 },
  ];
}

export function remindMe(messageId: number, backTo?: HTMLElement): void {
  const back = backTo ?? (document.activeElement as HTMLElement | null);
  const host = document.createElement('div');
  document.body.append(host);
  const close = () => {
    render(null, host);
    host.remove();
    back?.focus();
  };
  render(
    <ScheduleDialog
      title="Remind me about this message"
      action="Set reminder"
      withNote
      times={reminderTimes(new Date())}
      onPick={async (at, note) => {
        await post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: at, ...(note ? { note } : {}) });
        announce('Reminder set. It is listed under Scheduled messages.');
      }}
      onClose={close}
    />,
    host,
  );
}
