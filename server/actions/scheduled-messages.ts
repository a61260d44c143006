/**
 * Scheduled messages (Zulip's zerver/actions/scheduled_messages.py): kept in
 * scheduled_messages.json until their time, then sent as their sender by the
 * delivery timer, with every send check run again. A message is sent and
 * leaves the schedule in one write, so a crash never sends it twice. A
 * delivery that fails (the sender was deactivated, lost access, the server
 * was down more than ten minutes past the time...) marks it `failed` with the
 * reason; the sender reschedules it. Events (`scheduled_messages` add,
 * update, remove) go to the sender only.
 */
import type { App } from '../context.js';
import { HearthError } from '../errors.js';
import { renderForStorage } from '../lib/messages/render.js';
import { canReadMessage } from '../lib/messages/access.js';
import { formatReminder, formatScheduled, reminderContent, scheduledAddressee } from '../lib/messages/scheduled.js';
import type { MessageRecord } from '../store/message-records.js';
import type { ScheduledMessageRecord, UserRecord } from '../store/records.js';
import { commit, type Transaction } from './commit.js';
import { doSendMessage } from './messages.js';
import { doSendDirectNotice } from './notification-bot.js';

/** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: later than this, a message is not sent. */
export const LATE_CUTOFF_SECONDS = 10 * 60;

export interface ScheduleInput {
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  scheduledAt: number;
  readBySender: boolean;
}

const store = (app: App) => app.store.scheduled;

function emitUpdate(tx: Transaction, m: ScheduledMessageRecord): void {
  // Zulip announces no reminder updates (a failed reminder simply stays listed).
  if (m.remind) return;
  tx.emit({ type: 'scheduled_messages', op: 'update', scheduled_message: formatScheduled(m) }, [m.sender_id]);
}

function emitRemove(tx: Transaction, m: ScheduledMessageRecord): void {
  if (m.remind) tx.emit({ type: 'reminders', op: 'remove', reminder_id: m.id }, [m.sender_id]);
  else tx.emit({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: m.id }, [m.sender_id]);
}

/** A reminder about a message (Zulip's do_schedule_messages with REMIND): content from reminderContent. */
export async function doScheduleReminder(
  app: App,
  user: UserRecord,
  input: { message: MessageRecord; scheduledAt: number; note?: string },
): Promise<number> {
  const content = reminderContent(app, input.message, input.note);
  const rendered = renderForStorage(app, user.id, content).html;
  return commit(app, (tx) => {
    const doc = store(app).data;
    const m: ScheduledMessageRecord = {
      id: doc.nextId++,
      sender_id: user.id,
      type: 'private',
      to: [user.id],
      content,
      rendered,
      scheduled_at: input.scheduledAt,
      read_by_sender: false,
      failed: false,
      remind: { message_id: input.message.id, ...(input.note ? { note: input.note } : {}) },
    };
    doc.scheduled.push(m);
    tx.touch(store(app));
    tx.emit({ type: 'reminders', op: 'add', reminders: [formatReminder(m)] }, [user.id]);
    return m.id;
  });
}

export async function doScheduleMessage(app: App, sender: UserRecord, input: ScheduleInput): Promise<number> {
  const rendered = renderForStorage(app, sender.id, input.content).html;
  return commit(app, (tx) => {
    const doc = store(app).data;
    const m: ScheduledMessageRecord = {
      id: doc.nextId++,
      sender_id: sender.id,
      type: input.type,
      to: input.to,
      ...(input.type === 'stream' ? { topic: input.topic ?? '' } : {}),
      content: input.content,
      rendered,
      scheduled_at: input.scheduledAt,
      read_by_sender: input.readBySender,
      failed: false,
    };
    doc.scheduled.push(m);
    tx.touch(store(app));
    tx.emit({ type: 'scheduled_messages', op: 'add', scheduled_messages: [formatScheduled(m)] }, [sender.id]);
    return m.id;
  });
}

/** Applies an already checked edit; a failed message becomes pending again (its new time is in the future). */
export async function doEditScheduledMessage(
  app: App,
  m: ScheduledMessageRecord,
  change: Partial<Pick<ScheduledMessageRecord, 'type' | 'to' | 'topic' | 'content' | 'scheduled_at'>>,
): Promise<void> {
  const rendered = change.content !== undefined ? renderForStorage(app, m.sender_id, change.content).html : undefined;
  await commit(app, (tx) => {
    Object.assign(m, change);
    if (m.type === 'private') delete m.topic;
    else m.topic ??= '';
    if (rendered !== undefined) m.rendered = rendered;
    m.failed = false;
    delete m.failure_message;
    tx.touch(store(app));
    emitUpdate(tx, m);
  });
}

