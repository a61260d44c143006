/**
 * The Welcome Bot answers a direct message sent to it alone (Zulip's send_welcome_bot_response
 * and select_welcome_bot_response): a few words it knows ("apps", "profile", "theme",
 * "channels", "topics", "shortcuts", "formatting", "help"), matched on the whole message, in
 * Hearth's own words; anything else gets the list of those words.
 */
import type { App } from '../context.js';
import { welcomeBotId } from '../lib/people/system-bots.js';
import type { UserRecord } from '../store/records.js';
import { doSendWelcomeDirect } from './onboarding.js';

const HELP = [
  'I can tell you about these, just send me the word:',
  '* **apps**: Zulip\'s phone and desktop apps with Hearth',
  '* **profile**: your picture, name and status',
  '* **theme**: light or dark',
  '* **channels** and **topics**: how conversations are organized',
  '* **shortcuts**: the keyboard shortcuts',
  '* **formatting**: bold, code, quotes and more',
].join('\n');

const ANSWERS: [string[], string][] = [
  [['apps', 'app'], "Zulip's apps for phones and computers work with Hearth: add an organization in the app with this server's address (the one in your browser's address bar), then sign in with your email and password."],
  [['profile'], 'Your picture, name and time zone are under **Settings**; set a status (with an emoji) at the top of the **People** view.'],
  [['theme'], 'Light, dark or following your computer: **Settings**, then **Display**.'],
  [['channels', 'channel', 'streams', 'stream'], 'Channels are where your team talks, one per team or subject. **Browse** (next to CHANNELS in the sidebar) lists them all, to join or leave.'],
  [['topics', 'topic'], 'Every message in a channel has a **topic**, a few words on what it is about. Replies stay in their topic, so several conversations can go on in one channel without getting mixed up.'],
  [['shortcuts', 'keyboard', 'keyboard shortcuts'], 'Press **?** in the chat for the whole list. The ones people use most: **J**/**K** move between messages, **R** replies, **C** starts a new topic, **N** goes to the next unread topic, **/** searches.'],
  [['formatting', 'message formatting'], 'Messages use Markdown: `**bold**`, `*italic*`, `` `code` ``, code blocks between ```` ``` ```` lines, quotes with ```` ```quote ````, and :emoji: names. Try it in #**sandbox**.'],
  [['help', '?'], HELP],
];

/** Whether a direct message went to the Welcome Bot alone (from a person). */
export function isToWelcomeBot(app: App, sender: UserRecord, userIds: number[]): boolean {
  const bot = welcomeBotId(app);
  const others = userIds.filter((id) => id !== sender.id);
  return bot !== undefined && !sender.is_bot && others.length === 1 && others[0] === bot;
}

export async function doWelcomeBotReply(app: App, sender: UserRecord, content: string): Promise<number> {
  const said = content.trim().toLowerCase();
  const answer = ANSWERS.find(([words]) => words.includes(said))?.[1] ?? `You can chat with me as much as you like! ${HELP}`;
  return doSendWelcomeDirect(app, sender, answer);
}
