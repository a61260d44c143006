/** Settings: custom profile fields (`/realm/profile_fields`): listed with their type, added, deleted. */
import type { ProfileField } from '../../../../server/protocol/user.js';
import { useRef, useState } from 'preact/hooks';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { useNotice } from '../../ui/Notice.js';
import { del, get, post } from '../api.js';
import { AddForm, ListCard, ListRow } from './ListCard.js';
import type { SettingsState } from './settings-state.js';

/** Zulip's custom profile field types an administrator creates here (no field_data needed). */
const FIELD_TYPES: readonly { id: number; name: string }[] = [
  { id: 1, name: 'Short text' },
  { id: 2, name: 'Long text' },
  { id: 4, name: 'Date' },
  { id: 5, name: 'Link' },
  { id: 6, name: 'Users' },
  { id: 8, name: 'Pronouns' },
];

export function ProfileFields({ state }: { state: SettingsState }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [fields, setFields] = useState<ProfileField[]>(state.custom_profile_fields ?? []);
  const name = useRef<HTMLInputElement>(null);
  const hint = useRef<HTMLInputElement>(null);
  const type = useRef<HTMLSelectElement>(null);
  const items = fields.map((f) => (
    <ListRow
      key={f.id}
      busy={busy}
      label={`Delete the field ${f.name}`}
      action="Delete"
      onAction={() => {
        if (!confirm(`Delete the field "${f.name}" and everyone's values for it?`)) return;
        void run(async () => {
          await del(`/realm/profile_fields/${f.id}`);
          setFields((now) => now.filter((x) => x.id !== f.id));
        });
      }}
    >
      {f.name} <small class="hint">({FIELD_TYPES.find((t) => t.id === f.type)?.name ?? 'Other'})</small>
    </ListRow>
  ));
  return (
    <ListCard
      title="Custom profile fields"
      intro="Extra details people fill in on their profile (phone, team, pronouns…)."
      label="Custom profile fields"
      empty="No custom profile fields."
      items={items}
      notice={notice}
    >
      <AddForm
        busy={busy}
        submit="Add field"
        onSubmit={() => {
          const n = name.current!;
          const h = hint.current!;
          void run(async () => {
            await post('/realm/profile_fields', { name: n.value, hint: h.value, field_type: Number(type.current!.value) });
            const res = await get<{ custom_fields?: ProfileField[] }>('/realm/profile_fields');
            setFields((now) => res.custom_fields ?? now);
            n.value = h.value = '';
            setNotice({ kind: 'ok', text: 'Field added.' });
          });
        }}
      >
        <Field label="Field name">{(p) => <input {...p} ref={name} name="name" required maxLength={40} />}</Field>
        <Field label="Hint">{(p) => <input {...p} ref={hint} name="hint" maxLength={80} />}</Field>
        <Field label="Type">
          {(p) => (
            <select {...p} ref={type} name="field_type">
              {FIELD_TYPES.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </AddForm>
    </ListCard>
  );
}
