/**
 * Settings: the Welcome Bot's note to new people (Zulip's welcome_message_custom_text), saved
 * with PATCH /realm; "Send me a test" shows it as the Welcome Bot's direct message to oneself
 * (POST /realm/test_welcome_bot_custom_message).
 */
import type { Api } from './admin-api.js';
import type { SettingsState } from './settings.js';
import { Notice, busy, field, h } from './dom.js';

export function welcomeSection(api: Api, state: SettingsState): HTMLElement {
  const notice = new Notice();
  const text = h('textarea', { name: 'welcome_message_custom_text', rows: 4, maxlength: 8000, placeholder: 'Lunch is at noon on Fridays. Ask Ada about anything.' });
  text.value = String(state.realm_welcome_message_custom_text ?? '');
  const save = h('button', { type: 'submit' }, 'Save welcome note');
  const test = h('button', { type: 'button', class: 'secondary' }, 'Send me a test');
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'welcome-title' },
    h('h2', { id: 'welcome-title' }, 'Welcome note'),
    h('p', { class: 'hint' }, 'The Welcome Bot greets everyone who joins with a direct message; this note follows it, as a message of its own. Leave it empty for none.'),
    field('Note for new people', text, 'Markdown, up to 8,000 characters.'),
    h('div', { class: 'actions' }, save, test),
    notice.el,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void busy(form, notice, async () => {
      await api.patch('/realm', { welcome_message_custom_text: text.value });
      notice.show('ok', text.value.trim() ? 'Welcome note saved: new people get it after the greeting.' : 'Welcome note removed.');
    });
  });
  test.addEventListener('click', () =>
    void busy(test, notice, async () => {
      await api.post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: text.value });
      notice.show('ok', 'Sent: open the chat to see it in your direct messages from the Welcome Bot.');
    }),
  );
  return form;
}
