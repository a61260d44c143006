/** Messages sent later: scheduled messages and reminders (`/scheduled_messages`, `/reminders` and their events). */

export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  /** The channel ID, or the recipients' user IDs. */
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
}

/** A reminder about a message: a direct message from the Notification Bot, later. */
export interface Reminder {
  reminder_id: number;
  /** Always a direct message to oneself. */
  type: 'private';
  to: number[];
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
  reminder_target_message_id: number;
}
