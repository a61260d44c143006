/** A short notice about a keyboard action ("There are no more unread topics."), shown and read out, then gone. */
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';

const toast = signal<{ text: string; seq: number } | null>(null);

export function announce(text: string): void {
  toast.value = { text, seq: (toast.value?.seq ?? 0) + 1 };
}

export function Toast() {
  const t = toast.value;
  useEffect(() => {
    if (!t) return;
    const timer = setTimeout(() => toast.value?.seq === t.seq && (toast.value = null), 4000);
    return () => clearTimeout(timer);
  }, [t?.seq]);
  return (
    <p class={`toast${t ? ' shown' : ''}`} role="status">
      {t?.text ?? ''}
    </p>
  );
}
