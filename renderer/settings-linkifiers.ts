/** Settings: linkifiers (patterns in messages and topics that become links, e.g. issue numbers). */
import type { Api } from './admin-api.js';
import type { Linkifier, SettingsState } from './settings.js';
import { Notice, busy, field, h } from './dom.js';

export function linkifiersSection(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const list = h('ul', { class: 'plain-list', 'aria-label': 'Linkifiers' });
  let linkifiers: Linkifier[] = state.realm_linkifiers ?? [];
  const render = () => {
    list.replaceChildren(
      ...linkifiers.map((l) => {
        const remove = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Delete the linkifier ${l.pattern}` }, 'Delete');
        remove.addEventListener('click', () =>
          void busy(remove, notice, async () => {
            await api.delete(`/realm/filters/${l.id}`);
            linkifiers = linkifiers.filter((x) => x.id !== l.id);
            render();
            notice.show('ok', 'Linkifier deleted.');
          }),
        );
        return h('li', {}, h('span', {}, h('code', {}, l.pattern), ' → ', h('code', {}, l.url_template)), remove);
      }),
    );
    if (!list.children.length) list.append(h('li', { class: 'empty' }, 'No linkifiers.'));
  };
  const pattern = h('input', { name: 'pattern', required: true, placeholder: '#(?P<id>[0-9]+)', spellcheck: false });
  const template = h('input', { name: 'url_template', required: true, placeholder: 'https://tracker.example/issues/{id}', spellcheck: false });
  const form = h(
    'form',
    { class: 'inline-form' },
    field('Pattern', pattern, 'A regular expression; name each part the link uses, as (?P<id>…).'),
    field('URL template', template, 'Where the link goes; {id} is replaced by that part of the match.'),
    h('button', { type: 'submit' }, 'Add linkifier'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      const res = await api.post<{ id: number }>('/realm/filters', { pattern: pattern.value.trim(), url_template: template.value.trim() });
      linkifiers = [...linkifiers, { id: res.id, pattern: pattern.value.trim(), url_template: template.value.trim() }];
      pattern.value = '';
      template.value = '';
      render();
      notice.show('ok', 'Linkifier added.');
    });
  });
  render();
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'linkifiers-title' },
    h('h2', { id: 'linkifiers-title' }, 'Linkifiers'),
    h('p', { class: 'hint' }, 'Text in new messages and topics that matches a pattern becomes a link, for example issue numbers.'),
    list,
    form,
    notice.el,
  );
}
