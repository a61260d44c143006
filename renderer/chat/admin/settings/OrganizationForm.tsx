/**
 * Settings: the organization's own settings: name, description, who sees email addresses, public
 * access, read receipts, where message reports and new channels go, upload size, video calls,
 * message retention (Retention.tsx: a shorter period is confirmed with what it deletes).
 * Only what changed is sent: `PATCH /realm`, and `PATCH /realm/user_settings_defaults` for email
 * visibility; a setting this server cannot change is named.
 */
import type { Channel } from '../../../../server/protocol/channel.js';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { get, patch } from '../api.js';
import { fetchPreview, isShorter, previewText, RetentionField, retentionOf, retentionParam, type RetentionValue } from './Retention.js';
import type { ChannelList, SettingsState } from './settings-state.js';

/** Zulip's email_address_visibility values. */
const EMAIL_VISIBILITY: readonly { id: number; name: string }[] = [
  { id: 1, name: 'Everyone' },
  { id: 2, name: 'Members only' },
  { id: 3, name: 'Administrators only' },
  { id: 4, name: 'Nobody' },
  { id: 5, name: 'Moderators and administrators' },
];

/** The realm settings this form sends, and how a refusal names them. */
const LABELS: Readonly<Record<string, string>> = {
  name: 'organization name',
  description: 'description',
  enable_spectator_access: 'public access',
  enable_read_receipts: 'read receipts',
  moderation_request_channel_id: 'message reports',
  new_stream_announcements_stream_id: 'new channel announcements',
  max_file_upload_size_mib: 'maximum upload size',
  video_chat_provider: 'video-call provider',
  message_retention_days: 'message retention',
};

interface Values {
  name: string;
  description: string;
  email_address_visibility: number;
  enable_spectator_access: boolean;
  enable_read_receipts: boolean;
  moderation_request_channel_id: number;
  new_stream_announcements_stream_id: number;
  /** As typed ('' is no limit given). */
  max_file_upload_size_mib: string;
  video_chat_provider: number;
  message_retention_days: RetentionValue;
}

function initialValues(state: SettingsState): Values {
  const visibility = state.realm_user_settings_defaults?.email_address_visibility;
  const providers = Object.values(state.realm_available_video_chat_providers ?? {});
  return {
    name: state.realm_name ?? '',
    description: state.realm_description ?? '',
    email_address_visibility: EMAIL_VISIBILITY.find((v) => v.id === visibility)?.id ?? EMAIL_VISIBILITY[0]!.id,
    enable_spectator_access: Boolean(state.realm_enable_spectator_access),
    enable_read_receipts: state.realm_enable_read_receipts !== false,
    moderation_request_channel_id: Number(state.realm_moderation_request_channel_id ?? -1),
    new_stream_announcements_stream_id: Number(state.realm_new_stream_announcements_stream_id ?? -1),
    max_file_upload_size_mib: state.max_file_upload_size_mib === undefined ? '' : String(state.max_file_upload_size_mib),
    video_chat_provider: providers.find((p) => p.id === state.realm_video_chat_provider)?.id ?? providers[0]?.id ?? 0,
    message_retention_days: retentionOf(state.realm_message_retention_days),
  };
}

/** What `PATCH /realm` would get for these values (null: left out). */
const realmParams = (v: Values): Record<string, string | number | boolean | null> => ({
  name: v.name.trim(),
  description: v.description,
  enable_spectator_access: v.enable_spectator_access,
  enable_read_receipts: v.enable_read_receipts,
  moderation_request_channel_id: v.moderation_request_channel_id,
  new_stream_announcements_stream_id: v.new_stream_announcements_stream_id,
  max_file_upload_size_mib: v.max_file_upload_size_mib === '' ? null : Number(v.max_file_upload_size_mib),
  video_chat_provider: v.video_chat_provider,
  message_retention_days: retentionParam(v.message_retention_days),
});

/** Which channels a select offers (those `keep` accepts); until they load, the current one, as "Channel N". */
function channelOptions(list: ChannelList, value: number, keep: (c: Channel) => boolean): { id: number; name: string }[] {
  if (list.channels) return list.channels.filter(keep).map((c) => ({ id: c.stream_id, name: `#${c.name}` }));
  return value === -1 ? [] : [{ id: value, name: `Channel ${value}` }];
}

/** The value a channel select shows (and saves): a channel it does not offer shows as none (-1). */
const shownChannel = (list: ChannelList, value: number, keep: (c: Channel) => boolean): number =>
  channelOptions(list, value, keep).some((o) => o.id === value) ? value : -1;

const isPrivate = (c: Channel) => c.invite_only;
const anyChannel = () => true;

