/** Settings: the organization icon (`/realm/icon`): upload a new one, or go back to the default. */
import { useRef, useState } from 'preact/hooks';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { del, upload } from '../api.js';
import { CardForm } from './CardForm.js';
import { IMAGE_TYPES, preloadImage, type SettingsState } from './settings-state.js';

export function IconForm({ state }: { state: SettingsState }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [icon, setIcon] = useState(state.realm_icon_url ?? '');
  const file = useRef<HTMLInputElement>(null);
  return (
    <CardForm
      title="Organization icon"
      busy={busy}
      onSubmit={() => {
        const input = file.current!;
        const chosen = input.files?.[0];
        if (!chosen) return;
        void run(async () => {
          const data = new FormData();
          data.append('file', chosen);
          const res = await upload<{ icon_url: string }>('/realm/icon', data);
          // Said once the new icon shows.
          await preloadImage(res.icon_url);
          setIcon(res.icon_url);
          input.value = '';
          setNotice({ kind: 'ok', text: 'Icon updated.' });
        });
      }}
    >
      <img class="realm-icon" alt="Current organization icon" src={icon} />
      <Field label="New icon" hint="PNG, JPEG, GIF or WebP, up to 5 MiB; square works best.">
        {(p) => <input {...p} ref={file} type="file" name="icon" accept={IMAGE_TYPES} required />}
      </Field>
      <Notice notice={notice} />
      <div class="actions">
        <BusyButton type="submit" busy={busy}>
          Upload icon
        </BusyButton>
        <BusyButton
          class="secondary"
          busy={busy}
          onClick={() =>
            void run(async () => {
              const res = await del<{ icon_url: string }>('/realm/icon');
              await preloadImage(res.icon_url);
              setIcon(res.icon_url);
              setNotice({ kind: 'ok', text: 'Back to the default icon.' });
            })
          }
        >
          Use the default icon
        </BusyButton>
      </div>
    </CardForm>
  );
}
