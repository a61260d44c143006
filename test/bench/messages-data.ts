/**
 * Builds a message data set for the message benchmarks (never committed): an
 * organization with users and channels made through the real actions, then
 * `n` messages written straight into the messages segment files, laid out as
 * MessageStore writes them (channel messages with one row per subscriber,
 * about 10% direct messages, ~1% unread).
 */
import { execFileSync } from 'node:child_process';
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../../server/app.js';
import { doCreateRealm, doCreateUser } from '../../server/actions/users.js';
import { doAddSubscriptions } from '../../server/actions/subscriptions.js';
import { commit } from '../../server/actions/commit.js';
import { randomBytes } from 'node:crypto';
import { silentLogger } from '../../server/log.js';
import { defaultChannelSettings } from '../../server/lib/channels/settings.js';
import { FLAG, packRow, type MessageRecord } from '../../server/store/message-records.js';
import { Store } from '../../server/store/store.js';

export interface DataSetOptions {
  messages: number;
  users: number;
  channels: number;
  subscribersPerChannel: number;
  topicsPerChannel: number;
  /** The owner's password (web benchmarks sign in through the browser); none by default. */
  ownerPassword?: string;
}

export interface BenchAccount {
  id: number;
  email: string;
  apiKey: string;
}

export interface DataSetInfo {
  users: BenchAccount[];
  channels: { id: number; name: string; subscribers: number[] }[];
  topicsPerChannel: number;
  messages: number;
  generateMs: number;
  bytes: number;
}

export const DEFAULT_DATA_SET: Omit<DataSetOptions, 'messages'> = {
  users: 100,
  channels: 40,
  subscribersPerChannel: 10,
  topicsPerChannel: 50,
};

const WORDS = (
  'the quick brown fox jumps over a lazy dog while we discuss release plans for next week and ' +
  'review the build logs before merging those patches into main after lunch maybe tomorrow'
).split(' ');

function sentence(seed: number): string {
  const n = 10 + (seed % 15);
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(WORDS[(x >> 16) % WORDS.length]!);
  }
  return out.join(' ');
}

export const topicName = (channel: number, t: number) => `topic ${channel}-${t}`;

/** Creates the organization (users, channels, subscriptions) through the actions; returns what benchmarks need. */
async function setUpOrganization(dir: string, o: DataSetOptions): Promise<Omit<DataSetInfo, 'generateMs' | 'bytes' | 'messages'>> {
  const store = await Store.open(dir);
  const { app } = createApp({ store, log: silentLogger });
  const owner = await doCreateRealm(app, 'Bench Org', { email: 'owner@example.com', password: o.ownerPassword ?? null, fullName: 'Olive Owner' });
  const users: BenchAccount[] = [{ id: owner.id, email: owner.email, apiKey: owner.api_key }];
  // Through the action for a small organization; a large one (P5's 10,000 people) is written in one
  // commit from the first member's record, since each action announces the newcomer to everyone.
  const viaAction = Math.min(o.users, 300);
  for (let i = 1; i < viaAction; i++) {
    const u = await doCreateUser(app, { email: `user${i}@example.com`, fullName: `User ${i}`, password: null, role: 400 });
    users.push({ id: u.id, email: u.email, apiKey: u.api_key });
  }
  if (o.users > viaAction) {
    const template = app.store.users.get(users[users.length - 1]!.id)!;
    await commit(app, (tx) => {
      for (let i = viaAction; i < o.users; i++) {
        const { id: _id, ...fields } = template;
        const u = app.store.users.add({ ...fields, email: `user${i}@example.com`, full_name: `User ${i}`, api_key: randomBytes(16).toString('hex') });
        users.push({ id: u.id, email: u.email, apiKey: u.api_key });
      }
      tx.touch(app.store.users.collection);
    });
  }
  const channels: DataSetInfo['channels'] = [];
  for (let c = 0; c < o.channels; c++) {
    const subscribers = Array.from({ length: o.subscribersPerChannel }, (_, k) => users[(c * 3 + k) % users.length]!.id);
    const uniq = [...new Set(subscribers)].sort((a, b) => a - b);
    const name = `channel ${c}`;
    await doAddSubscriptions(app, owner, {
      create: [
        {
          name,
          description: '',
          invite_only: false,
          is_web_public: false,
          history_public_to_subscribers: true,
          message_retention_days: null,
          topics_policy: 'inherit',
          folder_id: null,
          is_default_stream: false,
          settings: defaultChannelSettings(app, owner.id),
        },
      ],
      existing: [],
      users: uniq.map((id) => app.store.users.get(id)!),
      colors: new Map(),
    });
    const rec = app.store.channels.data.channels.find((x) => x.name === name)!;
    channels.push({ id: rec.id, name, subscribers: uniq });
  }
  await store.close();
  return { users, channels, topicsPerChannel: o.topicsPerChannel };
}