/** A select of channels with a "none" option (-1). */
function ChannelSelect({ label, hint, name, value, none, list, keep, onChange }: {
  label: string;
  hint: string;
  name: string;
  value: number;
  none: string;
  list: ChannelList;
  keep: (c: Channel) => boolean;
  onChange: (id: number) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <select {...p} name={name} value={shownChannel(list, value, keep)} onChange={(e) => onChange(Number(e.currentTarget.value))}>
          <option value={-1}>{none}</option>
          {channelOptions(list, value, keep).map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function OrganizationForm({ state, list }: { state: SettingsState; list: ChannelList }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [values, setValues] = useState(() => initialValues(state));
  /** What the server has, as this form last saved or loaded it. */
  const saved = useRef(values);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((now) => ({ ...now, [key]: value }));
  const id = useId();
  const providers = Object.values(state.realm_available_video_chat_providers ?? {});
  // Only owners change the retention period (as Zulip): the card asks who is signed in.
  const [isOwner, setIsOwner] = useState(false);
  useEffect(() => {
    let live = true;
    get<{ role?: number }>('/users/me').then(
      (me) => live && setIsOwner(me.role === 100),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const submit = (ev: Event) => {
    ev.preventDefault();
    setNotice(null);
    const sent: Values = {
      ...values,
      moderation_request_channel_id: shownChannel(list, values.moderation_request_channel_id, isPrivate),
      new_stream_announcements_stream_id: shownChannel(list, values.new_stream_announcements_stream_id, anyChannel),
    };
    if (retentionParam(sent.message_retention_days) === null) {
      setNotice({ kind: 'error', text: 'Message retention: enter a whole number of days (1 or more), or keep messages forever.' });
      return;
    }
    const now = realmParams(sent);
    const before = realmParams(saved.current);
    const realm: Record<string, string | number | boolean> = {};
    for (const [k, v] of Object.entries(now)) if (JSON.stringify(v) !== JSON.stringify(before[k]) && v !== null) realm[k] = v;
    const visibilityChanged = sent.email_address_visibility !== saved.current.email_address_visibility;
    if (!Object.keys(realm).length && !visibilityChanged) {
      setNotice({ kind: 'info', text: 'Nothing to save: no setting changed.' });
      return;
    }
    void run(async () => {
      const days = retentionParam(sent.message_retention_days);
      if ('message_retention_days' in realm && typeof days === 'number' && isShorter(saved.current.message_retention_days, sent.message_retention_days)) {
        const preview = await fetchPreview(days);
        if (!confirm(`Delete messages older than ${days} days? Within a day, this deletes ${previewText(preview)}, for good.`)) {
          setNotice({ kind: 'info', text: 'Nothing saved: the retention period was not changed.' });
          return;
        }
      }
      const ignored: string[] = [];
      if (Object.keys(realm).length) {
        const res = await patch<{ ignored_parameters_unsupported?: string[] }>('/realm', realm);
        ignored.push(...(res.ignored_parameters_unsupported ?? []));
        const kept = { ...saved.current };
        for (const k of Object.keys(realm) as (keyof Values)[]) if (!ignored.includes(k)) Object.assign(kept, { [k]: sent[k] });
        saved.current = kept;
      }
      if (visibilityChanged) {
        await patch('/realm/user_settings_defaults', { email_address_visibility: sent.email_address_visibility });
        saved.current = { ...saved.current, email_address_visibility: sent.email_address_visibility };
      }
      setNotice(
        ignored.length
          ? { kind: 'info', text: `Saved, except what this server cannot change: ${ignored.map((k) => LABELS[k] ?? k).join(', ')}.` }
          : { kind: 'ok', text: 'Settings saved.' },
      );
    });
  };

  return (
    <form class="card" aria-labelledby={id} aria-busy={busy ? 'true' : undefined} onSubmit={submit}>
      <h2 id={id}>Organization</h2>
      <Field label="Organization name">
        {(p) => <input {...p} name="name" required maxLength={40} value={values.name} onInput={(e) => set('name', e.currentTarget.value)} />}
      </Field>
      <Field label="Organization description" hint="Markdown; shown on the sign-in page.">
        {(p) => <textarea {...p} name="description" rows={3} maxLength={1000} value={values.description} onInput={(e) => set('description', e.currentTarget.value)} />}
      </Field>
      <Field label="Who can see email addresses">
        {(p) => (
          <select {...p} name="email_address_visibility" value={values.email_address_visibility} onChange={(e) => set('email_address_visibility', Number(e.currentTarget.value))}>
            {EMAIL_VISIBILITY.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="field check">
        <input type="checkbox" id={`${id}-spectators`} name="enable_spectator_access" checked={values.enable_spectator_access} onChange={(e) => set('enable_spectator_access', e.currentTarget.checked)} />
        <label for={`${id}-spectators`}>Public access: anyone can read web-public channels without an account</label>
      </div>
      <div class="field check">
        <input type="checkbox" id={`${id}-receipts`} name="enable_read_receipts" checked={values.enable_read_receipts} onChange={(e) => set('enable_read_receipts', e.currentTarget.checked)} />
        <label for={`${id}-receipts`}>Read receipts: people can see who has read a message (each person may opt out)</label>
      </div>
      <ChannelSelect
        label="Message reports go to"
        hint="A private channel where the Notification Bot posts the messages people report."
        name="moderation_request_channel_id"
        value={values.moderation_request_channel_id}
        none="Nobody (reporting messages is off)"
        list={list}
        keep={isPrivate}
        onChange={(v) => set('moderation_request_channel_id', v)}
      />
      <ChannelSelect
        label="New channels are announced in"
        hint="When their creator asks, the Notification Bot announces new public channels there."
        name="new_stream_announcements_stream_id"
        value={values.new_stream_announcements_stream_id}
        none="Nowhere"
        list={list}
        keep={anyChannel}
        onChange={(v) => set('new_stream_announcements_stream_id', v)}
      />
      <Field label="Maximum upload size (MiB)">
        {(p) => <input {...p} type="number" name="max_file_upload_size_mib" min={0} step={1} value={values.max_file_upload_size_mib} onInput={(e) => set('max_file_upload_size_mib', e.currentTarget.value)} />}
      </Field>
      <Field label="Video-call provider">
        {(p) => (
          <select {...p} name="video_chat_provider" value={values.video_chat_provider} onChange={(e) => set('video_chat_provider', Number(e.currentTarget.value))}>
            {providers.map((v) => (
              <option key={v.id} value={v.id}>
                {v.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <RetentionField
        value={values.message_retention_days}
        saved={saved.current.message_retention_days}
        canEdit={isOwner}
        onChange={(v) => set('message_retention_days', v)}
      />
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton type="submit" busy={busy}>
          Save changes
        </BusyButton>
      </div>
    </form>
  );
}
