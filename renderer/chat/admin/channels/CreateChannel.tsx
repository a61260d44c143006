/**
 * Channels, "Create a channel" (`POST /channels/create`, Zulip 11): private or public, optionally with
 * everyone subscribed and as a default channel for people who join later.
 */
import { useState } from 'preact/hooks';
import { session } from '../../store/session.js';
import { BusyButton } from '../../ui/BusyButton.js';
import { useBusy } from '../../ui/busy.js';
import { Field } from '../../ui/Field.js';
import { Notice, useNotice } from '../../ui/Notice.js';
import { post } from '../api.js';

function Check({ id, label, checked, disabled, onChange }: { id: string; label: string; checked: boolean; disabled?: boolean; onChange: (on: boolean) => void }) {
  return (
    <div class="field check">
      <input type="checkbox" id={id} checked={checked} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />
      <label for={id}>{label}</label>
    </div>
  );
}

/** `people`: who "Subscribe everyone now" subscribes; `onCreated` loads the list again. */
export function CreateChannel({ people, onCreated }: { people: readonly number[]; onCreated: () => Promise<void> }) {
  const [notice, setNotice] = useNotice();
  const [busy, run] = useBusy(setNotice);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [priv, setPriv] = useState(false);
  const [everyone, setEveryone] = useState(true);
  const [makeDefault, setMakeDefault] = useState(true);

  const submit = () =>
    run(async () => {
      const me = session.peek()?.user_id;
      const subscribers = everyone ? people : me ? [me] : [];
      const res = await post<{ id: number }>('/channels/create', {
        name: name.trim(),
        description: description.trim(),
        subscribers,
        invite_only: priv,
        is_default_stream: makeDefault && !priv,
      });
      setNotice({ kind: 'ok', text: `#${name.trim()} created (ID ${res.id}).` });
      setName('');
      setDescription('');
      await onCreated();
    });

  return (
    <form
      class="card channels-card"
      aria-labelledby="create-channel-title"
      aria-busy={busy ? 'true' : undefined}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 id="create-channel-title">Create a channel</h2>
      <Field label="Channel name">{(ids) => <input {...ids} name="name" required maxLength={60} placeholder="design" value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
      <Field label="Description" hint="Optional; Markdown.">
        {(ids) => <input {...ids} name="description" maxLength={1024} placeholder="What the channel is for" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}
      </Field>
      <Check
        id="channel-private"
        label="Private: only the people subscribed can see it"
        checked={priv}
        onChange={(on) => {
          setPriv(on);
          if (on) setMakeDefault(false);
          // A private channel starts with its creator; "everyone" stays a choice.
          setEveryone(!on);
        }}
      />
      <Check id="channel-everyone" label="Subscribe everyone now" checked={everyone} onChange={setEveryone} />
      <Check id="channel-default" label="New people join it too (a default channel)" checked={makeDefault} disabled={priv} onChange={setMakeDefault} />
      <BusyButton type="submit" busy={busy}>
        Create channel
      </BusyButton>
      <Notice notice={notice} />
    </form>
  );
}
