/**
 * Runs an async action for a form or button: busy while it runs (the caller disables its buttons
 * and sets `aria-busy`), its error said in the section's notice instead of thrown. `run` answers
 * whether the action succeeded.
 */
import { useCallback, useState } from 'preact/hooks';
import { errorText, type SetNotice } from './Notice.js';

export function useBusy(setNotice: SetNotice): [boolean, (fn: () => Promise<void>) => Promise<boolean>] {
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (fn: () => Promise<void>) => {
      setBusy(true);
      try {
        await fn();
        return true;
      } catch (err) {
        setNotice({ kind: 'error', text: errorText(err) });
        return false;
      } finally {
        setBusy(false);
      }
    },
    [setNotice],
  );
  return [busy, run];
}
