/** A button that is disabled and `aria-busy` while its action runs. */
import type { ButtonHTMLAttributes, ComponentChildren } from 'preact';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> & { busy: boolean; disabled?: boolean; children: ComponentChildren };

export function BusyButton({ busy, disabled, children, type = 'button', ...rest }: Props) {
  return (
    <button {...rest} type={type} disabled={busy || disabled} aria-busy={busy ? 'true' : undefined}>
      {children}
    </button>
  );
}
