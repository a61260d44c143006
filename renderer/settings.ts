/** Organization settings: name, description, icon, email visibility, public access, read receipts, message reports, upload size, video calls. */
import type { Channel } from '../server/protocol/channel.js';
import type { RegisterState } from '../server/protocol/register.js';
import type { Api } from './admin-api.js';
import { Notice, busy, errorText, field, h, loading } from './dom.js';
import { linkifiersSection } from './settings-linkifiers.js';
import { listsSections } from './settings-lists.js';
import { welcomeSection } from './settings-welcome.js';
import { securitySection } from './settings-security.js';

/** Zulip's email_address_visibility values. */
const EMAIL_VISIBILITY = [
  { id: 1, name: 'Everyone' },
  { id: 2, name: 'Members only' },
  { id: 3, name: 'Administrators only' },
  { id: 4, name: 'Nobody' },
  { id: 5, name: 'Moderators and administrators' },
];

const LABELS: Record<string, string> = {
  name: 'organization name',
  description: 'description',
  enable_spectator_access: 'public access',
  enable_read_receipts: 'read receipts',
  moderation_request_channel_id: 'message reports',
  new_stream_announcements_stream_id: 'new channel announcements',
  max_file_upload_size_mib: 'maximum upload size',
  video_chat_provider: 'video-call provider',
};

/** A linkifier (`realm_linkifiers`). */
export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

/** The register answer's organization settings this page reads, beyond what the protocol names. */
export interface SettingsState extends RegisterState {
  realm_description?: string;
  realm_user_settings_defaults?: { email_address_visibility?: number };
  realm_enable_spectator_access?: boolean;
  realm_enable_read_receipts?: boolean;
  realm_moderation_request_channel_id?: number | null;
  realm_new_stream_announcements_stream_id?: number | null;
  realm_available_video_chat_providers?: Record<string, { id: number; name: string }>;
  realm_icon_url?: string;
  realm_welcome_message_custom_text?: string;
  realm_linkifiers?: Linkifier[];
  /** Channel IDs, or (older servers) channel objects. */
  realm_default_streams?: (number | Channel)[];
}

/** One register call for everything the settings page shows; its queue is deleted straight away. */
export async function fetchState(api: Api): Promise<SettingsState> {
  const state = await api.post<SettingsState>('/register', {
    fetch_event_types: ['realm', 'realm_user_settings_defaults', 'custom_profile_fields', 'default_streams', 'channel_folders', 'realm_linkifiers'],
    event_types: ['heartbeat'],
    apply_markdown: true,
  });
  if (state.queue_id) void api.delete('/events', { queue_id: state.queue_id }).catch(() => undefined);
  return state;
}

