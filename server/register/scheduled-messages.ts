import type { StateSection } from '../events/state.js';
import { formatReminder, formatScheduled, remindersOf, scheduledOf } from '../lib/messages/scheduled.js';

/** `scheduled_messages`: the user's messages waiting to be sent (server/lib/messages/scheduled.ts). */
const scheduledMessagesSection: StateSection = {
  wants: ['scheduled_messages'],
  fetch: ({ app, user }) => ({ scheduled_messages: user ? scheduledOf(app, user.id).map(formatScheduled) : [] }),
};

/** `reminders`: the user's message reminders, delivered by the Notification Bot. */
const remindersSection: StateSection = {
  wants: ['reminders'],
  fetch: ({ app, user }) => ({ reminders: user ? remindersOf(app, user.id).map(formatReminder) : [] }),
};

export const sections = [scheduledMessagesSection, remindersSection];
