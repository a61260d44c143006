/**
 * A new organization and each new person start as in Zulip (zerver/actions/create_realm.py,
 * zerver/lib/onboarding.py): the organization gets the default channels #general (where new
 * channels are announced) and #sandbox, with a first conversation in each from the Welcome
 * Bot; every new person (not bots) gets a direct message from the Welcome Bot, and a second
 * one with the organization's own welcome note (`welcome_message_custom_text`) when it has
 * one. Hearth's wording is its own. Callers: the setup page, `hearth init`, POST /users and
 * invite links (the test helpers create accounts without it, as Zulip's test fixtures do).
 */
import type { App } from '../context.js';
import { defaultChannelSettings } from '../lib/channels/settings.js';
import { channelByName } from '../lib/channels/access.js';
import { REALM_SETTINGS } from '../lib/realm/settings.js';
import type { UserRecord } from '../store/records.js';
import { doSendSystemChannelMessage, doSendSystemDirect } from './notification-bot.js';
import { doUpdateRealmSettings } from './realm.js';
import { doAddSubscriptions, type NewChannel } from './subscriptions.js';

export const ONBOARDING_CHANNELS = [
  { name: 'general', description: 'For team-wide conversations' },
  { name: 'sandbox', description: 'Experiment with Hearth here. :test_tube:' },
] as const;

const FIRST_CONVERSATIONS: { channel: string; topic: string; content: (general: string) => string }[] = [
  {
    channel: 'sandbox',
    topic: 'experiments',
    content: () =>
      [
        'This channel is for trying things out. Some Markdown to start with:',
        '',
        '* **bold**, *italic*, ~~strikethrough~~ and `code`',
        '* a link: <https://zulip.com/help/format-your-message-using-markdown>',
        '* a quote, a code block and a spoiler:',
        '',
        '```quote\nSmall teams, big conversations.\n```',
        '',
        '```js\nconsole.log("hello from #sandbox");\n```',
        '',
        '```spoiler Open me\nSurprise! :tada:\n```',
      ].join('\n'),
  },
  {
    channel: 'sandbox',
    topic: 'start a conversation',
    content: () =>
      'Every conversation here has a **topic**, like this one. To start a new one, pick a channel and type a topic of a few words, then your message. Keep replies in their topic and everyone can follow along.',
  },
  {
    channel: 'general',
    topic: 'greetings',
    content: (general) => `This is ${general}, for conversations with the whole team. Say hi :wave:, and tell everyone what you are working on.`,
  },
];

function channelSpec(app: App, owner: UserRecord, c: (typeof ONBOARDING_CHANNELS)[number]): NewChannel {
  return {
    name: c.name,
    description: c.description,
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    message_retention_days: null,
    topics_policy: 'inherit',
    folder_id: null,
    is_default_stream: true,
    settings: defaultChannelSettings(app, owner.id),
  };
}

/** A direct message from the Welcome Bot to one person, unread. */
export const doSendWelcomeDirect = (app: App, to: UserRecord, content: string): Promise<number> => doSendSystemDirect(app, 'welcome', to, content);

/** The organization's note, quoted as Zulip's get_custom_welcome_message_string does (a fence the text does not use). */
export function customWelcomeMessage(text: string): string {
  let fence = '```';
  while (text.includes(fence)) fence += '`';
  return `A note from @_*role:administrators*:\n${fence}quote\n${text}\n${fence}`;
}

function introMessage(app: App, user: UserRecord): string {
  const realm = app.store.realm.data.realm!;
  const general = channelByName(app, 'general');
  const where = general && !general.is_archived ? `, or say hi in #**${general.name}**` : '';
  return [
    `Hello ${user.full_name}, and welcome to **${realm.name}**! :wave:`,
    '',
    `This is Hearth, your team's chat. Your **Inbox** shows the conversations waiting for you${where}.`,
    '',
    'A few things to try:',
    '* Press **?** for the keyboard shortcuts: **R** replies, **C** starts a new topic, **/** searches.',
    '* Set your picture, your status and how you are notified under **Settings**.',
    "* Zulip's apps for phones and computers work with Hearth too: sign in with this server's address.",
  ].join('\n');
}

/** Zulip's send_initial_direct_messages_to_user: the Welcome Bot's greeting, then the organization's note if it has one. */
export async function doWelcomeNewUser(app: App, user: UserRecord): Promise<void> {
  if (user.is_bot) return;
  await doSendWelcomeDirect(app, user, introMessage(app, user));
  const note = app.store.realm.data.realm?.settings.welcome_message_custom_text ?? '';
  if (note.trim()) await doSendWelcomeDirect(app, user, customWelcomeMessage(note));
}

/**
 * Right after the organization is created: the default channels with the owner subscribed,
 * #general as the channel new channels are announced in, the Welcome Bot's first
 * conversations, and its greeting to the owner.
 */
export async function doOnboardRealm(app: App, owner: UserRecord): Promise<void> {
  const missing = ONBOARDING_CHANNELS.filter((c) => !channelByName(app, c.name));
  if (missing.length) {
    await doAddSubscriptions(app, owner, { create: missing.map((c) => channelSpec(app, owner, c)), existing: [], users: [owner], colors: new Map() });
  }
  const general = channelByName(app, 'general')!;
  const announce = REALM_SETTINGS.find((s) => s.name === 'new_stream_announcements_stream_id')!;
  await doUpdateRealmSettings(app, [{ setting: announce, value: general.id }]);
  for (const c of FIRST_CONVERSATIONS) {
    const channel = channelByName(app, c.channel);
    if (channel) await doSendSystemChannelMessage(app, 'welcome', channel, c.topic, c.content(`#**${general.name}**`), owner);
  }
  await doWelcomeNewUser(app, owner);
}
