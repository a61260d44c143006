/**
 * Channels page: every channel of the organization with its people and whether new people
 * join it, and a form to create one (POST /channels/create, Zulip 11), optionally with
 * everyone subscribed and as a default channel for people who join later.
 */
import type { Channel } from '../server/protocol/channel.js';
import type { User } from '../server/protocol/user.js';
import type { Api } from './admin-api.js';
import { Notice, busy, errorText, field, h, loading, safeHtml, tableBox } from './dom.js';

const checkbox = (id: string, label: string, checked: boolean, hint?: string) => {
  const box = h('input', { type: 'checkbox', id, checked });
  const wrap = h('div', { class: 'field check' }, box, h('label', { for: id }, label));
  if (hint) wrap.append(h('small', { class: 'hint' }, hint));
  return { box, wrap };
};

export function channelsPage(api: Api): HTMLElement {
  const page = h('div', { class: 'page' }, h('h1', {}, 'Channels'), loading('channels'));
  const notice = new Notice();
  const table = h('table', { class: 'list channels-list', 'aria-label': 'Channels' });
  const load = async () => {
    const [streams, defaults, users] = await Promise.all([
      api.get<{ streams?: Channel[] }>('/streams', { include_all: true }),
      api.get<{ default_streams?: Channel[] }>('/default_streams').catch(() => ({ default_streams: [] })),
      api.get<{ members?: User[] }>('/users'),
    ]);
    return {
      channels: (streams.streams ?? []).sort((a, b) => a.name.localeCompare(b.name)),
      defaults: new Set<number>((defaults.default_streams ?? []).map((s) => s.stream_id)),
      people: (users.members ?? []).filter((u) => u.is_active && !u.is_bot).map((u) => u.user_id),
    };
  };
  const render = (data: Awaited<ReturnType<typeof load>>) => {
    table.replaceChildren(
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Channel'), h('th', { scope: 'col' }, 'Who can join'), h('th', { scope: 'col' }, 'New people join it'))),
      h(
        'tbody',
        {},
        data.channels.map((c) => {
          const isDefault = data.defaults.has(c.stream_id);
          const toggle = h('input', { type: 'checkbox', checked: isDefault, disabled: Boolean(c.invite_only), 'aria-label': `New people join #${c.name}` });
          toggle.addEventListener('change', async () => {
            const on = toggle.checked;
            toggle.disabled = true;
            try {
              if (on) await api.post('/default_streams', { stream_id: c.stream_id });
              else await api.delete('/default_streams', { stream_id: c.stream_id });
              notice.show('ok', on ? `New people now join #${c.name}.` : `New people no longer join #${c.name}.`);
            } catch (err) {
              toggle.checked = !on;
              notice.show('error', errorText(err));
            } finally {
              toggle.disabled = false;
            }
          });
          return h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('span', { class: 'channel-name' }, `#${c.name}`), c.description ? h('small', { class: 'hint' }, ' ', c.rendered_description ? safeHtml(String(c.rendered_description)) : String(c.description)) : null),
            h('td', {}, c.invite_only ? 'Private: invited people only' : 'Public: anyone in the organization'),
            h('td', {}, toggle),
          );
        }),
      ),
    );
  };

  const createNotice = new Notice();
  const name = h('input', { name: 'name', required: true, maxlength: 60, placeholder: 'design' });
  const description = h('input', { name: 'description', maxlength: 1024, placeholder: 'What the channel is for' });
  const priv = checkbox('channel-private', 'Private: only the people subscribed can see it', false);
  const everyone = checkbox('channel-everyone', 'Subscribe everyone now', true);
  const makeDefault = checkbox('channel-default', 'New people join it too (a default channel)', true);
  priv.box.addEventListener('change', () => {
    makeDefault.box.disabled = priv.box.checked;
    if (priv.box.checked) makeDefault.box.checked = false;
    // A private channel starts with its creator; "everyone" stays a choice.
    everyone.box.checked = !priv.box.checked;
  });
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'create-channel-title' },
    h('h2', { id: 'create-channel-title' }, 'Create a channel'),
    field('Channel name', name),
    field('Description', description, 'Optional; Markdown.'),
    priv.wrap,
    everyone.wrap,
    makeDefault.wrap,
    h('button', { type: 'submit' }, 'Create channel'),
    createNotice.el,
  );
  let data: Awaited<ReturnType<typeof load>> | null = null;
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, createNotice, async () => {
      const me = api.session?.user_id;
      const subscribers = everyone.box.checked && data ? data.people : me ? [me] : [];
      const res = await api.post<{ id: number }>('/channels/create', {
        name: name.value.trim(),
        description: description.value.trim(),
        subscribers,
        invite_only: priv.box.checked,
        is_default_stream: makeDefault.box.checked && !priv.box.checked,
      });
      createNotice.show('ok', `#${name.value.trim()} created (ID ${res.id}).`);
      name.value = '';
      description.value = '';
      data = await load();
      render(data);
    });
  });

  load().then(
    (d) => {
      data = d;
      render(d);
      page.replaceChildren(
        h('h1', {}, 'Channels'),
        h('section', { class: 'card', 'aria-labelledby': 'channels-title' }, h('h2', { id: 'channels-title' }, 'All channels'), tableBox('Channels', table), notice.el),
        form,
      );
    },
    (err) => page.append(h('p', { class: 'notice notice-error', role: 'alert' }, `Could not load channels: ${errorText(err)}`)),
  );
  return page;
}
