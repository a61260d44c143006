/**
 * Which dialog a section has open, and focus back on the button that opened it once it closes
 * (Dialog.tsx's `Modal` leaves that to the caller). A dialog that opens another (Add bot, then the
 * new bot's key) keeps the first opener.
 */
import { useCallback, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface DialogState<T> {
  open: T | null;
  /** Opens `value`; `from` is the control to focus afterwards (default: what has focus now). */
  show: (value: T, from?: Element | null) => void;
  /** Closes the dialog; with `only`, only when the open one is that one. */
  close: (only?: (open: T) => boolean) => void;
}

export function useDialog<T>(): DialogState<T> {
  const [open, setOpen] = useState<T | null>(null);
  const current = useRef<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const refocus = useRef(false);
  const show = useCallback((value: T, from?: Element | null) => {
    if (current.current === null) {
      const el = from === undefined ? document.activeElement : from;
      opener.current = el instanceof HTMLElement ? el : null;
    }
    current.current = value;
    setOpen(value);
  }, []);
  const close = useCallback((only?: (open: T) => boolean) => {
    const was = current.current;
    if (was === null || (only && !only(was))) return;
    current.current = null;
    refocus.current = true;
    setOpen(null);
  }, []);
  // Once the dialog has gone, in the same task (the page behind a modal dialog takes no focus).
  useLayoutEffect(() => {
    if (open !== null || !refocus.current) return;
    refocus.current = false;
    if (opener.current?.isConnected) opener.current.focus();
  }, [open]);
  return { open, show, close };
}
