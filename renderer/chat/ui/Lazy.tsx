/**
 * A view loaded when first shown (its code is a chunk of its own: the organization settings): a
 * loading line meanwhile, an alert if the chunk cannot be loaded.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Loading } from './TableBox.js';

export function Lazy<P extends object>({ load, what, props }: { load: () => Promise<ComponentType<P>>; what: string; props: P }) {
  const [loaded, setLoaded] = useState<{ C: ComponentType<P> } | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (C) => live && setLoaded({ C }),
      (err: unknown) => live && setLoaded({ error: `Could not load ${what}: ${String(err)}` }),
    );
    return () => {
      live = false;
    };
  }, [load, what]);
  if (!loaded) return <Loading what={what} />;
  if ('error' in loaded)
    return (
      <p class="notice notice-error" role="alert">
        {loaded.error}
      </p>
    );
  const { C } = loaded;
  return <C {...props} />;
}
