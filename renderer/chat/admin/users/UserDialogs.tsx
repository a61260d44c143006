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
      <PasswordField label="Initial password" hint="Share it with them; they can change it." name="password" value={password} set={setPassword} />
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
      <PasswordField label="New password" hint="At least 8 characters." name="new_password" value={password} set={setPassword} />
    </FormDialog>
  );
}

/** A new password someone is given (at least 8 characters, as the server asks). */
function PasswordField({ label, hint, name, value, set }: { label: string; hint: string; name: string; value: string; set: (v: string) => void }) {
  return (
    <Field label={label} hint={hint}>
      {(ids) => <input {...ids} name={name} type="password" required minLength={8} autocomplete="new-password" value={value} onInput={(e) => set(e.currentTarget.value)} />}
    </Field>
  );
}
