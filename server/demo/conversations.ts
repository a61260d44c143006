/**
 * Six weeks of conversation for the demo organization, written through the API day by day
 * with the builder's clock: topics in every channel, direct and group conversations, replies
 * with mentions, reactions (Unicode and custom emoji), stars, edits, uploaded pictures and
 * files, code and quotes, the Deploy Bot's reports. A seeded random generator makes it the
 * same every time. Everything up to two days ago is read; the rest is each person's unread.
 */
import { ONBOARDING_CHANNELS } from '../actions/onboarding.js';
import { seededRandom } from '../lib/seeded-random.js';
import type { DemoClient } from './client.js';
import { CHANNELS, DAYS, PEOPLE, TALK, type DemoChannel } from './roster.js';

export type Progress = (line: string) => void;

/** A clock the builder sets (messages get the time of day it says). */
export interface SettableClock {
  t: number;
  now(): number;
}

export interface Cast {
  clock: SettableClock;
  start: number;
  end: number;
  clients: Map<string, DemoClient>;
  channelIds: Map<string, number>;
  bots: { deploy: DemoClient; office: DemoClient };
  pictures: { chart: Buffer; mockup: Buffer };
  progress: Progress;
}

const DAY = 86_400_000;
const MINUTE = 60_000;
const REACTIONS = ['+1', 'tada', 'heart', 'joy', 'eyes', 'check', 'juniper', 'shipit', 'clap', 'fire'];

/** Special messages, each once, on its day (0 = the first day): the kinds a demo should show. */
const SPECIALS: { day: number; channel: string; topic: string; who: string; kind: 'code' | 'quote' | 'chart' | 'mockup' | 'file' | 'table' | 'poll' | 'todo' | 'math' | 'me' }[] = [
  { day: 3, channel: 'engineering', topic: 'flaky tests', who: 'lucas', kind: 'code' },
  { day: 5, channel: 'design', topic: 'onboarding flow', who: 'sofia', kind: 'mockup' },
  { day: 9, channel: 'sales', topic: 'Q3 pipeline', who: 'amara', kind: 'chart' },
  { day: 12, channel: 'general', topic: 'office move', who: 'tom', kind: 'quote' },
  { day: 16, channel: 'leadership', topic: 'budget 2027', who: 'elena', kind: 'file' },
  { day: 20, channel: 'support', topic: 'weekly summary', who: 'ben', kind: 'table' },
  { day: 24, channel: 'leadership', topic: 'budget 2027', who: 'elena', kind: 'math' },
  { day: 30, channel: 'engineering', topic: 'release 2.4', who: 'priya', kind: 'todo' },
  { day: 36, channel: 'random', topic: 'weekend plans', who: 'omar', kind: 'me' },
  { day: 39, channel: 'engineering', topic: 'database upgrade', who: 'priya', kind: 'code' },
  { day: 40, channel: 'design', topic: 'new logo', who: 'grace', kind: 'mockup' },
  { day: 38, channel: 'general', topic: 'friday lunch', who: 'tom', kind: 'poll' },
];

/** Votes and ticks on the demo's widgets: who, and the widget event (Zulip's poll and to-do protocol). */
const WIDGET_EVENTS: Record<'poll' | 'todo', [string, object][]> = {
  poll: [
    ['maya', { type: 'vote', key: 'canned,1', vote: 1 }],
    ['lucas', { type: 'vote', key: 'canned,0', vote: 1 }],
    ['sofia', { type: 'vote', key: 'canned,1', vote: 1 }],
    ['amara', { type: 'vote', key: 'canned,2', vote: 1 }],
    ['ben', { type: 'vote', key: 'canned,1', vote: 1 }],
  ],
  todo: [
    ['lucas', { type: 'strike', key: '0,canned' }],
    ['kenji', { type: 'strike', key: '1,canned' }],
  ],
};

