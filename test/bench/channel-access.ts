/**
 * Channel access diff (server/actions/channel-access-diff.ts): the cost of
 * snapshotChannelAccess + emitChannelAccessDiff inside one commit, as a group
 * membership change or a role change pays it, in an organization of 2,000
 * users and 300 channels (half private, their can_subscribe_group a named
 * group of 200). Baseline, in the same run: the naive per-user check
 * (hasMetadataAccess for every pair) over every user, which the per-channel
 * path replaces above 100 users.
 */
import { performance } from 'node:perf_hooks';
import { commit } from '../../server/actions/commit.js';
import { doAddSubscriptions } from '../../server/actions/subscriptions.js';
import { doCreateUserGroup } from '../../server/actions/user-groups.js';
import { doCreateRealm } from '../../server/actions/users.js';
import { createApp } from '../../server/app.js';
import { emitChannelAccessDiff, snapshotChannelAccess } from '../../server/actions/channel-access-diff.js';
import { defaultChannelSettings } from '../../server/lib/channels/settings.js';
import { hasMetadataAccess, subscriberMap } from '../../server/lib/channels/access.js';
import { silentLogger } from '../../server/log.js';
import { Store } from '../../server/store/store.js';
import { median, tempDir } from './lib.js';

const USERS = 2000;
const CHANNELS = 300;

export async function main(): Promise<void> {
  const dir = tempDir('access');
  const store = await Store.open(dir);
  const { app } = createApp({ store, log: silentLogger });
  const owner = await doCreateRealm(app, 'Bench Org', { email: 'owner@example.com', password: null, fullName: 'Olive Owner' });
  const ids: number[] = [];
  for (let i = 0; i < USERS; i++) {
    const u = store.users.add({
      email: `u${i}@example.com`, full_name: `U ${i}`, role: i % 20 === 0 ? 600 : i % 50 === 1 ? 200 : 400, is_active: true,
      is_bot: false, bot_type: null, bot_owner_id: null, api_key: `k${i}`.padEnd(32, 'x'), password_hash: null,
      date_joined: new Date().toISOString(), timezone: '', avatar_version: 1, is_imported_stub: false,
    });
    ids.push(u.id);
  }
  const nobody = defaultChannelSettings(app, owner.id);
  const group = await doCreateUserGroup(app, {
    name: 'planners', description: '', members: ids.slice(0, 200), subgroups: [], creatorId: owner.id,
    settings: { can_add_members_group: owner.id, can_join_group: 1, can_leave_group: 1, can_manage_group: 1, can_mention_group: 1, can_remove_members_group: 1 },
  });
  for (let c = 0; c < CHANNELS; c++) {
    const priv = c % 2 === 0;
    await doAddSubscriptions(app, owner, {
      create: [{
        name: `c${c}`, description: '', invite_only: priv, is_web_public: false, history_public_to_subscribers: !priv,
        message_retention_days: null, topics_policy: 'inherit', folder_id: null, is_default_stream: false,
        settings: { ...nobody, ...(priv ? { can_subscribe_group: group.id } : {}) },
      }],
      existing: [],
      users: ids.slice(c * 5, c * 5 + 20).map((id) => store.users.get(id)!),
      colors: new Map(),
    });
  }

  const time = async (userIds: number[] | undefined, runs: number) => {
    const xs: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await commit(app, (tx) => emitChannelAccessDiff(app, tx, snapshotChannelAccess(app, userIds)));
      xs.push(performance.now() - t);
    }
    return median(xs);
  };
  const naive = () => {
    const xs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      for (let pass = 0; pass < 2; pass++) {
        const subs = subscriberMap(app);
        for (const ch of store.channels.data.channels) {
          const s = new Set(subs.get(ch.id));
          for (const u of store.users.all()) if (u.is_active) hasMetadataAccess(app, u, ch, s.has(u.id));
        }
      }
      xs.push(performance.now() - t);
    }
    return median(xs);
  };

  const one = await time([ids[500]!], 21);
  const hundred = await time(ids.slice(300, 400), 11);
  const all = await time(undefined, 5);
  const base = naive();
  console.log(`organization: ${USERS + 1} users, ${CHANNELS} channels (${CHANNELS / 2} private)`);
  console.log(`snapshot + diff, 1 user (role change):       median ${one.toFixed(2)} ms`);
  console.log(`snapshot + diff, 100 users (group change):   median ${hundred.toFixed(2)} ms`);
  console.log(`snapshot + diff, every user (per channel):   median ${all.toFixed(2)} ms`);
  console.log(`baseline, every user checked pair by pair:   median ${base.toFixed(2)} ms`);
  console.log(`ratio every-user path / baseline: ${(all / base).toFixed(2)}`);
  await store.close();
}
