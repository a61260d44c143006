/** Alert words (Zulip's do_add_alert_words / do_remove_alert_words): stored on the user, `alert_words` event to them. */
import type { App } from '../context.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';

export async function doSetAlertWords(app: App, user: UserRecord, words: string[]): Promise<void> {
  await commit(app, (tx) => {
    if (words.length) user.alert_words = words;
    else delete user.alert_words;
    tx.touch(app.store.users.collection);
    tx.emit({ type: 'alert_words', alert_words: words }, [user.id]);
  });
}
