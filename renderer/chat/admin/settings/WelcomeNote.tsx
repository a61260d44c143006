/**
 * Settings: the Welcome Bot's note to new people (Zulip's welcome_message_custom_text), saved
 * with PATCH /realm; "Send me a test" shows it as the Welcome Bot's direct message to oneself
 * (POST /realm/test_welcome_bot_custom_message).
 */
import { useRef } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { patch, post } from '../api.js';
import { CardForm } from './CardForm.js';
import type { SettingsState } from './settings-state.js';

export function WelcomeNote({ state }: { state: SettingsState }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const text = useRef<HTMLTextAreaElement>(null);
  const sendTest = () =>
    void run(async () => {
      await post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: text.current!.value });
      setNotice({ kind: 'ok', text: 'Sent: open the chat to see it in your direct messages from the Welcome Bot.' });
    });
  return (
    <CardForm
      title="Welcome note"
      busy={busy}
      onSubmit={() => {
        const note = text.current!.value;
        void run(async () => {
          await patch('/realm', { welcome_message_custom_text: note });
          setNotice({ kind: 'ok', text: note.trim() ? 'Welcome note saved: new people get it after the greeting.' : 'Welcome note removed.' });
        });
      }}
    >
      <p class="hint">The Welcome Bot greets everyone who joins with a direct message; this note follows it, as a message of its own. Leave it empty for none.</p>
      <Field label="Note for new people" hint="Markdown, up to 8,000 characters.">
        {(p) => (
          <textarea
            {...p}
            ref={text}
            name="welcome_message_custom_text"
            rows={4}
            maxLength={8000}
            placeholder="Lunch is at noon on Fridays. Ask Ada about anything."
            defaultValue={String(state.realm_welcome_message_custom_text ?? '')}
          />
        )}
      </Field>
      <div class="actions">
        <BusyButton type="submit" busy={busy}>
          Save welcome note
        </BusyButton>
        <BusyButton class="secondary" busy={busy} onClick={sendTest}>
          Send me a test
        </BusyButton>
      </div>
      <Notice notice={notice} />
    </CardForm>
  );
}
