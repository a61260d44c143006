/** Settings that are lists: default channels, custom profile fields, channel folders, custom emoji. */
import type { Channel, ChannelFolder } from '../server/protocol/channel.js';
import type { RealmEmoji } from '../server/protocol/realm-emoji.js';
import type { ProfileField } from '../server/protocol/user.js';
import type { Api } from './admin-api.js';
import type { SettingsState } from './settings.js';
import { Notice, busy, errorText, field, h, safeHtml } from './dom.js';

/** Zulip's custom profile field types an administrator creates here (no field_data needed). */
const FIELD_TYPES = [
  { id: 1, name: 'Short text' },
  { id: 2, name: 'Long text' },
  { id: 4, name: 'Date' },
  { id: 5, name: 'Link' },
  { id: 6, name: 'Users' },
  { id: 8, name: 'Pronouns' },
];

export function listsSections(api: Api, state: SettingsState): HTMLElement[] {
  return [defaultChannels(api, state), profileFields(api, state), channelFolders(api, state), customEmoji(api)];
}

function section(id: string, title: string, intro: string, ...content: HTMLElement[]): HTMLElement {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), h('p', { class: 'hint' }, intro), ...content);
}

function defaultChannels(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const list = h('ul', { class: 'plain-list', 'aria-label': 'Default channels' });
  const pick = h('select', { name: 'stream_id' });
  const add = h('button', { type: 'submit' }, 'Add default channel');
  const form = h('form', { class: 'inline-form' }, field('Channel', pick), add);
  let ids = new Set<number>(state.realm_default_streams?.map((s) => (typeof s === 'number' ? s : s.stream_id)) ?? []);
  let streams: Channel[] = [];
  const render = () => {
    list.replaceChildren(
      ...streams
        .filter((s) => ids.has(s.stream_id))
        .map((s) => {
          const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Remove ${s.name} from default channels` }, 'Remove');
          remove.addEventListener('click', () =>
            void busy(remove, notice, async () => {
              await api.delete('/default_streams', { stream_id: s.stream_id });
              ids.delete(s.stream_id);
              render();
            }),
          );
          return h('li', {}, h('span', {}, `#${s.name}`), remove);
        }),
    );
    if (!list.children.length) list.append(h('li', { class: 'empty' }, 'No default channels.'));
    pick.replaceChildren(...streams.filter((s) => !ids.has(s.stream_id)).map((s) => h('option', { value: s.stream_id }, s.name)));
    form.hidden = pick.options.length === 0;
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!pick.value) return;
    void busy(form, notice, async () => {
      await api.post('/default_streams', { stream_id: Number(pick.value) });
      ids = new Set([...ids, Number(pick.value)]);
      render();
      notice.show('ok', 'Default channel added.');
    });
  });
  api.get<{ streams?: Channel[] }>('/streams').then(
    (res) => {
      streams = (res.streams ?? []).sort((a, b) => a.name.localeCompare(b.name));
      render();
    },
    (err) => notice.show('error', `Could not load channels: ${errorText(err)}`),
  );
  return section('default-channels-title', 'Default channels', 'New users are subscribed to these channels.', list, form, notice.el);
}

function profileFields(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const list = h('ul', { class: 'plain-list', 'aria-label': 'Custom profile fields' });
  let fields: ProfileField[] = state.custom_profile_fields ?? [];
  const render = () => {
    list.replaceChildren(
      ...fields.map((f) => {
        const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Delete the field ${f.name}` }, 'Delete');
        remove.addEventListener('click', () => {
          if (!confirm(`Delete the field "${f.name}" and everyone's values for it?`)) return;
          void busy(remove, notice, async () => {
            await api.delete(`/realm/profile_fields/${f.id}`);
            fields = fields.filter((x) => x.id !== f.id);
            render();
          });
        });
        const type = FIELD_TYPES.find((t) => t.id === f.type)?.name ?? 'Other';
        return h('li', {}, h('span', {}, `${f.name} `, h('small', { class: 'hint' }, `(${type})`)), remove);
      }),
    );
    if (!fields.length) list.append(h('li', { class: 'empty' }, 'No custom profile fields.'));
  };
  const name = h('input', { name: 'name', required: true, maxlength: 40 });
  const hint = h('input', { name: 'hint', maxlength: 80 });
  const type = h('select', { name: 'field_type' }, FIELD_TYPES.map((t) => h('option', { value: t.id }, t.name)));
  const form = h('form', { class: 'inline-form' }, field('Field name', name), field('Hint', hint), field('Type', type), h('button', { type: 'submit' }, 'Add field'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      await api.post('/realm/profile_fields', { name: name.value, hint: hint.value, field_type: Number(type.value) });
      const res = await api.get<{ custom_fields?: ProfileField[] }>('/realm/profile_fields');
      fields = res.custom_fields ?? fields;
      name.value = hint.value = '';
      render();
      notice.show('ok', 'Field added.');
    });
  });
  render();
  return section('profile-fields-title', 'Custom profile fields', 'Extra details people fill in on their profile (phone, team, pronouns…).', list, form, notice.el);
}

