/** Users page: invite links, so colleagues create their own accounts (GET /invites, POST/DELETE /invites/multiuse). */
import { type Api, ROLES, roleName } from './admin-api.js';
import { Notice, busy, copyText, errorText, field, h } from './dom.js';

const EXPIRY: { minutes: number | null; label: string }[] = [
  { minutes: 24 * 60, label: '1 day' },
  { minutes: 7 * 24 * 60, label: '7 days' },
  { minutes: 10 * 24 * 60, label: '10 days' },
  { minutes: 30 * 24 * 60, label: '30 days' },
  { minutes: null, label: 'Never' },
];

/** An invitation as `GET /invites` lists it (Zulip's shape; only the fields this page shows). */
interface Invite {
  id: number;
  is_multiuse: boolean;
  invited_as: number;
  /** Seconds since the epoch; null: never expires. */
  expiry_date: number | null;
  link_url?: string;
}

const when = (seconds: number | null) => (seconds === null ? 'never expires' : `expires ${new Date(seconds * 1000).toLocaleString()}`);

export function invitesSection(api: Api): HTMLElement {
  const notice = new Notice();
  const list = h('ul', { class: 'plain-list', 'aria-label': 'Invite links' });
  const role = h('select', { name: 'invite_as' });
  for (const r of ROLES.filter((x) => x.id !== 100)) role.append(h('option', { value: r.id, selected: r.id === 400 }, r.name));
  const expiry = h('select', { name: 'invite_expires_in_minutes' });
  EXPIRY.forEach((e, i) => expiry.append(h('option', { value: i, selected: e.minutes === 10 * 24 * 60 }, e.label)));
  const created = h('div', {});
  const form = h('form', { class: 'inline-form' }, field('Joins as', role), field('Link expires after', expiry), h('button', { type: 'submit' }, 'Create invite link'));

  const render = (invites: Invite[]) => {
    list.replaceChildren(
      ...invites.map((inv) => {
        const revoke = h('button', { type: 'button', class: 'secondary small', 'aria-label': `Revoke the invite link ${inv.id}` }, 'Revoke');
        revoke.addEventListener('click', () =>
          void busy(revoke, notice, async () => {
            await api.delete(`/invites/multiuse/${inv.id}`);
            notice.show('ok', 'Invite link revoked: it no longer works.');
            await reload();
          }),
        );
        return h('li', {}, h('span', {}, `${roleName(inv.invited_as)} · ${when(inv.expiry_date)} · `, h('code', {}, inv.link_url)), revoke);
      }),
    );
    if (!list.children.length) list.append(h('li', { class: 'empty' }, 'No active invite links.'));
  };
  const reload = async () => {
    try {
      render((await api.get<{ invites: Invite[] }>('/invites')).invites.filter((i) => i.is_multiuse));
    } catch (err) {
      notice.show('error', `Could not load invite links: ${errorText(err)}`);
    }
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      const res = await api.post<{ invite_link: string }>('/invites/multiuse', {
        invite_as: Number(role.value),
        invite_expires_in_minutes: EXPIRY[Number(expiry.value)]!.minutes,
        include_realm_default_subscriptions: true,
      });
      const link = h('input', { readonly: true, value: String(res.invite_link), 'aria-label': 'New invite link' });
      const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy');
      copy.addEventListener('click', () => void copyText(link.value, link).then(() => notice.show('ok', 'Link copied.')));
      created.replaceChildren(h('div', { class: 'inline-form' }, link, copy));
      notice.show('ok', 'Invite link created: send it to the people who should join.');
      await reload();
    });
  });
  void reload();
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'invites-title' },
    h('h2', { id: 'invites-title' }, 'Invite links'),
    h('p', { class: 'hint' }, 'Anyone with a link can create their own account until it expires or you revoke it; new accounts join the default channels.'),
    form,
    created,
    notice.el,
    list,
  );
}
