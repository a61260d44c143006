/**
 * Builds the demo organization (`hearth demo`, first run) in a data dir, offline and
 * deterministic: a server on loopback whose clock the builder moves through six weeks, filled
 * through Hearth's own API as Zulip clients would (server/demo/client.ts). People with
 * pictures, roles, teams and statuses; channels in folders; a few thousand messages with
 * Markdown, code, quotes, mentions, reactions, uploads, edits, direct and group
 * conversations; stars, and the last two days unread; two bots, custom emoji, a linkifier.
 */
import { createApp } from '../app.js';
import { doOnboardRealm } from '../actions/onboarding.js';
import { doMarkDemoOrganization } from '../actions/realm.js';
import { doCreateRealm } from '../actions/users.js';
import { silentLogger } from '../log.js';
import { Store } from '../store/store.js';
import { DemoClient, type DemoAccount } from './client.js';
import { writeConversations, type Cast, type Progress, type SettableClock } from './conversations.js';
import { chartPng, juniperEmojiPng, mockupPng, portraitPng, shipitEmojiPng } from './pictures.js';
import {
  CHANNELS,
  DEMO_PASSWORD,
  DEMO_REALM_DESCRIPTION,
  DEMO_REALM_NAME,
  FOLDERS,
  PEOPLE,
  ROLE_IDS,
  emailOf,
} from './roster.js';

export const DEMO_DAYS = 42;
const DAY = 86_400_000;

async function apiKeyOf(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password: DEMO_PASSWORD }),
  });
  const body = (await res.json()) as { api_key?: string; msg?: string };
  if (!body.api_key) throw new Error(`fetch_api_key ${email}: ${body.msg}`);
  return body.api_key;
}

async function addPeople(base: string, owner: DemoClient): Promise<Map<string, DemoClient>> {
  const clients = new Map<string, DemoClient>([['maya', owner]]);
  for (const p of PEOPLE) {
    if (p.key === 'maya') continue;
    const made = await owner.post('/users', { email: emailOf(p), password: DEMO_PASSWORD, full_name: p.name });
    const id = made.user_id as number;
    if (p.role !== 'member') await owner.patch(`/users/${id}`, { role: ROLE_IDS[p.role] });
    clients.set(p.key, new DemoClient(base, { id, email: emailOf(p), apiKey: await apiKeyOf(base, emailOf(p)) }));
  }
  return clients;
}

async function profiles(owner: DemoClient, clients: Map<string, DemoClient>): Promise<void> {
  const team = (await owner.post('/realm/profile_fields', { name: 'Team', field_type: 1, hint: 'Which team you are on' })).id;
  const pronouns = (await owner.post('/realm/profile_fields', { name: 'Pronouns', field_type: 8, hint: 'What pronouns should people use for you?' })).id;
  for (const p of PEOPLE) {
    const c = clients.get(p.key)!;
    await c.patch('/settings', { timezone: p.timezone });
    await c.patch('/users/me/profile_data', { data: [{ id: team, value: p.team }, { id: pronouns, value: p.pronouns }] });
    await c.upload('/users/me/avatar', 'file', `${p.key}.png`, 'image/png', portraitPng(p.hue));
    if (p.status) await c.post('/users/me/status', { emoji_name: p.status[0], status_text: p.status[1] });
  }
}

async function channels(owner: DemoClient, clients: Map<string, DemoClient>): Promise<Map<string, number>> {
  const folders = new Map<string, number>();
  for (const f of FOLDERS) folders.set(f.name, (await owner.post('/channel_folders/create', f)).channel_folder_id as number);
  const ids = new Map<string, number>();
  const existing = ((await owner.get('/streams')).streams as { name: string; stream_id: number }[]) ?? [];
  for (const s of existing) ids.set(s.name, s.stream_id);
  const everyone = [...clients.values()].map((c) => c.account.id);
  for (const ch of CHANNELS) {
    const members = ch.members === 'all' ? everyone : ch.members.map((k) => clients.get(k)!.account.id);
    const folder = folders.get(ch.folder)!;
    if (ids.has(ch.name)) {
      await owner.patch(`/streams/${ids.get(ch.name)}`, { folder_id: folder });
      await owner.post('/users/me/subscriptions', { subscriptions: [{ name: ch.name }], principals: members });
      continue;
    }
    const made = await owner.post('/channels/create', {
      name: ch.name,
      description: ch.description,
      subscribers: members,
      invite_only: ch.private === true,
      folder_id: folder,
      is_default_stream: ch.members === 'all' && !ch.private,
    });
    ids.set(ch.name, made.id as number);
  }
  // The onboarding #sandbox: everyone but the guest.
  const guests = new Set(PEOPLE.filter((p) => p.role === 'guest').map((p) => clients.get(p.key)!.account.id));
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'sandbox' }], principals: everyone.filter((id) => !guests.has(id)) });
  return ids;
}

