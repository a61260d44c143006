/**
 * The "Keyboard shortcuts" dialog (`?`): the SHORTCUTS table by group, and the search
 * filters. A modal dialog labelled by its heading; Escape or "Close" shuts it and focus goes
 * back where it was.
 */
import { useEffect, useRef } from 'preact/hooks';
import { Modal } from './ui/Dialog.js';
import { SEARCH_HELP } from './search/search-terms.js';
import { helpOpen, SHORTCUTS, type Shortcut } from './shortcuts.js';

const GROUPS: Shortcut['group'][] = ['Messages', 'Writing', 'Going places', 'The app'];

function Keys({ s }: { s: Shortcut }) {
  // Shift+I and Ctrl+S are chords; R and Enter are two keys doing the same.
  const chord = s.show[0] === 'Shift' || s.show[0] === 'Ctrl' || s.show[0] === 'Alt';
  return <>{s.show.flatMap((k, i) => [i > 0 ? <span class="muted">{chord ? ' + ' : ' or '}</span> : null, <kbd>{k}</kbd>])}</>;
}

export function ShortcutsHelp() {
  const open = helpOpen.value;
  const back = useRef<HTMLElement | null>(null);
  // Where focus was, noted while rendering (the dialog takes focus in its own effect, before ours).
  if (open && !back.current) back.current = document.activeElement as HTMLElement | null;
  useEffect(() => {
    if (!open && back.current) {
      back.current.focus({ preventScroll: true });
      back.current = null;
    }
  }, [open]);
  if (!open) return null;
  const close = () => (helpOpen.value = false);
  return (
    <Modal title="Keyboard shortcuts" onClose={close} class="shortcuts-help">
      {/* First in the dialog, so it has focus when it opens and the list shows from its top. */}
      <button type="button" class="close" onClick={close}>
        Close
      </button>
      <div class="shortcut-groups">
        {GROUPS.map((g) => (
          <table key={g}>
            <caption>{g}</caption>
            <tbody>
              {SHORTCUTS.filter((s) => s.group === g).map((s) => (
                <tr key={s.show.join('+')}>
                  <th scope="row">
                    <Keys s={s} />
                  </th>
                  <td>{s.does}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
        <table class="filters">
          <caption>Search filters</caption>
          <tbody>
            {SEARCH_HELP.map(([ex, does]) => (
              <tr key={ex}>
                <th scope="row">
                  <code>{ex}</code>
                </th>
                <td>{does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="hint">Keys do nothing while you type in a field; Esc leaves the field.</p>
    </Modal>
  );
}