export function settingsPage(api: Api): HTMLElement {
  const page = h('div', { class: 'page' }, h('h1', {}, 'Settings'), loading('settings'));
  fetchState(api).then(
    (state) => page.replaceChildren(h('h1', {}, 'Settings'), organizationForm(api, state), welcomeSection(api, state), securitySection(api), iconForm(api, state), ...listsSections(api, state), linkifiersSection(api, state)),
    (err) => page.append(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not load settings: ${errorText(err)}`)),
  );
  return page;
}

function organizationForm(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const name = h('input', { name: 'name', required: true, maxlength: 40, value: state.realm_name ?? '' });
  const description = h('textarea', { name: 'description', rows: 3, maxlength: 1000 });
  description.value = state.realm_description ?? '';
  const visibility = h('select', { name: 'email_address_visibility' });
  const currentVisibility = state.realm_user_settings_defaults?.email_address_visibility;
  for (const v of EMAIL_VISIBILITY) visibility.append(h('option', { value: v.id, selected: v.id === currentVisibility }, v.name));
  const spectators = h('input', { type: 'checkbox', name: 'enable_spectator_access', checked: Boolean(state.realm_enable_spectator_access) });
  const receipts = h('input', { type: 'checkbox', name: 'enable_read_receipts', checked: state.realm_enable_read_receipts !== false });
  // Channel settings (-1: none); the channel list loads after the form shows.
  const streams = api.get<{ streams?: Channel[] }>('/streams').then((res) => (res.streams ?? []).sort((a, b) => a.name.localeCompare(b.name)));
  const currentModeration = Number(state.realm_moderation_request_channel_id ?? -1);
  const moderation = channelSelect('moderation_request_channel_id', currentModeration, 'Nobody (reporting messages is off)', streams, (c) => c.invite_only);
  const currentAnnouncements = Number(state.realm_new_stream_announcements_stream_id ?? -1);
  const announcements = channelSelect('new_stream_announcements_stream_id', currentAnnouncements, 'Nowhere', streams, () => true);
  const upload = h('input', { type: 'number', name: 'max_file_upload_size_mib', min: 0, step: 1, value: state.max_file_upload_size_mib ?? '' });
  const video = h('select', { name: 'video_chat_provider' });
  for (const p of Object.values(state.realm_available_video_chat_providers ?? {})) {
    video.append(h('option', { value: p.id, selected: p.id === state.realm_video_chat_provider }, p.name));
  }
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'org-title' },
    h('h2', { id: 'org-title' }, 'Organization'),
    field('Organization name', name),
    field('Organization description', description, 'Markdown; shown on the sign-in page.'),
    field('Who can see email addresses', visibility),
    h('div', { class: 'field check' }, spectators, h('label', { for: (spectators.id = 'spectator-access') }, 'Public access: anyone can read web-public channels without an account')),
    h('div', { class: 'field check' }, receipts, h('label', { for: (receipts.id = 'read-receipts') }, 'Read receipts: people can see who has read a message (each person may opt out)')),
    field('Message reports go to', moderation, 'A private channel where the Notification Bot posts the messages people report.'),
    field('New channels are announced in', announcements, 'When their creator asks, the Notification Bot announces new public channels there.'),
    field('Maximum upload size (MiB)', upload),
    field('Video-call provider', video),
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save changes')),
  );
  const saved: Record<string, unknown> = {
    name: name.value,
    description: description.value,
    enable_spectator_access: spectators.checked,
    enable_read_receipts: receipts.checked,
    moderation_request_channel_id: currentModeration,
    new_stream_announcements_stream_id: currentAnnouncements,
    max_file_upload_size_mib: upload.value === '' ? null : Number(upload.value),
    video_chat_provider: Number(video.value),
    email_address_visibility: Number(visibility.value),
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    notice.clear();
    const now: Record<string, unknown> = {
      name: name.value.trim(),
      description: description.value,
      enable_spectator_access: spectators.checked,
      enable_read_receipts: receipts.checked,
      moderation_request_channel_id: Number(moderation.value),
      new_stream_announcements_stream_id: Number(announcements.value),
      max_file_upload_size_mib: upload.value === '' ? null : Number(upload.value),
      video_chat_provider: Number(video.value),
      email_address_visibility: Number(visibility.value),
    };
    const realm: Record<string, unknown> = {};
    for (const k of ['name', 'description', 'enable_spectator_access', 'enable_read_receipts', 'moderation_request_channel_id', 'new_stream_announcements_stream_id', 'max_file_upload_size_mib', 'video_chat_provider']) {
      if (JSON.stringify(now[k]) !== JSON.stringify(saved[k]) && now[k] !== null) realm[k] = now[k];
    }
    const visibilityChanged = now.email_address_visibility !== saved.email_address_visibility;
    if (!Object.keys(realm).length && !visibilityChanged) {
      notice.show('info', 'Nothing to save: no setting changed.');
      return;
    }
    void busy(form, notice, async () => {
      const ignored: string[] = [];
      if (Object.keys(realm).length) {
        const res = await api.patch<{ ignored_parameters_unsupported?: string[] }>('/realm', realm);
        ignored.push(...(res.ignored_parameters_unsupported ?? []));
        for (const k of Object.keys(realm)) if (!ignored.includes(k)) saved[k] = now[k];
      }
      if (visibilityChanged) {
        await api.patch('/realm/user_settings_defaults', { email_address_visibility: now.email_address_visibility });
        saved.email_address_visibility = now.email_address_visibility;
      }
      notice.show(
        ignored.length ? 'info' : 'ok',
        ignored.length
          ? `Saved, except what this server cannot change: ${ignored.map((k) => LABELS[k] ?? k).join(', ')}.`
          : 'Settings saved.',
      );
    });
  });
  return form;
}

function iconForm(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const preview = h('img', { class: 'realm-icon', alt: 'Current organization icon', src: state.realm_icon_url ?? '' });
  const file = h('input', { type: 'file', name: 'icon', accept: 'image/png,image/jpeg,image/gif,image/webp', required: true });
  const reset = h('button', { type: 'button', class: 'secondary' }, 'Use the default icon');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'icon-title' },
    h('h2', { id: 'icon-title' }, 'Organization icon'),
    preview,
    field('New icon', file, 'PNG, JPEG, GIF or WebP, up to 5 MiB; square works best.'),
    notice.el,
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Upload icon'), reset),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    void busy(form, notice, async () => {
      const data = new FormData();
      data.append('file', chosen);
      const res = await api.upload<{ icon_url: string }>('/realm/icon', data);
      preview.src = res.icon_url;
      file.value = '';
      notice.show('ok', 'Icon updated.');
    });
  });
  reset.addEventListener('click', () =>
    void busy(reset, notice, async () => {
      const res = await api.delete<{ icon_url: string }>('/realm/icon');
      preview.src = res.icon_url;
      notice.show('ok', 'Back to the default icon.');
    }),
  );
  return form;
}

/** A select of channels (those `keep` accepts) with a "none" option (-1); the channels fill in once loaded. */
function channelSelect(name: string, current: number, none: string, streams: Promise<Channel[]>, keep: (c: Channel) => boolean): HTMLSelectElement {
  const select = h('select', { name });
  select.append(h('option', { value: -1, selected: current === -1 }, none));
  if (current !== -1) select.append(h('option', { value: current, selected: true }, `Channel ${current}`));
  streams.then(
    (list) =>
      select.replaceChildren(
        h('option', { value: -1, selected: current === -1 }, none),
        ...list.filter(keep).map((c) => h('option', { value: c.stream_id, selected: c.stream_id === current }, `#${c.name}`)),
      ),
    () => undefined,
  );
  return select;
}
