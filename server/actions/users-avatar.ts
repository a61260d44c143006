import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../context.js';
import { avatarSource, avatarUrl, avatarUrlMedium } from '../lib/people/people.js';
import type { UserRecord } from '../store/records.js';
import { commit } from './commit.js';
import { botAudience } from './users-activation.js';
import { emitUserUpdate } from './users.js';

export const avatarDir = (app: App) => join(app.config.dataDir, 'avatars');

/**
 * Switches a user's avatar (an uploaded file already in place under
 * `avatars/`, or null for the generated default), bumps `avatar_version` and
 * announces it (`realm_user` update with the avatar fields, as Zulip; bots'
 * owners and administrators also get `realm_bot` update).
 */
export async function doSetAvatar(
  app: App,
  user: UserRecord,
  avatar: { file: string; content_type: string } | null,
): Promise<void> {
  const old = user.avatar?.file;
  await commit(app, (tx) => {
    if (avatar) user.avatar = avatar;
    else delete user.avatar;
    user.avatar_version += 1;
    tx.touch(app.store.users.collection);
    emitUserUpdate(app, tx, user, {
      avatar_source: avatarSource(user),
      avatar_url: avatarUrl(user),
      avatar_url_medium: avatarUrlMedium(user),
      avatar_version: user.avatar_version,
    });
    if (user.is_bot) {
      tx.emit({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, avatar_url: avatarUrl(user) } }, botAudience(app, user));
    }
  });
  if (old && old !== avatar?.file) await unlink(join(avatarDir(app), old)).catch(() => undefined);
}