async function extras(owner: DemoClient, clients: Map<string, DemoClient>, base: string): Promise<Cast['bots']> {
  await owner.upload('/realm/emoji/juniper', 'file', 'juniper.png', 'image/png', juniperEmojiPng());
  await owner.upload('/realm/emoji/shipit', 'file', 'shipit.png', 'image/png', shipitEmojiPng());
  await owner.post('/realm/filters', { pattern: 'JUN-(?P<id>[0-9]+)', url_template: 'https://tracker.juniper.example/JUN-{id}' });
  await owner.patch('/realm', { description: DEMO_REALM_DESCRIPTION, welcome_message_custom_text: 'This is a demo: everything here is made up. Try anything!' });
  const priya = clients.get('priya')!;
  const deploy = await priya.post('/bots', { full_name: 'Deploy Bot', short_name: 'deploy', bot_type: 1 });
  const office = await owner.post('/bots', { full_name: 'Office Bot', short_name: 'office', bot_type: 1 });
  const bot = async (made: Record<string, unknown>): Promise<DemoClient> => {
    const id = made.user_id as number;
    const email = ((await owner.get(`/users/${id}`)).user as { email: string }).email;
    return new DemoClient(base, { id, email, apiKey: made.api_key as string } satisfies DemoAccount);
  };
  const d = await bot(deploy);
  const o = await bot(office);
  await priya.post('/users/me/subscriptions', { subscriptions: [{ name: 'engineering' }], principals: [d.account.id] });
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'random' }], principals: [o.account.id] });
  return { deploy: d, office: o };
}

/** Creates the demo organization in `dataDir` (which must hold none). `now`: the end of its six weeks. */
export async function buildDemo(dataDir: string, progress: Progress = () => undefined, now = Date.now()): Promise<void> {
  const store = await Store.open(dataDir);
  const start = Math.floor((now - DEMO_DAYS * DAY) / DAY) * DAY + 8 * 3_600_000;
  const clock: SettableClock = { t: start, now: () => clock.t };
  // The builder makes thousands of calls a minute as each person: no rate limit while it builds.
  const server = createApp({ store, log: silentLogger, clock, config: { apiRateLimitPerMinute: 0 } });
  try {
    if (store.realm.data.realm !== null) throw new Error(`${dataDir} already holds an organization`);
    const { port } = await server.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;
    const app = server.app;
    const maya = PEOPLE[0]!;
    progress('Creating the organization and its people…');
    const owner = await doCreateRealm(app, DEMO_REALM_NAME, { email: emailOf(maya), password: DEMO_PASSWORD, fullName: maya.name });
    await doMarkDemoOrganization(app);
    await doOnboardRealm(app, owner);
    const ownerClient = new DemoClient(base, { id: owner.id, email: owner.email, apiKey: owner.api_key });
    const clients = await addPeople(base, ownerClient);
    await profiles(ownerClient, clients);
    const channelIds = await channels(ownerClient, clients);
    const bots = await extras(ownerClient, clients, base);
    const pictures = { chart: chartPng(), mockup: mockupPng() };
    await writeConversations({ clock, start, end: now - 10 * 60_000, clients, channelIds, bots, pictures, progress });
    // The pictures' thumbnails, so the demo's messages show them and not loading placeholders.
    await app.thumbnails.idle();
    progress('Done.');
  } finally {
    await server.close();
    await server.app.store.close();
  }
}