export async function writeConversations(cast: Cast): Promise<number> {
  const rnd = seededRandom(20261125);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const person = (key: string) => PEOPLE.find((p) => p.key === key)!;
  const { clock, clients } = cast;
  // The last day written is the last whole day before `end` (no message is dated in the future).
  const days = Math.floor((cast.end - cast.start) / DAY) - 1;
  const total = { messages: 0 };
  const fill = (text: string, others: string[]) =>
    text
      .replaceAll('{name}', person(pick(others.length ? others : ['maya'])).name)
      .replaceAll('{issue}', String(100 + Math.floor(rnd() * 400)))
      .replaceAll('{day}', pick(DAYS));

  const react = async (id: number, sender: string, pool: string[]) => {
    if (rnd() > 0.18) return;
    const n = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < n; i++) {
      const who = pick(pool.filter((k) => k !== sender));
      if (!who) return;
      await clients.get(who)!.post(`/messages/${id}/reactions`, { emoji_name: pick(REACTIONS) }).catch(() => undefined);
    }
  };
  const send = async (who: string, params: Record<string, unknown>) => {
    clock.t = Math.min(clock.t + (1 + Math.floor(rnd() * 9)) * MINUTE, cast.end);
    const id = (await clients.get(who)!.post('/messages', params)).id as number;
    if (++total.messages % 250 === 0) cast.progress(`  ${total.messages} messages…`);
    return id;
  };
  const membersOf = (ch: DemoChannel) => (ch.members === 'all' ? PEOPLE.map((p) => p.key) : ch.members);

  const special = async (s: (typeof SPECIALS)[number]) => {
    const c = clients.get(s.who)!;
    let content = '';
    if (s.kind === 'code') {
      content = 'This is the part that fails, the cache is read before the write finishes:\n```ts\nconst cached = cache.get(key);\nawait store.write(key, value);\ncache.set(key, value); // too late for readers in between\n```\nFix: write, then update the cache in the same step. JUN-' + (200 + s.day);
    } else if (s.kind === 'quote') {
      content = 'From the building manager:\n```quote\nThe movers arrive at 8:00. Lifts are reserved for them until noon.\n```\nSo please take the stairs on moving day :sweat_smile:';
    } else if (s.kind === 'poll') {
      content = '/poll Where should we go for the team lunch on Friday?\nThe noodle bar\nPizza by the river\nThe new salad place';
    } else if (s.kind === 'todo') {
      content = '/todo Release 2.4 checklist\nFreeze the branch: no merges after Wednesday\nRun the upgrade on staging\nRelease notes: Lucas drafts, Sofia reviews\nTag and deploy';
    } else if (s.kind === 'math') {
      content = 'Engineering grows from 410 to 455: $$\\frac{455 - 410}{410} \\approx 11\\%$$. Over three years at that rate:\n```math\n410 \\times 1.11^{3} \\approx 561\n```';
    } else if (s.kind === 'me') {
      content = '/me is off hiking this weekend :sunny:';
    } else if (s.kind === 'table') {
      content = 'Weekly summary:\n\n| Channel | Tickets | First reply |\n|---|---:|---:|\n| Email | 28 | 41 min |\n| Chat | 14 | 9 min |\n\nBest week so far :tada:';
    } else {
      const [name, type, bytes, text] =
        s.kind === 'chart'
          ? ['q3-pipeline.png', 'image/png', cast.pictures.chart, 'Pipeline by month, the last bar is this month:']
          : s.kind === 'mockup'
            ? ['mockup.png', 'image/png', cast.pictures.mockup, 'New version of the screen, feedback welcome:']
            : ['budget-2027.csv', 'text/csv', Buffer.from('team,2026,2027\nengineering,410000,455000\ndesign,160000,170000\nsales,220000,250000\n'), 'Budget draft attached, numbers in thousands:'];
      const up = await c.upload('/user_uploads', 'file', name, type, bytes);
      content = `${text}\n[${name}](${String(up.url ?? up.uri)})`;
    }
    const id = await send(s.who, { type: 'stream', to: s.channel, topic: s.topic, content });
    if (s.kind !== 'poll' && s.kind !== 'todo') return;
    for (const [who, event] of WIDGET_EVENTS[s.kind]) {
      await clients.get(who)!.post('/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify(event) });
    }
  };

  const conversation = async (ch: DemoChannel, topic: string) => {
    const pool = membersOf(ch).filter((k) => k !== 'jonas' || ch.name === 'design' || ch.members === 'all');
    const length = 3 + Math.floor(rnd() * 8);
    let last = '';
    for (let i = 0; i < length; i++) {
      const who = pick(pool.filter((k) => k !== last));
      const bank = i === 0 || rnd() < 0.5 ? TALK[ch.talk]! : TALK.replies!;
      const id = await send(who, { type: 'stream', to: ch.name, topic, content: fill(pick(bank), pool.filter((k) => k !== who)) });
      last = who;
      await react(id, who, pool);
      if (rnd() < 0.03) await clients.get(pick(pool))!.post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
      if (rnd() < 0.02) {
        clock.t += MINUTE;
        await clients.get(who)!.patch(`/messages/${id}`, { content: `${fill(pick(bank), pool)}\n\n(Edit: updated after the call.)` });
      }
    }
  };

  const direct = async (group: boolean) => {
    const a = pick(PEOPLE).key;
    const others = PEOPLE.map((p) => p.key).filter((k) => k !== a);
    const b = pick(others);
    const people = group ? [a, b, pick(others.filter((k) => k !== b))] : [a, b];
    const to = people.map((k) => clients.get(k)!.account.id);
    for (let i = 0, n = 2 + Math.floor(rnd() * 4); i < n; i++) {
      const who = people[i % people.length]!;
      const id = await send(who, { type: 'direct', to, content: fill(pick(TALK.dm!), people.filter((k) => k !== who)) });
      if (rnd() < 0.1) await clients.get(people[(i + 1) % people.length]!)!.post(`/messages/${id}/reactions`, { emoji_name: 'heart' }).catch(() => undefined);
    }
  };

  for (let day = 0; day <= days; day++) {
    const date = new Date(cast.start + day * DAY);
    const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
    clock.t = cast.start + day * DAY + Math.floor(rnd() * 40) * MINUTE;
    if (day === days - 2) {
      // Everything so far is read; the last two days are what each person has not seen yet.
      for (const c of clients.values()) await c.post('/mark_all_as_read');
    }
    for (const s of SPECIALS.filter((x) => x.day === day)) await special(s);
    const conversations = weekend ? 2 : 9 + Math.floor(rnd() * 5);
    for (let i = 0; i < conversations; i++) {
      const ch = pick(CHANNELS);
      await conversation(ch, pick(ch.topics));
      if (rnd() < 0.45) await direct(rnd() < 0.3);
    }
    if (!weekend && day % 2 === 0) {
      clock.t += 5 * MINUTE;
      const n = 200 + day;
      await cast.bots.deploy.post('/messages', { type: 'stream', to: 'engineering', topic: 'deploys', content: `Deployed **web 2.4.${n}** to production :shipit: (JUN-${n})` });
      total.messages++;
    }
    if (clock.t > cast.end) clock.t = cast.end;
  }
  // A sandbox topic of its own, so the onboarding channel is not only the Welcome Bot's.
  clock.t = Math.min(clock.t + MINUTE, cast.end);
  await send('grace', { type: 'stream', to: ONBOARDING_CHANNELS[1].name, topic: 'experiments', content: 'Testing **bold**, *italics* and a :juniper: custom emoji.' });
  cast.progress(`  ${total.messages} messages.`);
  return total.messages;
}
