/** Bots: the list (owner, status), add one, show its key (BotKeyDialog.tsx), deactivate/reactivate. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { User } from '../../../../server/protocol/user.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { FormDialog } from '../../ui/FormDialog.js';
import { Notice, type SetNotice, useNotice } from '../../ui/Notice.js';
import { del, get, post } from '../api.js';
import { type BotCard, type BotKey, BotKeyDialog } from './BotKeyDialog.js';
import { useDialog } from './dialog-state.js';
import { OUTGOING_WEBHOOK, OutgoingBots, OutgoingFields } from './OutgoingBot.js';
import { PeopleTable, SectionHead } from './PeopleTable.js';

/** A bot the administrator owns, with its key (`GET /bots`). */
interface OwnBot {
  user_id?: number;
  username?: string;
  api_key?: string;
}

const BOT_TYPES = [
  { id: 1, name: 'Generic bot' },
  { id: 2, name: 'Incoming webhook' },
  { id: OUTGOING_WEBHOOK, name: 'Outgoing webhook' },
];

const COLUMNS = ['Name', 'Email', 'Owner', 'Status', 'Actions'];

type BotDialog = { kind: 'add' } | { kind: 'key'; bot: BotCard; key: string | null };

export function Bots({ members, reload }: { members: readonly User[]; reload: () => Promise<void> }) {
  const [notice, setNotice] = useNotice();
  const dialog = useDialog<BotDialog>();
  const bots = useMemo(() => members.filter((u) => u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name)), [members]);
  const names = useMemo(() => new Map(members.map((u) => [u.user_id, u.full_name])), [members]);
  /** Keys the server told us (GET /bots lists the bots this administrator owns, with keys), asked again with each new list. */
  const keys = useRef(new Map<number, string>());
  const keysLoaded = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => {
    keysLoaded.current = get<{ bots?: OwnBot[] }>('/bots').then(
      (res) => {
        for (const b of res.bots ?? []) {
          const id = typeof b.user_id === 'number' ? b.user_id : bots.find((m) => m.email === b.username)?.user_id;
          if (id !== undefined && typeof b.api_key === 'string') keys.current.set(id, b.api_key);
        }
      },
      () => undefined,
    );
  }, [bots]);
  /** The key, or null when GET /bots does not list it (another administrator's bot): regenerate to get one. */
  const keyOf = async (bot: User): Promise<string | null> => {
    await keysLoaded.current;
    return keys.current.get(bot.user_id) ?? null;
  };

  const open = dialog.open;
  return (
    <section aria-labelledby="bots-title">
      <SectionHead id="bots-title" title="Bots" add="Add bot" onAdd={(from) => dialog.show({ kind: 'add' }, from)} />
      <Notice notice={notice} />
      {bots.length ? (
        <PeopleTable label="Bots list" name="Bots" columns={COLUMNS}>
          {bots.map((bot) => (
            <BotRow
              key={bot.user_id}
              bot={bot}
              owner={bot.bot_owner_id ? (names.get(bot.bot_owner_id) ?? '') : ''}
              setNotice={setNotice}
              reload={reload}
              showKey={async (from) => dialog.show({ kind: 'key', bot, key: await keyOf(bot) }, from)}
            />
          ))}
        </PeopleTable>
      ) : (
        <p class="empty">No bots yet. A bot posts messages through the API (alerts, integrations, scripts).</p>
      )}
      {open?.kind === 'add' && (
        <AddBotDialog
          onClose={() => dialog.close((d) => d.kind === 'add')}
          created={async (bot, key) => {
            keys.current.set(bot.user_id, key);
            await reload();
          }}
          showKey={(bot, key) => dialog.show({ kind: 'key', bot, key })}
        />
      )}
      {open?.kind === 'key' && (
        <BotKeyDialog bot={open.bot} initialKey={open.key} changed={(k) => keys.current.set(open.bot.user_id, k)} onClose={() => dialog.close()} />
      )}
      <OutgoingBots bots={bots} />
    </section>
  );
}

function BotRow({ bot, owner, setNotice, reload, showKey }: { bot: User; owner: string; setNotice: SetNotice; reload: () => Promise<void>; showKey: (from: HTMLElement) => Promise<void> }) {
  const [showing, runShow] = useBusy(setNotice);
  const [toggling, runToggle] = useBusy(setNotice);
  const toggle = () => {
    if (bot.is_active && !confirm(`Deactivate the bot ${bot.full_name}?`)) return;
    void runToggle(async () => {
      if (bot.is_active) await del(`/bots/${bot.user_id}`);
      else await post(`/users/${bot.user_id}/reactivate`);
      await reload();
    });
  };
  return (
    <tr class={bot.is_active ? undefined : 'inactive'} data-user-id={bot.user_id}>
      <td>{bot.full_name}</td>
      <td>{bot.delivery_email ?? bot.email}</td>
      <td>{owner}</td>
      <td>{bot.is_active ? 'Active' : 'Deactivated'}</td>
      <td>
        <div class="row-actions">
          <BusyButton
            class="secondary"
            disabled={!bot.is_active}
            busy={showing}
            onClick={(e) => {
              const from = e.currentTarget;
              void runShow(() => showKey(from));
            }}
          >
            API key
          </BusyButton>
          <BusyButton class="secondary" busy={toggling} onClick={toggle}>
            {bot.is_active ? 'Deactivate' : 'Reactivate'}
          </BusyButton>
        </div>
      </td>
    </tr>
  );
}

function AddBotDialog({
  onClose,
  created,
  showKey,
}: {
  onClose: () => void;
  created: (bot: BotCard, key: string) => Promise<void>;
  showKey: (bot: BotCard, key: string) => void;
}) {
  const [name, setName] = useState('');
  const [short, setShort] = useState('');
  const [type, setType] = useState(BOT_TYPES[0]!.id);
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState(1);
  const outgoing = type === OUTGOING_WEBHOOK;
  return (
    <FormDialog
      title="Add bot"
      submit="Create bot"
      onClose={onClose}
      onSubmit={async () => {
        // Zulip's add-bot form: the outgoing webhook's URL (JSON-encoded) and its interface.
        const service = outgoing ? { payload_url: JSON.stringify(url.trim()), interface_type: format } : {};
        const res = await post<BotKey>('/bots', { full_name: name, short_name: short, bot_type: type, ...service });
        const fallback: BotCard = { user_id: res.user_id, full_name: name, email: '' };
        await created(fallback, res.api_key);
        const users = await get<{ members: User[] }>('/users', { user_ids: [res.user_id] }).catch(() => null);
        showKey(users?.members.find((u) => u.user_id === res.user_id) ?? fallback, res.api_key);
        return true;
      }}
    >
      <Field label="Bot name">
        {(ids) => <input {...ids} name="full_name" required maxLength={100} autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field label="Bot username" hint="Letters, digits, dots, dashes: its email becomes USERNAME-bot@…">
        {(ids) => <input {...ids} name="short_name" required pattern="[A-Za-z0-9._\-]+" autocomplete="off" value={short} onInput={(e) => setShort(e.currentTarget.value)} />}
      </Field>
      <Field label="Bot type">
        {(ids) => (
          <select {...ids} name="bot_type" value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))}>
            {BOT_TYPES.map((t) => (
              <option key={t.id} value={String(t.id)}>
                {t.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {outgoing && <OutgoingFields names={['payload_url', 'interface_type']} url={url} setUrl={setUrl} format={format} setFormat={setFormat} />}
    </FormDialog>
  );
}