function channelFolders(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const list = h('ul', { class: 'plain-list', 'aria-label': 'Channel folders' });
  let folders: ChannelFolder[] = state.channel_folders ?? [];
  const render = () => {
    list.replaceChildren(
      ...folders
        .slice()
        .sort((a, b) => a.order - b.order)
        .map((f) => {
          const toggle = h('button', { type: 'button', class: 'secondary small' }, f.is_archived ? 'Unarchive' : 'Archive');
          toggle.setAttribute('aria-label', `${f.is_archived ? 'Unarchive' : 'Archive'} the folder ${f.name}`);
          toggle.addEventListener('click', () =>
            void busy(toggle, notice, async () => {
              await api.patch(`/channel_folders/${f.id}`, { is_archived: !f.is_archived });
              f.is_archived = !f.is_archived;
              render();
            }),
          );
          const desc = h('div', { class: 'folder-description' });
          if (f.rendered_description) desc.append(safeHtml(String(f.rendered_description)));
          return h('li', { class: f.is_archived ? 'inactive' : '' }, h('span', {}, f.name, f.is_archived ? ' (archived)' : '', desc), toggle);
        }),
    );
    if (!folders.length) list.append(h('li', { class: 'empty' }, 'No channel folders.'));
  };
  const name = h('input', { name: 'name', required: true, maxlength: 60 });
  const description = h('input', { name: 'description', maxlength: 200 });
  const form = h('form', { class: 'inline-form' }, field('Folder name', name), field('Folder description', description), h('button', { type: 'submit' }, 'Create folder'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      await api.post('/channel_folders/create', { name: name.value, description: description.value });
      const res = await api.get<{ channel_folders?: ChannelFolder[] }>('/channel_folders', { include_archived: true });
      folders = res.channel_folders ?? folders;
      name.value = description.value = '';
      render();
      notice.show('ok', 'Folder created.');
    });
  });
  render();
  return section('folders-title', 'Channel folders', 'Folders group channels in the apps’ channel list.', list, form, notice.el);
}

/** Custom emoji: each active one with its image; add (name + image), deactivate. */
function customEmoji(api: Api): HTMLElement {
  const notice = new Notice();
  const list = h('ul', { class: 'plain-list emoji-list', 'aria-label': 'Custom emoji' });
  let emoji: RealmEmoji[] = [];
  const load = async () => {
    const res = await api.get<{ emoji?: Record<string, RealmEmoji> }>('/realm/emoji');
    emoji = Object.values(res.emoji ?? {})
      .filter((e) => !e.deactivated)
      .sort((a, b) => String(a.name).localeCompare(b.name));
    render();
  };
  const render = () => {
    list.replaceChildren(
      ...emoji.map((e) => {
        const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Deactivate :${e.name}:` }, 'Deactivate');
        remove.addEventListener('click', () => {
          if (!confirm(`Deactivate :${e.name}:? Messages that use it keep showing it.`)) return;
          void busy(remove, notice, async () => {
            await api.delete(`/realm/emoji/${encodeURIComponent(e.name)}`);
            emoji = emoji.filter((x) => x.id !== e.id);
            render();
          });
        });
        const img = h('img', { class: 'emoji-preview', src: String(e.source_url), alt: '', width: 24, height: 24 });
        return h('li', {}, h('span', {}, img, ` :${e.name}:`), remove);
      }),
    );
    if (!emoji.length) list.append(h('li', { class: 'empty' }, 'No custom emoji.'));
  };
  const name = h('input', { name: 'emoji_name', required: true, maxlength: 60, placeholder: 'party_parrot' });
  const file = h('input', { type: 'file', name: 'emoji_file', accept: 'image/png,image/jpeg,image/gif,image/webp', required: true });
  const form = h(
    'form',
    { class: 'inline-form' },
    field('Emoji name', name, 'Lower-case letters, digits, - and _.'),
    field('Image', file, 'PNG, JPEG, GIF or WebP, up to 5 MiB; small and square works best.'),
    h('button', { type: 'submit' }, 'Add emoji'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    // The server's rule (it checks again), said before the upload.
    const added = name.value.trim().replace(/ /g, '_');
    if (!/^[0-9a-z_-]*[0-9a-z]$/.test(added)) {
      notice.show('error', 'Emoji names use lower-case letters, digits, - and _, and end with a letter or digit.');
      return;
    }
    void busy(form, notice, async () => {
      const data = new FormData();
      data.append('file', chosen);
      await api.upload(`/realm/emoji/${encodeURIComponent(added)}`, data);
      name.value = '';
      file.value = '';
      await load();
      notice.show('ok', `:${added}: added.`);
    });
  });
  load().catch((err) => notice.show('error', `Could not load custom emoji: ${errorText(err)}`));
  return section('custom-emoji-title', 'Custom emoji', 'Emoji everyone can use in messages, reactions and statuses.', list, form, notice.el);
}
