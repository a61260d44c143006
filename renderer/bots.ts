/** Bots: create, show and copy the API key, download `zuliprc`, regenerate the key, deactivate. */
import type { User } from '../server/protocol/user.js';
import type { Api } from './admin-api.js';
import { httpsSite, zuliprc, zuliprcSite } from './zuliprc.js';
import { Notice, busy, copyText, dialog, download, field, h, tableBox } from './dom.js';

/** What the status page says of where the server is reached (`GET /hearth/status`), as far as a zuliprc needs. */
interface ServerAddresses {
  lan_urls?: string[];
  https_port?: number | null;
}

/** A bot the administrator owns, with its key (`GET /bots`). */
interface OwnBot {
  user_id?: number;
  username?: string;
  api_key?: string;
}

/** A new or regenerated key (`POST /bots`, `POST /bots/{id}/api_key/regenerate`). */
interface BotKey {
  user_id: number;
  api_key: string;
}

/** What the key dialog shows of a bot. */
type BotCard = Pick<User, 'user_id' | 'full_name' | 'email' | 'delivery_email'>;

const BOT_TYPES = [
  { id: 1, name: 'Generic bot' },
  { id: 2, name: 'Incoming webhook' },
];

/** The zuliprc site for this page (the page's own origin when the LAN URLs cannot be read), over HTTPS when the server has it. */
const siteForZuliprc = (api: Api): Promise<{ site: string; https: boolean }> =>
  api.get<ServerAddresses>('/hearth/status').then(
    (s) => {
      const plain = zuliprcSite(location.origin, Array.isArray(s.lan_urls) ? s.lan_urls : []);
      const port = typeof s.https_port === 'number' ? s.https_port : null;
      return { site: httpsSite(plain, port), https: port !== null };
    },
    () => ({ site: location.origin, https: location.protocol === 'https:' }),
  );

