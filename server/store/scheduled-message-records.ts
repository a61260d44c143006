/** Messages and reminders waiting to be sent (`scheduled_messages.json`). */

/** A message waiting to be sent (Zulip's ScheduledMessage, SEND_LATER): deleted once sent. */
export interface ScheduledMessageRecord {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** The channel ID, or the direct recipients' user IDs (without the sender, unless only the sender). */
  to: number | number[];
  /** Channel messages only. */
  topic?: string;
  content: string;
  rendered: string;
  /** Unix seconds. */
  scheduled_at: number;
  read_by_sender: boolean;
  /** Delivery was tried and failed (why: failure_message); the sender must reschedule. */
  failed: boolean;
  failure_message?: string;
  /**
   * A reminder (Zulip's REMIND delivery type, feature level 381): the Notification Bot sends the
   * sender a direct message about this message at the time; `to` is the sender.
   */
  remind?: { message_id: number; note?: string };
}

export interface ScheduledMessagesDoc {
  nextId: number;
  scheduled: ScheduledMessageRecord[];
}
