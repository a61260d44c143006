/**
 * "Remind me" about a message, as Zulip's message menu offers it: pick a time (and a
 * note), then `POST /reminders`; the Notification Bot sends a direct message then.
 * `remindMe(messageId)` opens the dialog from anywhere (the message actions menu);
 * focus returns to where it was when the dialog closes.
 */
import { render } from 'preact';
import { post } from './api.js';
import { ScheduleDialog } from './ScheduleDialog.js';

export function remindMe(messageId: number): void {
  const back = document.activeElement as HTMLElement | null;
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
      onPick={async (at, note) => {
        await post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: at, ...(note ? { note } : {}) });
      }}
      onClose={close}
    />,
    host,
  );
}
