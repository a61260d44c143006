/**
 * Zulip's check_update_all_streams_active_status (a daily job there): a channel
 * with no message in the last 180 days is no longer `is_recently_active`. Sending
 * a message makes it active again (server/actions/messages.ts).
 */
import type { App } from '../context.js';
import { emitStreamPropertyUpdate } from './channel-events.js';
import { commit } from './commit.js';

/** Zulip's Stream.LAST_ACTIVITY_DAYS_BEFORE_FOR_ACTIVE. */
export const ACTIVE_DAYS = 180;

/** Marks channels quiet for 180 days as not recently active; answers how many changed. */
export async function doExpireChannelActivity(app: App): Promise<number> {
  const cutoff = Math.floor(app.clock.now() / 1000) - ACTIVE_DAYS * 86_400;
  const quiet = app.store.channels.data.channels.filter((c) => {
    if (!c.is_recently_active || c.date_created > cutoff) return false;
    const last = app.store.messages.channel(c.id).last;
    return last === undefined || (app.store.messages.get(last)?.timestamp ?? 0) < cutoff;
  });
  if (!quiet.length) return 0;
  await commit(app, (tx) => {
    for (const c of quiet) {
      c.is_recently_active = false;
      emitStreamPropertyUpdate(tx, app, c, 'is_recently_active', false);
    }
    tx.touch(app.store.channels);
  });
  return quiet.length;
}

/** Runs the check at start and every six hours until the returned stop function is called. */
export function scheduleChannelActivity(app: App, everyMs = 6 * 3_600_000): () => void {
  const run = () =>
    doExpireChannelActivity(app).then(
      (n) => n && app.log.info('channels no longer recently active', { count: n }),
      (err: unknown) => app.log.warn('channel activity check failed', { error: String(err) }),
    );
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
