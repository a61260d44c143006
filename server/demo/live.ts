/**
 * `hearth demo --live`: the Office Bot posts a line in #random > office life now and then,
 * so a visitor sees messages arrive while they look around. Goes through the send action
 * as the bot; a refused send (the channel archived, the bot deactivated) stops it quietly.
 */
import { doSendMessage } from '../actions/messages.js';
import type { App } from '../context.js';
import { channelByName } from '../lib/channels/access.js';
import { LIVE_LINES } from './roster.js';

/** Starts posting every `everyMs`; returns the way to stop. */
export function startLiveBot(app: App, everyMs: number, note: (line: string) => void): () => void {
  const state = { next: 0, timer: null as NodeJS.Timeout | null, stopped: false };
  const post = async () => {
    const bot = app.store.users.all().find((u) => u.is_bot && u.is_active && u.email.startsWith('office-bot@'));
    const channel = channelByName(app, 'random');
    if (!bot || !channel || channel.is_archived) {
      note('live demo: the Office Bot or #random is gone; no more live messages');
      return stop();
    }
    const content = LIVE_LINES[state.next++ % LIVE_LINES.length]!;
    await doSendMessage(app, bot, {
      addressee: { kind: 'stream', channel, topic: 'office life' },
      content,
      readBySender: true,
      queueId: null,
      localId: null,
      client: 'Hearth demo',
    }).catch((err: Error) => note(`live demo: ${err.message}`));
  };
  const stop = () => {
    state.stopped = true;
    if (state.timer) clearInterval(state.timer);
  };
  state.timer = setInterval(() => void post(), everyMs);
  state.timer.unref();
  return stop;
}