/** Content and HTML: plain text mostly, one in five with Markdown (stored with its HTML). */
function body(id: number): { content: string; rendered?: string } {
  const text = sentence(id);
  if (id % 5 !== 0) return { content: text };
  const [first, ...rest] = text.split(' ');
  return { content: `**${first}** ${rest.join(' ')}`, rendered: `<p><strong>${first}</strong> ${rest.join(' ')}</p>` };
}

function message(id: number, info: Omit<DataSetInfo, 'generateMs' | 'bytes' | 'messages'>, now: number, n: number): MessageRecord {
  const ts = now - (n - id) * 2;
  const unread = id % 100 === 0;
  if (id % 10 === 0) {
    const a = info.users[id % info.users.length]!.id;
    const b = info.users[(id * 7 + 1) % info.users.length]!.id;
    const dm = [...new Set([a, b])].sort((x, y) => x - y);
    const um: number[] = [];
    for (const u of dm) um.push(packRow(u, FLAG.is_private | (unread && u !== a ? 0 : FLAG.read)));
    return { id, sender_id: a, stream_id: null, topic: '', dm, ...body(id), timestamp: ts, um };
  }
  const ch = info.channels[(id - Math.floor(id / 10)) % info.channels.length]!; // every channel gets messages
  const sender = ch.subscribers[id % ch.subscribers.length]!;
  const um: number[] = [];
  for (const u of ch.subscribers) um.push(packRow(u, unread && u !== sender ? 0 : FLAG.read));
  return {
    id,
    sender_id: sender,
    stream_id: ch.id,
    topic: topicName(ch.id, Math.floor(id / info.channels.length / 3) % info.topicsPerChannel),
    ...body(id),
    timestamp: ts,
    um,
  };
}

/** Builds the data set in `dir` (which must be empty) and returns what the benchmarks need. */
export async function generateDataSet(dir: string, o: DataSetOptions): Promise<DataSetInfo> {
  const t0 = performance.now();
  const org = await setUpOrganization(dir, o);
  const msgDir = join(dir, 'messages');
  await mkdir(msgDir, { recursive: true, mode: 0o700 });
  const SEGMENT = 1000;
  const now = Math.floor(Date.now() / 1000);
  const firsts: number[] = [];
  for (let first = 1; first <= o.messages; first += SEGMENT) firsts.push(first);
  let next = 0;
  let bytes = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < firsts.length) {
        const first = firsts[next++]!;
        const items: MessageRecord[] = [];
        for (let id = first; id < Math.min(first + SEGMENT, o.messages + 1); id++) items.push(message(id, org, now, o.messages));
        const text = JSON.stringify(items);
        bytes += text.length;
        await writeFile(join(msgDir, `seg-${String(first).padStart(12, '0')}.json`), text, { mode: 0o600 });
      }
    }),
  );
  execFileSync('sync');
  const info: DataSetInfo = { ...org, messages: o.messages, generateMs: performance.now() - t0, bytes };
  await writeFile(join(dir, 'bench-info.json'), JSON.stringify(info));
  return info;
}
