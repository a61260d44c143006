/** "Schedule" (send later) and its Undo: the calls behind the compose box's schedule dialog. */
import { del, post } from '../store/api.js';
import type { Notice } from './ComposeNotice.js';
import { href } from '../store/router.js';
import { whenFmt } from './ScheduleDialog.js';
import type { TypingTarget } from './typing.js';
import { sendParams } from './echo.js';

/** Schedules `content` to `t` at `at` (seconds); the notice says when, with Undo and a link to the list. */
export async function scheduleMessage(t: TypingTarget, content: string, at: number): Promise<Notice> {
  const res = await post<{ scheduled_message_id: number }>('/scheduled_messages', { ...sendParams(t, content), scheduled_delivery_timestamp: at });
  const link = { href: href({ kind: 'scheduled' }), label: 'View scheduled messages' };
  return { text: `Scheduled for ${whenFmt.format(at * 1000)}.`, link, scheduledId: res.scheduled_message_id, content };
}

/** Undo: the scheduled message is deleted (its text goes back into the box). */
export const unscheduleMessage = (id: number) => del(`/scheduled_messages/${id}`);
