/**
 * Message reports (Zulip 11, feature level 382): the Notification Bot's notice
 * in the organization's moderation request channel, worded as Zulip's
 * zerver/lib/message_report.py writes it.
 */
import type { App } from '../../context.js';
import type { MessageRecord } from '../../store/message-records.js';
import type { UserRecord } from '../../store/records.js';
import { LIMITS } from '../../version.js';
import { channelById } from '../channels/access.js';
import { silentMention, unusedFence } from './markdown-syntax.js';
import { userOrSystemBot } from '../people/system-bots.js';

/** Zulip's Realm.REPORT_MESSAGE_REASONS. */
export const REPORT_REASONS: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION = 1000;


function listed(names: string[]): string {
  if (names.length === 1) return names[0]!;
  const last = names.at(-1)!;
  const rest = names.slice(0, -1).join(', ');
  return `${rest}${names.length > 2 ? ',' : ''} and ${last}`;
}

export function reportContent(app: App, reporter: UserRecord, m: MessageRecord, reportType: string, description: string): string {
  const reported = userOrSystemBot(app, m.sender_id);
  const reportedMention = reported ? silentMention(reported) : `user ${m.sender_id}`;
  const when = `<time:${new Date(m.timestamp * 1000).toISOString()}>`;
  const channel = m.stream_id !== null ? channelById(app, m.stream_id) : undefined;
  let header: string;
  if (channel) {
    header = `${silentMention(reporter)} reported a message sent by ${reportedMention} at ${when}.`;
  } else {
    const others = (m.dm ?? []).filter((id) => id !== m.sender_id);
    if (others.length <= 1) {
      const to = others[0] ?? m.sender_id;
      const recipient = to === reporter.id || m.sender_id !== reporter.id ? null : userOrSystemBot(app, to);
      header = recipient
        ? `${silentMention(reporter)} reported a direct message sent by ${reportedMention} to ${silentMention(recipient)} at ${when}.`
        : `${silentMention(reporter)} reported a direct message sent by ${reportedMention} at ${when}.`;
    } else {
      const names = others
        .map((id) => userOrSystemBot(app, id))
        .filter((u) => u !== undefined)
        .map((u) => silentMention(u!))
        .sort();
      header = `${silentMention(reporter)} reported a direct message sent by ${reportedMention} to ${listed(names)} at ${when}.`;
    }
  }
  const original = channel ? `Original message at #**${channel.name}>${m.topic}@${m.id}**` : `[Original message](/#narrow/id/${m.id})`;
  const room = LIMITS.max_message_length - MAX_REPORT_DESCRIPTION - 500;
  const chars = [...m.content];
  const snippet = chars.length > room ? `${chars.slice(0, room - 20).join('')}\n[message truncated]` : m.content;
  const fence = unusedFence(snippet);
  return `${header}\n\`\`\`quote\n**${REPORT_REASONS[reportType]}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${snippet}\n${fence}\n`;
}
