import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { doExpireChannelActivity } from '../../server/actions/channel-activity.js';
import { createChannel } from '../helpers/channels.js';
import { sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const DAY = 86_400_000;

/** is_recently_active: false after 180 quiet days (Zulip's daily job), true again on the next message. */
describe('channel is_recently_active expiry', () => {
  let ts: TestServer;
  let member: Client;
  let now = Date.UTC(2026, 0, 1);
  before(async () => {
    ts = await startTestServer({ clock: { now: () => now } });
    member = ts.client(await ts.addUser('Mona'));
  });
  after(() => ts.stop());

  const activeOf = async (id: number) => {
    const res = await member.get(`/streams/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.stream.is_recently_active as boolean;
  };

  it('expires quiet channels with a stream update event, and a new message revives them', async () => {
    const busy = await createChannel(ts, member, 'busy', { principals: [] });
    const quiet = await createChannel(ts, member, 'quiet', { principals: [] });
    const empty = await createChannel(ts, member, 'empty', { principals: [] });
    await sendStream(member, 'quiet', 'old', 'hello');
    now += 100 * DAY;
    await sendStream(member, 'busy', 'recent', 'hello');
    now += 90 * DAY; // quiet: 190 days since its message; busy: 90; empty: 190 days old, never used

    const events = await verifyAction(member, async () => assert.equal(await doExpireChannelActivity(ts.app), 2));
    const updates = events.filter((e) => e.type === 'stream' && e.property === 'is_recently_active');
    assert.deepEqual(updates.map((e) => [e.stream_id, e.value]).sort(), [[quiet, false], [empty, false]].sort());
    assert.equal(await activeOf(quiet), false);
    assert.equal(await activeOf(empty), false);
    assert.equal(await activeOf(busy), true);
    assert.equal(ts.store.channels.data.channels.find((c) => c.id === quiet)!.is_recently_active, false);
    // Running again changes nothing.
    assert.equal(await doExpireChannelActivity(ts.app), 0);

    const revived = await verifyAction(member, () => sendStream(member, 'quiet', 'new', 'back'));
    assert.ok(revived.some((e) => e.type === 'stream' && e.property === 'is_recently_active' && e.value === true && e.stream_id === quiet));
    assert.equal(await activeOf(quiet), true);
  });

  it('leaves young channels alone even without messages', async () => {
    const fresh = await createChannel(ts, member, 'fresh', { principals: [] });
    now += 10 * DAY;
    assert.equal(await doExpireChannelActivity(ts.app), 0);
    assert.equal(await activeOf(fresh), true);
  });
});