export function botsSection(api: Api, members: User[], reload: () => Promise<void>): HTMLElement {
  const notice = new Notice();
  const add = h('button', { type: 'button' }, 'Add bot');
  const bots = members.filter((u) => u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  const names = new Map(members.map((u) => [u.user_id, u.full_name]));
  /** Keys the server told us (GET /bots lists the bots this administrator owns, with keys). */
  const keys = new Map<number, string>();
  const keysLoaded = api.get<{ bots?: OwnBot[] }>('/bots').then(
    (res) => {
      for (const b of res.bots ?? []) {
        const id = typeof b.user_id === 'number' ? b.user_id : bots.find((m) => m.email === b.username)?.user_id;
        if (id !== undefined && typeof b.api_key === 'string') keys.set(id, b.api_key);
      }
    },
    () => undefined,
  );
  /** The key, or null when GET /bots does not list it (another administrator's bot): regenerate to get one. */
  const keyOf = async (bot: User): Promise<string | null> => {
    await keysLoaded;
    return keys.get(bot.user_id) ?? null;
  };

  add.addEventListener('click', () =>
    addBotDialog(api, async (id, key) => {
      keys.set(id, key);
      await reload();
    }),
  );

  const table = bots.length
    ? tableBox(
        'Bots list',
        h(
          'table',
          { class: 'list', 'aria-label': 'Bots' },
          h('thead', {}, h('tr', {}, ['Name', 'Email', 'Owner', 'Status', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
          h(
            'tbody',
            {},
            bots.map((bot) => {
              const show = h('button', { type: 'button', class: 'secondary', disabled: !bot.is_active }, 'API key');
              show.addEventListener('click', () =>
                void busy(show, notice, async () => keyDialog(api, bot, await keyOf(bot), (k) => keys.set(bot.user_id, k))),
              );
              const off = h('button', { type: 'button', class: 'secondary' }, bot.is_active ? 'Deactivate' : 'Reactivate');
              off.addEventListener('click', () => {
                if (bot.is_active && !confirm(`Deactivate the bot ${bot.full_name}?`)) return;
                void busy(off, notice, async () => {
                  if (bot.is_active) await api.delete(`/bots/${bot.user_id}`);
                  else await api.post(`/users/${bot.user_id}/reactivate`);
                  await reload();
                });
              });
              return h(
                'tr',
                { class: bot.is_active ? '' : 'inactive', 'data-user-id': bot.user_id },
                h('td', {}, bot.full_name),
                h('td', {}, bot.delivery_email ?? bot.email),
                h('td', {}, bot.bot_owner_id ? (names.get(bot.bot_owner_id) ?? '') : ''),
                h('td', {}, bot.is_active ? 'Active' : 'Deactivated'),
                h('td', {}, h('div', { class: 'row-actions' }, show, off)),
              );
            }),
          ),
        ),
      )
    : h('p', { class: 'empty' }, 'No bots yet. A bot posts messages through the API (alerts, integrations, scripts).');

  return h(
    'section',
    { 'aria-labelledby': 'bots-title' },
    h('div', { class: 'section-head' }, h('h2', { id: 'bots-title' }, 'Bots'), add),
    notice.el,
    table,
  );
}

function addBotDialog(api: Api, created: (id: number, key: string) => Promise<void>): void {
  const name = h('input', { name: 'full_name', required: true, maxlength: 100, autocomplete: 'off' });
  const short = h('input', { name: 'short_name', required: true, pattern: '[A-Za-z0-9._\\-]+', autocomplete: 'off' });
  const type = h('select', { name: 'bot_type' }, BOT_TYPES.map((t) => h('option', { value: t.id }, t.name)));
  dialog(
    'Add bot',
    [field('Bot name', name), field('Bot username', short, 'Letters, digits, dots, dashes: its email becomes USERNAME-bot@…'), field('Bot type', type)],
    'Create bot',
    async () => {
      const res = await api.post<BotKey>('/bots', { full_name: name.value, short_name: short.value, bot_type: Number(type.value) });
      await created(res.user_id, res.api_key);
      const users = await api.get<{ members: User[] }>('/users', { user_ids: [res.user_id] }).catch(() => null);
      const bot: BotCard = users?.members.find((u) => u.user_id === res.user_id) ?? {
        user_id: res.user_id,
        full_name: name.value,
        email: '',
      };
      keyDialog(api, bot, res.api_key, () => undefined);
      return true;
    },
  );
}

/** Shows a bot's key with Copy, Download zuliprc and Regenerate. */
function keyDialog(api: Api, bot: BotCard, initialKey: string | null, changed: (key: string) => void): void {
  let key = initialKey ?? '';
  const notice = new Notice();
  if (!initialKey) notice.show('info', 'This bot belongs to another administrator, so its key is not shown here. Regenerate it to get a new key.');
  const email = bot.delivery_email ?? bot.email ?? '';
  const keyInput = h('input', { name: 'api_key', readonly: true, value: key, class: 'mono', spellcheck: 'false' });
  const copy = h('button', { type: 'button', autofocus: true, disabled: !key }, 'Copy key');
  copy.addEventListener('click', () =>
    void busy(copy, notice, async () => {
      await copyText(key, keyInput);
      notice.show('ok', 'API key copied.');
    }),
  );
  const rc = h('button', { type: 'button', class: 'secondary', disabled: !key }, 'Download zuliprc');
  const site = siteForZuliprc(api);
  rc.addEventListener('click', () =>
    void busy(rc, notice, async () => {
      const { site: url, https } = await site;
      download('zuliprc', zuliprc(email, key, url, https ? 'hearth-ca.crt' : undefined));
      if (https) {
        // The authority the zuliprc names, saved beside it.
        const a = document.createElement('a');
        a.href = '/hearth/ca.crt';
        a.download = 'hearth-ca.crt';
        a.click();
        notice.show('ok', 'Downloaded zuliprc and hearth-ca.crt: keep them together (cert_bundle= names the certificate).');
      }
    }),
  );
  const regen = h('button', { type: 'button', class: 'secondary' }, 'Regenerate key');
  regen.addEventListener('click', () => {
    if (!confirm('Regenerate the key? Programs using the old key stop working.')) return;
    void busy(regen, notice, async () => {
      const res = await api.post<BotKey>(`/bots/${bot.user_id}/api_key/regenerate`);
      key = res.api_key;
      keyInput.value = key;
      copy.disabled = rc.disabled = false;
      changed(key);
      notice.show('ok', 'A new key was made; the old one no longer works.');
    });
  });
  dialog(
    `API key of ${bot.full_name}`,
    [
      h('p', {}, 'The bot signs in with its email and this key. Keep it secret, like a password.'),
      field('Bot email', h('input', { readonly: true, value: email, class: 'mono' })),
      field('API key', keyInput),
      h('div', { class: 'actions' }, copy, rc, regen),
      notice.el,
    ],
    'Done',
    async () => true,
    { cancel: false },
  );
}