export async function doDeleteScheduledMessage(app: App, m: ScheduledMessageRecord): Promise<void> {
  await commit(app, (tx) => {
    const doc = store(app).data;
    doc.scheduled = doc.scheduled.filter((s) => s !== m);
    tx.touch(store(app));
    emitRemove(tx, m);
  });
}

async function markFailed(app: App, m: ScheduledMessageRecord, reason: string): Promise<void> {
  await commit(app, (tx) => {
    m.failed = true;
    m.failure_message = reason;
    tx.touch(store(app));
    emitUpdate(tx, m);
  });
  // Zulip's send_failed_scheduled_message_notification (not to a deactivated sender, not for reminders).
  const sender = app.store.users.get(m.sender_id);
  if (!sender?.is_active || m.remind) return;
  const when = new Date(m.scheduled_at * 1000).toISOString();
  const quoted = reason.split('\n').map((line) => `> ${line}`).join('\n');
  const content = `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n${quoted}\n\n[View scheduled messages](#scheduled)`;
  await doSendDirectNotice(app, sender, content);
}

/**
 * Zulip's send_reminder: the Notification Bot's direct message, about the
 * message as it is now if the user can still read it, else as it was.
 */
async function deliverReminder(app: App, m: ScheduledMessageRecord, user: UserRecord): Promise<void> {
  const target = app.store.messages.get(m.remind!.message_id);
  const content = target && canReadMessage(app, user, target) ? reminderContent(app, target, m.remind!.note) : m.content;
  await doSendDirectNotice(app, user, content, (tx) => {
    const doc = store(app).data;
    doc.scheduled = doc.scheduled.filter((s) => s !== m);
    tx.touch(store(app));
    emitRemove(tx, m);
  });
}

async function deliver(app: App, m: ScheduledMessageRecord): Promise<void> {
  const now = Math.floor(app.clock.now() / 1000);
  const sender = app.store.users.get(m.sender_id);
  try {
    if (!sender?.is_active) throw new HearthError('Account is deactivated');
    if (m.remind) return await deliverReminder(app, m, sender);
    if (now > m.scheduled_at + LATE_CUTOFF_SECONDS) throw new HearthError('Message could not be sent at the scheduled time.');
    const addressee = scheduledAddressee(app, sender, m);
    await doSendMessage(app, sender, {
      addressee,
      content: m.content,
      readBySender: m.read_by_sender,
      queueId: null,
      localId: null,
      inSameCommit: (tx) => {
        const doc = store(app).data;
        doc.scheduled = doc.scheduled.filter((s) => s !== m);
        tx.touch(store(app));
        emitRemove(tx, m);
      },
    });
  } catch (err) {
    if (!(err instanceof HearthError) || err.status >= 500) {
      // The store refused the write (server/lib/runtime/storage-health.ts): leave it scheduled for the next tick.
      if (err instanceof HearthError) return;
      app.log.error('scheduled message delivery failed', { id: m.id, error: String(err) });
    }
    await markFailed(app, m, err instanceof HearthError ? err.message : 'Internal server error');
  }
}

/** Sends every scheduled message that is due, oldest first; one run at a time (`app.scheduledDelivery`). */
export async function deliverDueScheduledMessages(app: App): Promise<number> {
  if (app.scheduledDelivery.running) return 0;
  app.scheduledDelivery.running = true;
  try {
    let sent = 0;
    for (;;) {
      const now = Math.floor(app.clock.now() / 1000);
      const due = store(app)
        .data.scheduled.filter((m) => !m.failed && m.scheduled_at <= now)
        .sort((a, b) => a.scheduled_at - b.scheduled_at || a.id - b.id)[0];
      if (!due) return sent;
      await deliver(app, due);
      if (!store(app).data.scheduled.includes(due)) sent++;
      else if (!due.failed) return sent; // refused by the store: try again later
    }
  } finally {
    app.scheduledDelivery.running = false;
  }
}

/** Checks for due messages every second (and at once); returns the stop function. */
export function scheduleMessageDelivery(app: App, everyMs = 1000): () => void {
  const tick = () => void deliverDueScheduledMessages(app).catch((err) => app.log.error('scheduled delivery', { error: String(err) }));
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
