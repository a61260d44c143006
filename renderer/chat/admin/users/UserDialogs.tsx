/** The Users section's dialogs: add a user with an initial password; reset someone's password. */
import { useState } from 'preact/hooks';
import type { User } from '../../../../server/protocol/user.js';
import { Field } from '../../ui/Field.js';
import { FormDialog } from '../../ui/FormDialog.js';
import type { SetNotice } from '../../ui/Notice.js';
import { post } from '../api.js';

export function AddUserDialog({ setNotice, reload, onClose }: { setNotice: SetNotice; reload: () => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  return (
    <FormDialog
      title="Add user"
      submit="Create user"
      onClose={onClose}
      onSubmit={async () => {
        await post('/users', { full_name: name, email, password });
        setNotice({ kind: 'ok', text: `${name} can now sign in as ${email}.` });
        await reload();
        return true;
      }}
    >
      <Field label="Full name">
        {(ids) => <input {...ids} name="full_name" required maxLength={100} autocomplete="off" value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <Field label="Email">
        {(ids) => <input {...ids} name="email" type="email" required autocomplete="off" value={email} onInput={(e) => setEmail(e.currentTarget.value)} />}
      </Field>
      <Field label="Initial password" hint="Share it with them; they can change it.">
        {(ids) => (
          <input
            {...ids}
            name="password"
            type="password"
            required
            minLength={8}
            autocomplete="new-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}

export function ResetPasswordDialog({ user, setNotice, onClose }: { user: User; setNotice: SetNotice; onClose: () => void }) {
  const [password, setPassword] = useState('');
  return (
    <FormDialog
      title={`Reset the password of ${user.full_name}`}
      submit="Set password"
      onClose={onClose}
      onSubmit={async () => {
        await post(`/hearth/users/${user.user_id}/password`, { new_password: password });
        setNotice({ kind: 'ok', text: `The password of ${user.full_name} was changed.` });
        return true;
      }}
    >
      <Field label="New password" hint="At least 8 characters.">
        {(ids) => (
          <input
            {...ids}
            name="new_password"
            type="password"
            required
            minLength={8}
            autocomplete="new-password"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
