/** Settings: linkifiers (patterns in messages and topics that become links, e.g. issue numbers; `/realm/filters`). */
import { useRef, useState } from 'preact/hooks';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { useNotice } from '../../ui/Notice.js';
import { del, post } from '../api.js';
import { AddForm, ListCard, ListRow } from './ListCard.js';
import type { Linkifier, SettingsState } from './settings-state.js';

export function Linkifiers({ state }: { state: SettingsState }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [linkifiers, setLinkifiers] = useState<Linkifier[]>(state.realm_linkifiers ?? []);
  const pattern = useRef<HTMLInputElement>(null);
  const template = useRef<HTMLInputElement>(null);
  const items = linkifiers.map((l) => (
    <ListRow
      key={l.id}
      busy={busy}
      label={`Delete the linkifier ${l.pattern}`}
      action="Delete"
      onAction={() =>
        void run(async () => {
          await del(`/realm/filters/${l.id}`);
          setLinkifiers((now) => now.filter((x) => x.id !== l.id));
          setNotice({ kind: 'ok', text: 'Linkifier deleted.' });
        })
      }
    >
      <code>{l.pattern}</code> → <code>{l.url_template}</code>
    </ListRow>
  ));
  return (
    <ListCard
      title="Linkifiers"
      intro="Text in new messages and topics that matches a pattern becomes a link, for example issue numbers."
      label="Linkifiers"
      empty="No linkifiers."
      items={items}
      notice={notice}
    >
      <AddForm
        busy={busy}
        submit="Add linkifier"
        onSubmit={() => {
          const p = pattern.current!;
          const t = template.current!;
          void run(async () => {
            const added = { pattern: p.value.trim(), url_template: t.value.trim() };
            const res = await post<{ id: number }>('/realm/filters', added);
            setLinkifiers((now) => [...now, { id: res.id, ...added }]);
            p.value = t.value = '';
            setNotice({ kind: 'ok', text: 'Linkifier added.' });
          });
        }}
      >
        <Field label="Pattern" hint="A regular expression; name each part the link uses, as (?P<id>…).">
          {(ids) => <input {...ids} ref={pattern} name="pattern" required placeholder="#(?P<id>[0-9]+)" spellcheck={false} />}
        </Field>
        <Field label="URL template" hint="Where the link goes; {id} is replaced by that part of the match.">
          {(ids) => <input {...ids} ref={template} name="url_template" required placeholder="https://tracker.example/issues/{id}" spellcheck={false} />}
        </Field>
      </AddForm>
    </ListCard>
  );
}
